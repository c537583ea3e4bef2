// SPDX-License-Identifier: Apache-2.0
#include "model/gres_records.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "greslint/hostlist.hpp"
#include "greslint/text_hash.hpp"
#include "model/findings.hpp"
#include "two_parts.hpp"
#include "rules/stages.hpp"
#include "util.hpp"

namespace greslint::model {

namespace {

/// What read_gres_nodes found of a NodeName= line's nodes.
struct LineNodes {
  bool valid = false;  ///< GresLine::nodes_valid
  bool single = false;  ///< one host name written plainly (is_single_host)
  std::uint32_t hostlist = 0;  ///< GresLine::hostlist
};

/// The nodes gres.conf NodeName= line `d` names, the line checked (kGresConfNodeNameStage);
/// an invalid list names none. `single_before`: the NodeName= line before said the same and
/// was one host name written plainly, as this one then is.
/// Performance: a result in registers, not bits written into the caller's GresLine. Written
/// a byte at a time and read back a word at a time (GresLine's bit fields), each line stalled
/// on the store (a third of gather_part on a per-GPU gres.conf).
LineNodes read_gres_nodes(const Directive& d, GresLineLists& lists, const VersionProfile& profile,
                          Findings& findings, bool single_before) {
  // A per-node line names one host as written: a valid list of itself, no Hostlist needed
  // (building one per line was a quarter of reading a gres.conf written node by node).
  if (single_before || is_single_host(d.head_value())) {
    const rules::GresConfLineView view{profile, d, nullptr};
    for (const auto& check : rules::kGresConfNodeNameStage) check.run(view, findings);
    return LineNodes{true, true, 0};
  }
  const KeyValue head = d.head();
  auto l = parse_hostlist(head.value, head.value_span, profile);
  const rules::GresConfLineView view{profile, d, &l};
  for (const auto& check : rules::kGresConfNodeNameStage) check.run(view, findings);
  if (!l.ok()) return LineNodes{};
  // A plain host name (the common per-node line) is its own one name: keep the view.
  const auto& ranges = l.list->ranges();
  const bool plain = ranges.size() == 1 && ranges.front().count() == 1 && ranges.front().host(0) == head.value;
  if (plain) return LineNodes{true, false, 0};
  lists.push_back(std::move(*l.list));
  return LineNodes{true, false, std::uint32_t(lists.size())};
}

/// Ids for what lines say apart from the nodes they name: lines with equal ids give every
/// node they name the same records. Ids are given in the order lines are asked about.
class ContentIds {
 public:
  explicit ContentIds(const SourceManager& sources) : sources_(sources) {}

  /// The id of directive `d`'s line, a NodeName= line or not (`node_scoped`); `globals_before`:
  /// how many Name= lines come before it in the file.
  std::uint32_t id_of(const Directive& d, bool node_scoped, std::uint32_t globals_before) {
    const std::uint32_t tail = std::min(d.head_value_span().end, d.span.end);
    const std::uint32_t extra = (globals_before << 2) | (d.complete ? 2u : 0u) | (node_scoped ? 1u : 0u);
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
    const Key key{text_after_head(d, tail), extra};
    // try_emplace: emplace made (and freed) a map node per line even when the key was known.
    const std::uint32_t id = ids_.try_emplace(key, std::uint32_t(ids_.size())).first->second;
    if (repeated) {
      recent_[next_recent_] = Recent{repeated, gap, extra, id};
      next_recent_ = (next_recent_ + 1) % recent_.size();
    }
    return id;
  }
  std::size_t size() const noexcept { return ids_.size(); }

  /// Takes the ids `later` gave the lines that follow this one's, `names_before` of this
  /// one's lines being Name= lines: its NodeName= lines counted only their own. Returns, for
  /// each of later's ids, the id here: what asking here about later's lines, in turn, gives.
  std::vector<std::uint32_t> absorb(const ContentIds& later, std::uint32_t names_before) {
    std::vector<const Key*> by_id(later.ids_.size());
    for (const auto& [key, id] : later.ids_) by_id[id] = &key;
    std::vector<std::uint32_t> here(by_id.size());
    for (std::size_t id = 0; id < by_id.size(); ++id) {
      Key key = *by_id[id];
      if (key.extra & 1u) key.extra += names_before << 2;  // a NodeName= line's (id_of)
      here[id] = ids_.try_emplace(key, std::uint32_t(ids_.size())).first->second;
    }
    return here;
  }

