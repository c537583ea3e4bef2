// SPDX-License-Identifier: Apache-2.0
// Merging a finding across the node classes it holds for, and the one place node
// placeholders become names.
#include "model/findings.hpp"

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
  return DiagnosticBuilder(it->second.d);
}

void Findings::flush(const std::vector<std::string>& node_names) {
  for (auto& [key, p] : pending_) {
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
