// SPDX-License-Identifier: Apache-2.0
// Merging a finding across the node classes it holds for, and the one place node
// placeholders become names.
#include "model/findings.hpp"

#include <fmt/format.h>

#include "greslint/hostlist.hpp"
#include "greslint/model.hpp"

namespace greslint::model {

std::string expand_nodes(std::string text, std::string_view nodes) {
  for (std::string_view token : {kNodes, kNode})
    for (std::size_t at; (at = text.find(token)) != std::string::npos;) text.replace(at, token.size(), nodes);
  return text;
}

DiagnosticBuilder Findings::report(const RuleInfo& rule, Span span, std::string message) {
  if (!current_nodes_) return out_.report(rule, span, std::move(message));
  message = clip_text(std::move(message));  // before it becomes a key: a value can be 10 MB
  auto key = std::make_tuple(rule.id, span.file.index, span.begin, message);
  auto it = pending_.find(key);
  if (it == pending_.end()) {
    Pending p;
    p.d.rule = &rule;
    p.d.severity = rule.severity;
    p.d.effect = rule.effect;
    p.d.daemon = rule.daemon;
    p.d.span = span;
    p.d.message = std::move(message);
    it = pending_.emplace(std::move(key), std::move(p)).first;
  }
  it->second.nodes.insert(it->second.nodes.end(), current_nodes_->begin(), current_nodes_->end());
  if (!calls_.empty()) calls_.back().related_end = calls_.back().p->d.related.size();
  calls_.push_back(Call{&it->second, span, it->second.d.related.size(), it->second.d.related.size()});
  return DiagnosticBuilder(it->second.d);
}

bool Findings::quotes_line_without_node(std::size_t since) const {
  for (std::size_t i = since; i < calls_.size(); ++i) {
    const std::string& line = calls_[i].p->d.slurm_message;
    // A node is named by a placeholder, or as Slurm writes a NodeName line's hostlist into
    // its message ("Invalid GRES configured on node cn-[01-16]: GPU:1").
    const bool names_node = line.find(kNode) != std::string::npos || line.find(kNodes) != std::string::npos ||
                            line.find("on node ") != std::string::npos;
    if (!line.empty() && !names_node) return true;
  }
  return false;
}

std::string more_lines(std::size_t n, std::string_view verb) {
  return fmt::format("; {} more line{} {}", n, n == 1 ? "" : "s", verb);
}

void Findings::echo(const std::function<Span(Span)>& where, const std::function<std::string()>& message) {
  if (calls_.empty()) return;
  calls_.back().related_end = calls_.back().p->d.related.size();
  auto place = [](Span s) { return std::make_tuple(s.file.index, s.begin, s.end); };
  for (const Call& c : calls_) {
    Pending& p = *c.p;
    p.places.insert(place(p.d.span));
    for (const Related& r : p.d.related) p.places.insert(place(r.span));
    auto add = [&](Span from, const std::function<std::string()>& text, bool same) {
      const Span to = where(from);
      if (!to.valid() || !p.places.insert(place(to)).second) return;
      if (p.echoes == kShownEchoes) {
        ++p.hidden_echoes;
        return;
      }
      Related note{to, clip_text(text()), same};
      note.echo = true;
      p.d.related.push_back(std::move(note));
      p.last_echo = p.d.related.size() - 1;
      ++p.echoes;
    };
    add(c.span, message, true);
    for (std::size_t i = c.related_begin; i < c.related_end; ++i) {
      const Related r = p.d.related[i];
      add(r.span, [&] { return r.message; }, r.same);
    }
  }
}

namespace {

/// The reason scontrol shows for the drained nodes among `nodes` (the first one's, named
/// after that node), and what that leaves unsaid: that every node's names itself, or that
/// some drain for another reason (an earlier check of the same registration drained them).
void set_drain_reason(Diagnostic& d, const std::vector<std::uint32_t>& nodes, const Cluster& cluster) {
  const NodeClass* first = nullptr;
  std::uint32_t first_node = 0;
  std::vector<std::string> drained, other;
  for (std::uint32_t n : nodes) {
    const NodeClass& cls = cluster.classes[cluster.class_of[n]];
    if (cls.verdict != Verdict::drain) continue;
    if (!first || n < first_node) first = &cls, first_node = n;
  }
  if (!first) return;
  for (std::uint32_t n : nodes) {
    const NodeClass& cls = cluster.classes[cluster.class_of[n]];
    if (cls.verdict != Verdict::drain) continue;
    (cls.reason == first->reason ? drained : other).push_back(cluster.node_names[n]);
  }
  d.reason = node_reason(*first, cluster.node_names[first_node]);
  // Slurm logs the reason itself, once per node: quote the first node's line, as the reason.
  if (d.slurm_message == node_reason(*first, d.nodes)) d.slurm_message = *d.reason;
  std::vector<std::string> notes;
  if (drained.size() > 1 && first->reason.find(kNode) != std::string::npos)
    notes.push_back(fmt::format("for {}; each node's reason names that node", cluster.node_names[first_node]));
  if (!other.empty())
    notes.push_back(fmt::format("{} drain{} with another reason", fold_hostnames(other), other.size() == 1 ? "s" : ""));
  for (const std::string& note : notes) d.reason_note += (d.reason_note.empty() ? "" : "; ") + note;
}

}  // namespace

void Findings::flush(const Cluster& cluster) {
  const std::vector<std::string>& node_names = cluster.node_names;
  for (auto& [key, p] : pending_) {
    if (p.hidden_echoes) {
      Related& last = p.d.related[p.last_echo];
      last.message += more_lines(p.hidden_echoes, "say the same");
      last.more += std::uint32_t(p.hidden_echoes);
    }
    if (!p.nodes.empty()) {
      std::vector<std::string> names;
      names.reserve(p.nodes.size());
      for (std::uint32_t n : p.nodes) names.push_back(node_names[n]);
      p.d.nodes = fold_hostnames(std::move(names));
    }
    // Slurm names one node per log line; a grouped finding shows the group.
    for (std::string* s : {&p.d.message, &p.d.help, &p.d.slurm_message}) *s = expand_nodes(std::move(*s), p.d.nodes);
    if (p.d.effect == Effect::drain) set_drain_reason(p.d, p.nodes, cluster);
    out_.add(std::move(p.d));  // the per-rule limit applies to merged findings too
  }
  pending_.clear();
  merge_same_lines(out_.diagnostics());
}

namespace {

/// What makes two findings on different lines the same one: everything they say, with
/// the nodes each is about left out (the same mistake on the lines of other nodes).
std::string same_key(const Diagnostic& d) {
  auto masked = [&](const std::string& text) {
    if (d.nodes.empty()) return text;
    std::string out = text;
    for (std::size_t at; (at = out.find(d.nodes)) != std::string::npos;) out.replace(at, d.nodes.size(), "\x01");
    return out;
  };
  return fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}", d.rule->id, d.span.file.index,
                     int(d.severity), int(d.effect), int(d.daemon), masked(d.message), masked(d.help),
                     masked(d.slurm_message), d.reason ? masked(*d.reason) : std::string("\x02"));
}

