// SPDX-License-Identifier: Apache-2.0
#include "model/gres_records.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "greslint/hostlist.hpp"
#include "greslint/text_hash.hpp"
#include "model/findings.hpp"
#include "rules/stages.hpp"
#include "util.hpp"

namespace greslint::model {

namespace {

/// The nodes a gres.conf NodeName= line names, the line checked (kGresConfNodeName); an
/// invalid list names none (GresLine::nodes_valid unset).
void read_gres_nodes(GresLine& g, GresLineLists& lists, const VersionProfile& profile, Findings& findings) {
  const KeyValue& head = g.d->head();
  // A per-node line names one host as written: a valid list of itself, no Hostlist needed
  // (building one per line was a quarter of reading a gres.conf written node by node).
  if (is_single_host(head.value)) {
    const rules::GresConfLineView view{profile, *g.d, nullptr};
    for (const auto& check : rules::kGresConfNodeNameStage) check.run(view, findings);
    g.nodes_valid = true;
    return;
  }
  auto l = parse_hostlist(head.value, head.value_span, profile);
  const rules::GresConfLineView view{profile, *g.d, &l};
  for (const auto& check : rules::kGresConfNodeNameStage) check.run(view, findings);
  if (!l.ok()) return;
  // A plain host name (the common per-node line) is its own one name: keep the view.
  const auto& ranges = l.list->ranges();
  const bool plain = ranges.size() == 1 && ranges.front().count() == 1 && ranges.front().host(0) == head.value;
  if (!plain) {
    lists.push_back(std::move(*l.list));
    g.hostlist = std::uint32_t(lists.size());
  }
  g.nodes_valid = true;
}

/// Ids for what lines say apart from the nodes they name: lines with equal ids give every
/// node they name the same records. Ids are given in the order lines are asked about.
class ContentIds {
 public:
  explicit ContentIds(const SourceManager& sources) : sources_(sources) {}

  /// `g`'s id; `globals_before`: how many Name= lines come before it in the file.
  std::uint32_t id_of(const GresLine& g, std::uint32_t globals_before) {
    const Directive& d = *g.d;
    const std::uint32_t tail = std::min(d.head().value_span.end, d.span.end);
    const std::uint32_t extra = (globals_before << 2) | (d.complete ? 2u : 0u) | (g.node_scoped ? 1u : 0u);
    const RepeatedTail* repeated = d.repeated_tail();
    std::string_view gap;
    if (repeated) {
      // The line's own view, not the file's text: see Reader::copy_head.
      gap = d.gap_text();
      const auto hit = std::find_if(recent_.begin(), recent_.end(), [&](const Recent& r) {
        return r.tail == repeated && r.extra == extra && r.gap == gap;
      });
      if (hit != recent_.end()) return hit->id;
    }
    const Key key{sources_.text(Span{d.span.file, tail, d.span.end}), extra};
    // try_emplace: emplace made (and freed) a map node per line even when the key was known.
    const std::uint32_t id = ids_.try_emplace(key, std::uint32_t(ids_.size())).first->second;
    if (repeated) {
      recent_[next_recent_] = Recent{repeated, gap, extra, id};
      next_recent_ = (next_recent_ + 1) % recent_.size();
    }
    return id;
  }
  std::size_t size() const noexcept { return ids_.size(); }

 private:
  struct Key {
    std::string_view text;
    std::uint32_t extra;
    bool operator==(const Key& o) const { return extra == o.extra && text == o.text; }
  };
  struct Hash {
    std::size_t operator()(const Key& k) const { return text_hash(k.text) * 31 + k.extra; }
  };
  const SourceManager& sources_;
  std::unordered_map<Key, std::uint32_t, Hash> ids_;
  // Performance: the ids of the last few lines that repeat a tail (Directive::repeated_tail).
  // Such a line's text after its head is the text between the head's value and the tail
  // (empty but for a closing quote), then the tail's own text: lines with one tail and one
  // such gap say the same, and a pointer comparison replaces hashing and comparing the text
  // (a per-node gres.conf alternates between a handful of tails).
  struct Recent {
    const RepeatedTail* tail = nullptr;
    std::string_view gap;
    std::uint32_t extra = 0;
    std::uint32_t id = 0;
  };
  std::array<Recent, 8> recent_{};
  std::size_t next_recent_ = 0;
};

}  // namespace

GresRecords gather_gres_records(const ConfigFile& gres, const VersionProfile& profile, const SourceManager& sources,
                                Reporter& out) {
  GresRecords r;
  // One pass over the directives makes each record's line, checks its nodes and finds what it
  // says, while the directive is in the cache. Performance: a gres.conf written one line per
  // GPU holds 800,000 directives of 128 bytes at 100,000 nodes, and three passes over them
  // (sorting the records by kind, making the lines, finding their contents) were 40 ms, a
  // quarter of linting it. The NodeName= lines go straight to their place; the Name= lines
  // (few, or none in a file written node by node) are put before them at the end.
  std::vector<GresLine> name_lines;
  std::vector<std::uint32_t> name_contents;
  r.lines.reserve(gres.directives.size());
  r.contents.reserve(gres.directives.size());
  ContentIds ids(sources);
  Findings findings(out);
  std::uint32_t order = 0;
  for (const Directive& d : gres.directives) {
    if (d.kind != Directive::Kind::record) {
      if (iequals(d.head().spec->name, "AutoDetect")) {
        r.autodetect = d.head().value;
        r.autodetect_kv = d.head();
      }
      continue;
    }
    GresLine g;
    g.d = &d;
    g.file_order = order++;
    g.node_scoped = iequals(d.head().key, "NodeName");
    if (!g.node_scoped) {
      // Slurm's list holds every Name= record before any NodeName= one: none precedes it.
      name_contents.push_back(ids.id_of(g, 0));
      name_lines.push_back(std::move(g));
      continue;
    }
    read_gres_nodes(g, r.hostlists, profile, findings);
    r.contents.push_back(ids.id_of(g, std::uint32_t(name_lines.size())));
    r.lines.push_back(std::move(g));
  }
  if (!name_lines.empty()) {
    r.lines.insert(r.lines.begin(), std::make_move_iterator(name_lines.begin()), std::make_move_iterator(name_lines.end()));
    r.contents.insert(r.contents.begin(), name_contents.begin(), name_contents.end());
    // The ids were given in file order: renumbered by where each first appears in Slurm's
    // list, they are what finding them in that order gave, and the model's tables and every
    // report stay the same.
    std::vector<std::uint32_t> renumbered(ids.size(), UINT32_MAX);
    std::uint32_t next = 0;
    for (std::uint32_t& id : r.contents) {
      if (renumbered[id] == UINT32_MAX) renumbered[id] = next++;
      id = renumbered[id];
    }
  }
  for (const GresLine& g : r.lines) {
    if (g.node_scoped) break;
    r.global_lines.push_back(&g);
  }
  return r;
}

}  // namespace greslint::model
