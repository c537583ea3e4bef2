// SPDX-License-Identifier: Apache-2.0
#include "commands/lint_session.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <tuple>
#include <cstdlib>
#include <functional>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "greslint/config.hpp"
#include "greslint/registry.hpp"
#include "suppress.hpp"
#include "util.hpp"

namespace greslint {

namespace {

/// The nearest .greslint.conf from the linted directory upward; empty when there is none.
std::string find_config_file(const LintOptions& o) {
  std::string dir = o.paths.empty() ? "." : o.paths.front();
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) dir = dirname_of(dir);
  char resolved[4096];
  if (::realpath(dir.c_str(), resolved)) dir = resolved;
  for (int depth = 0; depth < 64; ++depth) {
    std::string candidate = join_path(dir, ".greslint.conf");
    if (::stat(candidate.c_str(), &st) == 0) return candidate;
    if (dir == "/" || dir.empty()) break;
    dir = dirname_of(dir);
  }
  return {};
}

std::vector<std::string> comma_list(std::string_view v) {
  std::vector<std::string> parts;
  for (std::string_view part : split_commas_view(v))
    if (!part.empty()) parts.emplace_back(part);
  return parts;
}

using FailFn = std::function<void(Span, const std::string&)>;

/// Applies one setting of .greslint.conf under the command line; false after `fail`.
bool apply_setting(const KeyValue& kv, const std::string& config_dir, LintOptions& o, const FailFn& fail) {
  std::string_view key = kv.spec->name;
  if (key == "SlurmVersion") {
    if (!parse_slurm_version(kv.value)) return fail(kv.value_span, "unknown Slurm version " + std::string(kv.value)), false;
    if (o.slurm_version.empty()) {
      o.slurm_version = std::string(kv.value);
      o.slurm_version_source = ".greslint.conf";
    }
  } else if (key == "Select") {
    if (o.select.empty()) o.select = comma_list(kv.value);
  } else if (key == "Ignore") {
    for (std::string& id : comma_list(kv.value)) o.ignore.push_back(std::move(id));
  } else if (key == "FailLevel") {
    const std::optional<FailLevel> level = parse_fail_level(kv.value);
    if (!level) return fail(kv.value_span, "FailLevel takes error, warning, note or never"), false;
    if (!o.fail_level_given) o.fail_level = *level;
  } else if (key == "Format") {
    auto f = parse_format(kv.value);
    if (!f) return fail(kv.value_span, "unknown Format " + std::string(kv.value)), false;
    if (!o.format_given) o.format = *f;
  } else if (key == "Severity") {
    for (std::string& item : comma_list(kv.value)) o.severity.insert(o.severity.begin(), std::move(item));
  } else if (key == "MinSeverity") {
    const std::optional<Severity> level = parse_severity(kv.value);
    if (!level) return fail(kv.value_span, "MinSeverity takes error, warning or note"), false;
    if (!o.min_severity_given) o.min_severity = level;
  } else if (key == "PrefixMap") {
    // NEW is relative to the .greslint.conf, which sits in the repository it describes.
    for (const std::string& item : comma_list(kv.value)) {
      auto entry = parse_prefix_map(item, config_dir);
      if (!entry) return fail(kv.value_span, "PrefixMap takes OLD=NEW (comma separated)"), false;
      const bool given = std::any_of(o.prefix_map.begin(), o.prefix_map.end(),
                                     [&](const auto& e) { return e.first == entry->first; });
      if (!given) o.prefix_map.push_back(std::move(*entry));  // the command line's wins
    }
  }
  return true;
}

/// Reports the reader's findings on .greslint.conf as errors; false when there was one.
bool reader_findings_ok(const Reporter& out, const SourceManager& sources, const FailFn& fail) {
  bool ok = true;
  for (const Diagnostic& d : out.diagnostics()) {
    if (d.rule->id == "GRS004") continue;  // a repeated key: the last one wins, as in Slurm
    if (d.rule->id == "GRS002") {
      std::string key(sources.text(d.span));
      fail(d.span, fmt::format("unknown key {} (known: FailLevel, Format, Ignore, MinSeverity, PrefixMap, Select, Severity, "
                               "SlurmVersion){}",
                               key, d.help.rfind("did you mean", 0) == 0 ? "; " + d.help : ""));
    } else {
      fail(d.span, d.message + (d.help.empty() ? "" : " (" + d.help + ")"));
    }
    ok = false;
  }
  return ok;
}

}  // namespace

