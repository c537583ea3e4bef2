// SPDX-License-Identifier: Apache-2.0
#include "hardware/checked_node.hpp"

#include <fmt/format.h>

#include <utility>

#include "greslint/hostlist.hpp"
#include "util.hpp"

namespace greslint::node_check {

std::vector<LineFacts> line_facts(const ConfigModel& config, std::uint32_t node, const VersionProfile& profile) {
  std::vector<LineFacts> out;
  for (const GresLine* line : config.gres_lines_of(node)) {
    const GresLineKeys keys = keys_of(*line);
    LineFacts f;
    f.line = line;
    f.head_span = keys.name ? keys.name->value_span : line->d->head().value_span;
    if (keys.name) f.name = keys.name->value;
    if (keys.type) f.type = keys.type->value, f.type_span = keys.type->value_span;
    if (const KeyValue* kv = keys.file ? keys.file : keys.multiple_files) {
      auto l = parse_hostlist(kv->value, Span{}, profile);
      if (l.ok()) f.paths = l.list->expand();
      f.files_text = kv->value;
      f.files_span = kv->value_span;
      f.multiple_files = !keys.file;
    }
    if (keys.cores) f.cores = keys.cores->value, f.cores_span = keys.cores->value_span, f.cores_key = keys.cores->key;
    out.push_back(std::move(f));
  }
  return out;
}

std::optional<std::string> match_node(const ConfigModel& config, const VersionProfile& profile,
                                      const std::string& hostname) {
  std::vector<std::pair<std::string, std::string>> pairs;  // (hostname, nodename)
  for (const NodeLine& line : config.node_lines) {
    auto names = parse_hostlist(line.d->head().value, Span{}, profile);
    if (!names.ok()) continue;
    std::vector<std::string> n = names.list->expand();
    std::vector<std::string> h = n;
    if (const KeyValue* kv = line.d->find("NodeHostname")) {
      auto hosts = parse_hostlist(kv->value, Span{}, profile);
      if (hosts.ok()) {
        std::vector<std::string> e = hosts.list->expand();
        if (e.size() == n.size())
          h = e;
        else if (e.size() == 1)
          h.assign(n.size(), e.front());
      }
    }
    for (std::size_t i = 0; i < n.size(); ++i) pairs.emplace_back(h[i], n[i]);
  }
  const std::string short_name = hostname.substr(0, hostname.find('.'));
  for (const std::string& want : {short_name, hostname, std::string("localhost")})
    for (const auto& [h, n] : pairs)
      if (h == want) return n;
  for (const auto& [h, n] : pairs)
    if (n == short_name || n == hostname) return n;
  return std::nullopt;
}

std::string Unit::label() const {
  const std::string what = !gpu->model.empty()               ? gpu->model
                           : gpu->vendor == GpuVendor::amd   ? "AMD GPU"
                           : gpu->vendor == GpuVendor::intel ? "Intel GPU"
                                                             : "NVIDIA GPU";
  if (mig) return fmt::format("MIG instance gi{}/ci{} of {} ({})", mig->gi, mig->ci, gpu->device_file, what);
  return fmt::format("{} ({}, {})", gpu->device_file, gpu->bus_id.empty() ? "bus unknown" : gpu->bus_id, what);
}

std::vector<Unit> units_of(const HardwareInventory& hw) {
  std::vector<Unit> out;
  for (const Gpu& g : hw.gpus) {
    if (g.mig.empty()) {
      out.push_back(Unit{&g, nullptr, {g.device_file}, autodetect_type_name(g.model), g.local_cores});
      continue;
    }
    for (const MigInstance& m : g.mig)
      out.push_back(Unit{&g, &m, m.files, autodetect_type_name(g.model), g.local_cores});
  }
  return out;
}

std::string fold_paths(std::vector<std::string> paths) {
  if (paths.empty()) return "";
  return fold_hostnames(std::move(paths));
}

std::string socket_range(const CpuTopology& t, int socket) {
  Cores c = t.cores_of_socket(std::uint32_t(socket));
  return c.empty() ? "" : fmt::format("{}-{}", c.front(), c.back());
}

std::string rule_words(const VersionProfile& p) {
  return p.socket_boundary_check() == SocketBoundaryCheck::per_socket ? "whole sockets"
                                                                      : "exactly one whole socket or all cores";
}

}  // namespace greslint::node_check
