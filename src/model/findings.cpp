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
    auto add = [&](Span from, const std::function<std::string()>& text) {
      const Span to = where(from);
      if (!to.valid() || !p.places.insert(place(to)).second) return;
      if (p.echoes == kShownEchoes) {
        ++p.hidden_echoes;
        return;
      }
      p.d.related.push_back(Related{to, clip_text(text())});
      p.last_echo = p.d.related.size() - 1;
      ++p.echoes;
    };
    add(c.span, message);
    for (std::size_t i = c.related_begin; i < c.related_end; ++i) {
      const Related r = p.d.related[i];
      add(r.span, [&] { return r.message; });
    }
  }
}

void Findings::flush(const std::vector<std::string>& node_names) {
  for (auto& [key, p] : pending_) {
    if (p.hidden_echoes) p.d.related[p.last_echo].message += more_lines(p.hidden_echoes, "say the same");
    if (!p.nodes.empty()) {
      std::vector<std::string> names;
      names.reserve(p.nodes.size());
      for (std::uint32_t n : p.nodes) names.push_back(node_names[n]);
      p.d.nodes = fold_hostnames(std::move(names));
    }
    // Slurm names one node per log line; a grouped finding shows the group.
    for (std::string* s : {&p.d.message, &p.d.help, &p.d.slurm_message}) *s = expand_nodes(std::move(*s), p.d.nodes);
    out_.add(std::move(p.d));  // the per-rule limit applies to merged findings too
  }
  pending_.clear();
}

}  // namespace greslint::model

namespace greslint {

std::string node_reason(const NodeClass& c, std::string_view node) { return model::expand_nodes(c.reason, node); }

}  // namespace greslint