bool load_config_file(LintOptions& o, std::ostream& err) {
  if (o.no_config) return true;
  const std::string path = o.config.empty() ? find_config_file(o) : o.config;
  if (path.empty()) return true;
  SourceManager sources;
  Reporter out;
  ReadOptions ro;
  ro.table = KeyTable::greslint_conf;
  ro.slurm_conf_dir = dirname_of(path);
  ConfigFile file = read_config_file(path, ro, VersionProfile(known_versions().back()), sources, out);
  if (!file.exists) {
    err << fmt::format("greslint: {}: no such file\n", path);
    return false;
  }
  const FailFn fail = [&](Span span, const std::string& message) {
    if (span.valid()) {
      LineCol lc = sources.line_col(span.file, span.begin);
      err << fmt::format("{}:{}:{}: error: {}\n", path, lc.line, lc.column, sanitize_for_output(message));
    } else {
      err << fmt::format("{}: error: {}\n", path, sanitize_for_output(message));
    }
  };
  bool ok = reader_findings_ok(out, sources, fail);
  for (const Directive& d : file.directives) ok = apply_setting(d.head(), dirname_of(path), o, fail) && ok;
  spdlog::debug("read {}", path);
  return ok;
}

bool check_node_filter(const std::optional<Hostlist>& only, const std::string& text, const Cluster& cluster,
                       std::ostream& err) {
  if (!only) return true;
  std::size_t known = 0;
  for (const std::string& name : cluster.node_names) known += only->contains(name) ? 1 : 0;
  if (known == 0) {
    err << fmt::format("greslint: --nodes {} names no node of this slurm.conf\n", sanitize_for_output(text));
    return false;
  }
  if (known < only->size())
    err << fmt::format("greslint: note: {} of the {} hosts in --nodes are not slurm.conf nodes\n",
                       only->size() - known, only->size());
  return true;
}

bool input_unreadable(const Run& run) {
  return std::any_of(run.reporter.diagnostics().begin(), run.reporter.diagnostics().end(), [](const Diagnostic& d) {
    return d.rule && d.rule->id == "GRS008" && d.effect != Effect::none;
  });
}

bool parse_node_filter(const std::string& nodes, SlurmVersion v, std::optional<Hostlist>& only, std::ostream& err) {
  if (nodes.empty()) return true;
  auto l = parse_hostlist(nodes, Span{}, VersionProfile(v));
  if (!l.ok()) {
    err << fmt::format("greslint: --nodes {}: not a valid hostlist\n", nodes);
    return false;
  }
  only = std::move(*l.list);
  return true;
}

const RuleInfo* find_rule_any_case(std::string_view id_or_name) {
  for (const RuleInfo* r : all_rules())
    if (iequals(r->id, id_or_name) || iequals(r->name, id_or_name)) return r;
  return nullptr;
}

bool rule_selected(const RuleInfo& r, const LintOptions& o) {
  auto listed = [&](const std::vector<std::string>& ids) {
    return std::any_of(ids.begin(), ids.end(), [&](const std::string& id) {
      return iequals(id, r.id) || iequals(id, r.name) || (id.size() < r.id.size() && iequals(r.id.substr(0, id.size()), id));
    });
  };
  if (!o.select.empty() && !listed(o.select)) return false;
  return !listed(o.ignore);
}

namespace {

/// PATH naming the gres.conf or cgroup.conf beside a slurm.conf means that slurm.conf:
/// Slurm reads those files only through it. nullopt (with a message) when there is none.
std::optional<std::string> slurm_conf_for(const std::string& path, std::ostream& err) {
  const std::string base = path.substr(path.find_last_of('/') + 1);
  if (base != "gres.conf" && base != "cgroup.conf") return path;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || S_ISDIR(st.st_mode)) return path;
  const std::string dir = dirname_of(path);
  const std::string slurm_conf = join_path(dir, "slurm.conf");
  if (::stat(slurm_conf.c_str(), &st) != 0) {
    err << fmt::format("greslint: {} is a {}; greslint lints a slurm.conf and reads the {} beside it, and {} holds "
                       "no slurm.conf\n",
                       path, base, base, dir);
    return std::nullopt;
  }
  err << fmt::format("greslint: note: {} is read through the slurm.conf beside it: linting {}\n", base, slurm_conf);
  return slurm_conf;
}

}  // namespace