/// Both node lists in one folded list, in the order Slurm's hostlists sort.
std::string union_of(const std::string& a, const std::string& b) {
  if (a.empty() || a == b) return a.empty() ? b : a;
  if (b.empty()) return a;
  std::vector<std::string> names;
  for (const std::string* list : {&a, &b}) {
    auto l = parse_hostlist(*list, Span{}, VersionProfile(known_versions().back()));
    if (!l.ok()) return a;  // not a list greslint folded: keep the first's
    l.list->for_each([&](const std::string& h, const HostRange&) { names.push_back(h); });
  }
  return fold_hostnames(std::move(names));
}

/// `text` with the nodes it named replaced by the merged finding's.
void rename_nodes(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty() || from == to) return;
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
}

/// Counts `n` more lines on note `r`. A note that counts lines already says so once: its
/// count grows ("; 16 more lines say the same" twice over read as 16 lines, not 32).
void add_count(Related& r, std::size_t n) {
  std::string_view verb = "say the same";
  if (r.more)
    for (std::string_view v : {"say the same", "do the same"}) {
      const std::string said = more_lines(r.more, v);
      if (r.message.size() >= said.size() && r.message.compare(r.message.size() - said.size(), said.size(), said) == 0) {
        r.message.resize(r.message.size() - said.size());
        verb = v;
        break;
      }
    }
  r.more += std::uint32_t(n);
  r.message += more_lines(r.more, verb);
}

void merge_into(Diagnostic& into, Diagnostic& other, std::size_t& hidden) {
  using Place = std::tuple<std::uint16_t, std::uint32_t, std::uint32_t>;
  auto place = [](Span s) { return Place{s.file.index, s.begin, s.end}; };
  std::set<Place> places{place(into.span)};
  std::size_t same = 0;
  for (const Related& r : into.related) {
    places.insert(place(r.span));
    same += r.same ? 1 : 0;
  }
  auto add = [&](Related r) {
    if (!places.insert(place(r.span)).second) return;
    if (r.same && same == kMaxSameLines) {
      hidden += 1 + r.more;  // the note's line and the lines it already counted
      return;
    }
    same += r.same ? 1 : 0;
    r.echo = true;  // about the other finding's line
    into.related.push_back(std::move(r));
  };
  add(Related{other.span, other.nodes.empty() || other.nodes == into.nodes ? "the same here" : "the same for " + other.nodes, true});
  // The other finding's own notes (where its nodes are configured, its echoes) come along.
  for (Related& r : other.related) add(std::move(r));
  const std::string nodes = union_of(into.nodes, other.nodes);
  // The finding now speaks for every line's nodes; Slurm's own lines stay the first node's.
  for (std::string* text : {&into.message, &into.help}) rename_nodes(*text, into.nodes, nodes);
  into.nodes = nodes;
}

}  // namespace

void merge_same_lines(std::vector<Diagnostic>& diagnostics) {
  std::map<std::string, std::size_t> first;  // key -> index in kept
  std::vector<Diagnostic> kept;
  std::vector<std::size_t> hidden;
  // Earlier lines first, so that the finding shown is the first line that says it.
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::make_pair(a.span.file.index, a.span.begin) < std::make_pair(b.span.file.index, b.span.begin);
  });
  for (Diagnostic& d : diagnostics) {
    if (!d.span.valid() || d.fix || !d.rule) {
      kept.push_back(std::move(d));
      hidden.push_back(0);
      continue;
    }
    auto [it, fresh] = first.emplace(same_key(d), kept.size());
    if (fresh) {
      kept.push_back(std::move(d));
      hidden.push_back(0);
    } else {
      merge_into(kept[it->second], d, hidden[it->second]);
    }
  }
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (!hidden[i]) continue;
    for (auto r = kept[i].related.rbegin(); r != kept[i].related.rend(); ++r)
      if (r->same) {
        add_count(*r, hidden[i]);
        break;
      }
  }
  diagnostics = std::move(kept);
}

}  // namespace greslint::model

namespace greslint {

std::string node_reason(const NodeClass& c, std::string_view node) { return model::expand_nodes(c.reason, node); }

}  // namespace greslint