 private:
  struct Key {
    std::string_view text;
    std::uint32_t extra;
    bool operator==(const Key& o) const { return extra == o.extra && text == o.text; }
  };
  struct Hash {
    std::size_t operator()(const Key& k) const { return text_hash(k.text) * 31 + k.extra; }
  };
  /// `d`'s text after its head's value (`tail` is where that is in the file), read from the
  /// line's own copies where it has them: a repeated tail's (when nothing stands between the
  /// head's value and the tail, as after any head but a quoted one), or the whole line's
  /// (Directive::owns_line). Performance: the file's text of a large gres.conf is a mapping,
  /// and each read of it maps the page cache's folio around the line (see
  /// Reader::copy_line); most lines are read here, once each.
  std::string_view text_after_head(const Directive& d, std::uint32_t tail) const {
    if (const RepeatedTail* repeated = d.repeated_tail(); repeated && d.gap_text().empty()) return repeated->text;
    if (d.owns_line()) return d.text_after_head();
    return sources_.text(Span{d.span.file, tail, d.span.end});
  }

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

/// What one run of directives gives, before the runs are put together (gather_gres_records).
/// Its NodeName= lines and their ids are written from `lines` and `contents` on, a range of
/// vectors both runs share: at most one line per directive, so a run from directive `begin`
/// starts at index `begin`. Performance: the later run's lines were in vectors of their own,
/// copied after the earlier's: 8 MB of fresh memory, filled on one core, for a gres.conf
/// written one line per GPU at 100,000 nodes.
struct Part {
  Part(const SourceManager& sources, GresLine* lines_at, std::uint32_t* contents_at)
      : lines(lines_at), contents(contents_at), ids(sources) {}
  GresLine* lines;  ///< the NodeName= lines, in file order
  std::uint32_t* contents;
  std::size_t count = 0;  ///< of lines and contents
  std::vector<GresLine> name_lines;  ///< the Name= lines, in file order
  std::vector<std::uint32_t> name_contents;
  GresLineLists hostlists;
  const Directive* autodetect = nullptr;  ///< the last global AutoDetect=
  ContentIds ids;
  Reporter findings;  ///< a later part's; the first reports straight to the caller's
};

/// One pass over `gres`'s directives from `begin` to `end` makes each record's line, checks
/// its nodes and finds what it says, while the directive is in the cache. Performance: a
/// gres.conf written one line per GPU holds 800,000 directives at 100,000 nodes, and three
/// passes over them (sorting the records by kind, making the lines, finding their contents)
/// were 40 ms, a quarter of linting it. The Name= lines (few, or none in a file written node
/// by node) are put before the NodeName= lines at the end.
/// `shifting`, when not null, is `gres`'s directives, each moved `by` file ids on before it
/// is read (ReadAhead::Then).
void gather_part(const ConfigFile& gres, std::size_t begin, std::size_t end, const VersionProfile& profile,
                 Part& part, Reporter& out, DirectiveList* shifting, std::uint16_t by) {
  Findings findings(out);
  // The host the NodeName= line before named alone, if it did (GresLine::same_host_as_previous).
  std::string_view previous_host;
  bool previous_single = false;  ///< previous_host is one name written plainly (is_single_host)
  auto at = gres.directives.iterator_at(begin);
  auto moving = shifting ? shifting->iterator_at(begin) : DirectiveList::iterator();
  for (std::size_t i = begin; i < end; ++i, ++at) {
    if (shifting) (moving++)->shift_file(by);
    const Directive& d = *at;
    if (d.kind != Directive::Kind::record) {
      if (d.head_spec()->name == "AutoDetect") part.autodetect = &d;
      continue;
    }
    GresLine g{};
    g.d = &d;
    g.file_order = std::uint32_t(part.count + part.name_lines.size());
    // The spec's canonical name: the key as written may be in any case. Performance: comparing
    // the written key without case was a twelfth of this pass on a per-GPU gres.conf.
    if (d.head_spec()->name != "NodeName") {
      // Slurm's list holds every Name= record before any NodeName= one: none precedes it.
      part.name_contents.push_back(part.ids.id_of(d, false, 0));
      part.name_lines.push_back(g);
      continue;
    }
    // A file written one line per GPU names each node on eight lines running: the name the
    // line before was found to be, once.
    const std::string_view host = d.head_value();
    const bool same_host = !previous_host.empty() && host == previous_host;
    const LineNodes nodes = read_gres_nodes(d, part.hostlists, profile, findings, same_host && previous_single);
    const bool one_host = nodes.valid && nodes.hostlist == 0;
    previous_host = one_host ? host : std::string_view();
    previous_single = nodes.single;
    g.node_scoped = true;
    g.nodes_valid = nodes.valid;
    g.hostlist = nodes.hostlist;
    g.same_host_as_previous = one_host && same_host;
    part.contents[part.count] = part.ids.id_of(d, true, std::uint32_t(part.name_lines.size()));
    part.lines[part.count++] = g;
  }
}

/// Appends `later`'s lines (those after `into`'s in the file) to `into`'s, renumbered as one
/// pass over both would have made them. later's NodeName= lines are where it wrote them, in
/// the vectors into's are in, at or after into's end: they move down to it.
void append_part(Part& into, Part& later) {
  if (into.count != 0 && later.count != 0) {
    // later's first NodeName= line follows into's last: what one pass would have found.
    const GresLine& last = into.lines[into.count - 1];
    GresLine& first = later.lines[0];
    auto one_host = [](const GresLine& g) { return g.nodes_valid && !g.hostlist; };
    first.same_host_as_previous = one_host(last) && one_host(first) && last.d->head_value() == first.d->head_value();
  }
  const auto records_before = std::uint32_t(into.count + into.name_lines.size());
  const auto lists_before = std::uint32_t(into.hostlists.size());
  const std::vector<std::uint32_t> ids = into.ids.absorb(later.ids, std::uint32_t(into.name_lines.size()));
  auto renumbered = [&](GresLine g) {
    g.file_order += records_before;
    if (g.hostlist) g.hostlist += lists_before;
    return g;
  };
  // In place, front to back: a line moves to an index at most its own.
  for (std::size_t i = 0; i < later.count; ++i) {
    into.lines[into.count + i] = renumbered(later.lines[i]);
    into.contents[into.count + i] = ids[later.contents[i]];
  }
  into.count += later.count;
  for (const GresLine& g : later.name_lines) into.name_lines.push_back(renumbered(g));
  for (const std::uint32_t id : later.name_contents) into.name_contents.push_back(ids[id]);
  for (Hostlist& list : later.hostlists) into.hostlists.push_back(std::move(list));
  if (later.autodetect) into.autodetect = later.autodetect;
}

GresRecords gather(const ConfigFile& gres, const VersionProfile& profile, const SourceManager& sources, Reporter& out,
                   CoreBudget* cores, DirectiveList* shifting, std::uint16_t by) {
  // Below this many directives a second thread costs about what it saves.
  constexpr std::size_t kDirectivesForTwoParts = 4096;
  // Sized, not written: each part's thread faults in the pages of its own range.
  GresRecords r;
  r.lines.resize(gres.directives.size());
  r.contents.resize(gres.directives.size());
  Part first(sources, r.lines.data(), r.contents.data());
  Part second(sources, nullptr, nullptr);
  const int parts = in_two_parts(cores, gres.directives.size(), kDirectivesForTwoParts,
                                 [&](std::size_t begin, std::size_t end, int part) {
                                   if (part == 0) {
                                     gather_part(gres, begin, end, profile, first, out, shifting, by);
                                     return;
                                   }
                                   second.lines = r.lines.data() + begin;
                                   second.contents = r.contents.data() + begin;
                                   gather_part(gres, begin, end, profile, second, second.findings, shifting, by);
                                 });
  if (parts == 2) {
    out.absorb(std::move(second.findings));
    append_part(first, second);
  }
  r.lines.resize(first.count);
  r.contents.resize(first.count);
  r.hostlists = std::move(first.hostlists);
  if (first.autodetect) {
    r.autodetect = first.autodetect->head().value;
    r.autodetect_kv = first.autodetect->head();
  }
  if (!first.name_lines.empty()) {
    r.lines.insert(r.lines.begin(), first.name_lines.begin(), first.name_lines.end());
    r.contents.insert(r.contents.begin(), first.name_contents.begin(), first.name_contents.end());
    // The ids were given in file order: renumbered by where each first appears in Slurm's
    // list, they are what finding them in that order gave, and the model's tables and every
    // report stay the same.
    std::vector<std::uint32_t> renumbered(first.ids.size(), UINT32_MAX);
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

}  // namespace

GresRecords gather_gres_records(const ConfigFile& gres, const VersionProfile& profile, const SourceManager& sources,
                                Reporter& out, CoreBudget* cores) {
  return gather(gres, profile, sources, out, cores, nullptr, 0);
}

GresRecords gather_gres_records(ConfigFile& gres, const VersionProfile& profile, const SourceManager& sources,
                                Reporter& out, CoreBudget* cores, std::uint16_t directives_by) {
  return gather(gres, profile, sources, out, cores, directives_by != 0 ? &gres.directives : nullptr, directives_by);
}

}  // namespace greslint::model