std::unique_ptr<Run> analyze_paths(const LintOptions& o, std::ostream& err) {
  auto version = resolve_slurm_version(VersionPin{o.slurm_version, o.slurm_version_source}, err);
  if (!version) return nullptr;
  spdlog::debug("Slurm {} profile ({})", version->version.str(), version->source);
  auto path = slurm_conf_for(o.paths.empty() ? std::string() : o.paths.front(), err);
  if (!path) return nullptr;
  auto conf = locate_slurm_conf(*path, err);
  if (!conf) return nullptr;
  spdlog::debug("slurm.conf: {}", *conf);
  auto run = std::make_unique<Run>();
  run->version = *version;
  run->slurm_conf = *conf;
  LintInputs in;
  in.slurm_conf_path = *conf;
  in.gres_conf_path = join_path(dirname_of(*conf), "gres.conf");
  in.cgroup_conf_path = join_path(dirname_of(*conf), "cgroup.conf");
  in.prefix_map = o.prefix_map;
  VersionProfile profile(version->version);
  run->cluster = analyze(in, profile, run->sources, run->reporter);
  for (std::size_t i = 0; i < run->sources.file_count(); ++i)
    run->inputs.push_back(run->sources.path(FileId{std::uint16_t(i)}));
  spdlog::debug("read {} file(s): {} nodes in {} node classes, {} findings before filtering", run->inputs.size(),
                run->cluster.node_names.size(), run->cluster.classes.size(), run->reporter.diagnostics().size());
  return run;
}

std::optional<std::pair<std::string, std::string>> parse_prefix_map(std::string_view item, const std::string& base) {
  const std::size_t eq = item.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size()) return std::nullopt;
  std::string to(item.substr(eq + 1));
  if (to[0] != '/') to = join_path(base, to);
  return std::make_pair(std::string(item.substr(0, eq)), std::move(to));
}

ClusterVerdict cluster_verdict(const Run& run) {
  const Cluster& c = run.cluster;
  if (!c.startup_fatal.empty()) return {Verdict::slurmctld_fatal, c.startup_fatal};
  for (std::uint32_t n = 0; n < c.node_names.size(); ++n) {
    const NodeClass& cls = c.classes[c.class_of[n]];
    if (cls.verdict == Verdict::slurmctld_fatal) return {Verdict::slurmctld_fatal, node_reason(cls, c.node_names[n])};
  }
  return {};
}

std::optional<SeverityOverrides> parse_severity_overrides(const std::vector<std::string>& items, std::ostream& err) {
  SeverityOverrides overrides;
  for (const std::string& item : items) {
    auto eq = item.find('=');
    const RuleInfo* rule = eq == std::string::npos ? nullptr : find_rule_any_case(item.substr(0, eq));
    auto level = eq == std::string::npos ? std::nullopt : parse_severity(item.substr(eq + 1));
    if (!rule || !level) {
      err << fmt::format("greslint: severity override '{}' must be ID=error|warning|note\n", item);
      return std::nullopt;
    }
    overrides.emplace_back(rule, *level);
  }
  return overrides;
}

bool check_rule_names(const LintOptions& o, std::ostream& err) {
  for (const auto* list : {&o.select, &o.ignore})
    for (const std::string& id : *list)
      if (!find_rule_any_case(id) && !std::any_of(all_rules().begin(), all_rules().end(), [&](const RuleInfo* r) {
            return id.size() >= 4 && iequals(r->id.substr(0, std::min(id.size(), r->id.size())), id);
          })) {
        err << fmt::format("greslint: unknown rule '{}' (see greslint rules)\n", id);
        return false;
      }
  return true;
}

namespace {

/// Whether --nodes keeps `d`. A finding that names no nodes concerns the whole cluster
/// (a slurm.conf setting, slurmctld itself), so it stays.
bool affects(const Diagnostic& d, const Hostlist& only, SlurmVersion v) {
  if (d.nodes.empty()) return true;
  auto l = parse_hostlist(d.nodes, Span{}, VersionProfile(v));
  bool hit = false;
  if (l.ok()) l.list->for_each([&](const std::string& h, const HostRange&) { hit = hit || only.contains(h); });
  return hit;
}

bool configuration_rule(const RuleInfo& r) { return !is_hardware_rule(r); }

}  // namespace

std::vector<Diagnostic> report_stage(std::vector<Diagnostic> found, const Run& run, const LintOptions& o,
                                     const SeverityOverrides& overrides, const std::optional<Hostlist>& only,
                                     RuleScope scope) {
  Reporter suppression_findings;
  apply_suppressions(run.cluster.comments, run.sources, found, suppression_findings,
                     scope == RuleScope::hardware ? is_hardware_rule : configuration_rule);
  for (Diagnostic& d : suppression_findings.diagnostics()) found.push_back(std::move(d));
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : found) {
    for (const auto& [rule, level] : overrides)
      if (d.rule == rule) d.severity = level;
    if (!rule_selected(*d.rule, o)) continue;
    if (only && !affects(d, *only, run.version.version)) continue;
    kept.push_back(std::move(d));
  }
  std::stable_sort(kept.begin(), kept.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::make_tuple(a.span.file.index, a.span.begin, a.rule->id) <
           std::make_tuple(b.span.file.index, b.span.begin, b.rule->id);
  });
  return kept;
}

}  // namespace greslint
