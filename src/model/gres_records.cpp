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
void read_gres_nodes(GresLine& g, const VersionProfile& profile, Findings& findings) {
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
  if (!plain) g.hostlist = std::make_unique<const Hostlist>(std::move(*l.list));
  g.nodes_valid = true;
}

std::vector<std::uint32_t> line_contents(const std::vector<GresLine>& lines,
                                         const std::vector<const GresLine*>& global_lines, const SourceManager& sources) {
  struct Key {
    std::string_view text;
    std::uint32_t extra;
    bool operator==(const Key& o) const { return extra == o.extra && text == o.text; }
  };
  struct Hash {
    std::size_t operator()(const Key& k) const { return text_hash(k.text) * 31 + k.extra; }
  };
  std::unordered_map<Key, std::uint32_t, Hash> ids;
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
  std::array<Recent, 8> recent{};
  std::size_t next_recent = 0;
  std::vector<std::uint32_t> out(lines.size());
  std::uint32_t globals_before = 0;
  for (std::uint32_t li = 0; li < lines.size(); ++li) {
    const GresLine& g = lines[li];
    if (g.node_scoped)
      while (globals_before < global_lines.size() && global_lines[globals_before]->file_order < g.file_order)
        ++globals_before;
    const Directive& d = *g.d;
    const std::uint32_t tail = std::min(d.head().value_span.end, d.span.end);
    const std::uint32_t extra = (globals_before << 2) | (d.complete ? 2u : 0u) | (g.node_scoped ? 1u : 0u);
    const RepeatedTail* repeated = d.repeated_tail();
    std::string_view gap;
    if (repeated) {
      gap = sources.text(Span{d.span.file, tail, std::max(tail, d.tail_begin())});
      const auto hit = std::find_if(recent.begin(), recent.end(), [&](const Recent& r) {
        return r.tail == repeated && r.extra == extra && r.gap == gap;
      });
      if (hit != recent.end()) {
        out[li] = hit->id;
        continue;
      }
    }
    const Key key{sources.text(Span{d.span.file, tail, d.span.end}), extra};
    // try_emplace: emplace made (and freed) a map node per line even when the key was known.
    out[li] = ids.try_emplace(key, std::uint32_t(ids.size())).first->second;
    if (repeated) {
      recent[next_recent] = Recent{repeated, gap, extra, out[li]};
      next_recent = (next_recent + 1) % recent.size();
    }
  }
  return out;
}

}  // namespace

GresRecords gather_gres_records(const ConfigFile& gres, const VersionProfile& profile, const SourceManager& sources,
                                Reporter& out) {
  GresRecords r;
  // One pass over the file sorts the records into the two kinds (with their place among all
  // records); the lines are then sized once: a per-node gres.conf has 200,000 lines, and
  // vectors grown by doubling and then copied held up to three times that (a GresLine was ~100
  // bytes). Three passes over the directives (144 bytes each, a cache miss each) were 6% of
  // linting such a file.
  // A record is its directive's index and its place among the records: 8 bytes, for files
  // written one line per GPU (800,000 lines at 100,000 nodes).
  struct Record {
    std::uint32_t directive;
    std::uint32_t file_order;
  };
  std::vector<Record> name_records, node_records;
  std::uint32_t order = 0;
  const std::vector<Directive>& directives = gres.directives;
  for (std::uint32_t i = 0; i < directives.size(); ++i) {
    const Directive& d = directives[i];
    if (d.kind == Directive::Kind::record) {
      (iequals(d.head().key, "NodeName") ? node_records : name_records).push_back(Record{i, order++});
      continue;
    }
    if (iequals(d.head().spec->name, "AutoDetect")) {
      r.autodetect = d.head().value;
      r.autodetect_kv = &d.head();
    }
  }
  Findings findings(out);
  r.lines.reserve(name_records.size() + node_records.size());
  for (const bool scoped : {false, true})
    for (const Record& rec : scoped ? node_records : name_records) {
      GresLine g;
      g.d = &directives[rec.directive];
      g.file_order = rec.file_order;
      g.node_scoped = scoped;
      if (scoped) read_gres_nodes(g, profile, findings);
      r.lines.push_back(std::move(g));
    }
  for (const GresLine& g : r.lines)
    if (!g.node_scoped) r.global_lines.push_back(&g);
  r.contents = line_contents(r.lines, r.global_lines, sources);
  return r;
}

}  // namespace greslint::model
