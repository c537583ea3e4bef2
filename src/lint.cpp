// SPDX-License-Identifier: Apache-2.0
// Drives one run: find slurm.conf, choose the Slurm profile, analyze, filter, emit.
#include "greslint/lint.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <spdlog/spdlog.h>

#include "greslint/baseline.hpp"
#include "greslint/environment.hpp"
#include "greslint/fingerprint.hpp"
#include "greslint/hostlist.hpp"
#include "greslint/model.hpp"
#include "greslint/config.hpp"
#include "greslint/registry.hpp"
#include "suppress.hpp"
#include "util.hpp"

namespace greslint {
namespace {

/// Finds .greslint.conf from the linted directory upward (or takes --config) and applies
/// it under the command line: options given there win. False (with a message) on errors.
bool load_config_file(LintOptions& o, std::ostream& err) {
  if (o.no_config) return true;
  std::string path = o.config;
  if (path.empty()) {
    std::string dir = o.paths.empty() ? "." : o.paths.front();
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) dir = dirname_of(dir);
    char resolved[4096];
    if (::realpath(dir.c_str(), resolved)) dir = resolved;
    for (int depth = 0; depth < 64; ++depth) {
      std::string candidate = join_path(dir, ".greslint.conf");
      if (::stat(candidate.c_str(), &st) == 0) {
        path = candidate;
        break;
      }
      if (dir == "/" || dir.empty()) break;
      dir = dirname_of(dir);
    }
    if (path.empty()) return true;
  }
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
  auto fail = [&](Span span, const std::string& message) {
    if (span.valid()) {
      LineCol lc = sources.line_col(span.file, span.begin);
      err << fmt::format("{}:{}:{}: error: {}\n", path, lc.line, lc.column, sanitize_for_output(message));
    } else {
      err << fmt::format("{}: error: {}\n", path, sanitize_for_output(message));
    }
  };
  bool ok = true;
  for (const Diagnostic& d : out.diagnostics()) {
    if (d.rule->id == "GRS004") continue;  // a repeated key: the last one wins, as in Slurm
    if (d.rule->id == "GRS002") {
      std::string key(sources.text(d.span));
      fail(d.span, fmt::format("unknown key {} (known: FailLevel, Format, Ignore, Select, Severity, SlurmVersion){}", key,
                               d.help.rfind("did you mean", 0) == 0 ? "; " + d.help : ""));
    } else {
      fail(d.span, d.message + (d.help.empty() ? "" : " (" + d.help + ")"));
    }
    ok = false;
  }
  auto list = [](const std::string& v) {
    std::vector<std::string> parts;
    for (std::string_view part : split_commas_view(v))
      if (!part.empty()) parts.emplace_back(part);
    return parts;
  };
  for (const Directive& d : file.directives) {
    const KeyValue& kv = d.head();
    std::string_view key = kv.spec->name;
    if (key == "SlurmVersion") {
      if (!parse_slurm_version(kv.value)) { fail(kv.value_span, "unknown Slurm version " + kv.value); ok = false; }
      else if (o.slurm_version.empty()) o.slurm_version = kv.value;
    } else if (key == "Select") {
      if (o.select.empty()) o.select = list(kv.value);
    } else if (key == "Ignore") {
      for (std::string& id : list(kv.value)) o.ignore.push_back(std::move(id));
    } else if (key == "FailLevel") {
      const std::optional<FailLevel> level = parse_fail_level(kv.value);
      if (!level) { fail(kv.value_span, "FailLevel takes error, warning, note or never"); ok = false; }
      else if (!o.fail_level_given) o.fail_level = *level;
    } else if (key == "Format") {
      auto f = parse_format(kv.value);
      if (!f) { fail(kv.value_span, "unknown Format " + kv.value); ok = false; }
      else if (!o.format_given) o.format = *f;
    } else if (key == "Severity") {
      for (std::string& item : list(kv.value)) o.severity.insert(o.severity.begin(), std::move(item));
    }
  }
  spdlog::debug("read {}", path);
  return ok;
}

/// --nodes: the hosts findings and rows are restricted to; false (with a message) if invalid.
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

bool rule_selected(const RuleInfo& r, const LintOptions& o) {
  auto listed = [&](const std::vector<std::string>& ids) {
    return std::any_of(ids.begin(), ids.end(), [&](const std::string& id) {
      return iequals(id, r.id) || id == r.name || (id.size() < r.id.size() && iequals(r.id.substr(0, id.size()), id));
    });
  };
  if (!o.select.empty() && !listed(o.select)) return false;
  return !listed(o.ignore);
}

std::unique_ptr<Analysis> analyze_paths(const LintOptions& o, std::ostream& err) {
  auto version = resolve_slurm_version(o.slurm_version, err);
  if (!version) return nullptr;
  auto conf = locate_slurm_conf(o.paths.empty() ? std::string() : o.paths.front(), err);
  if (!conf) return nullptr;
  auto run = std::make_unique<Analysis>();
  run->version = *version;
  run->slurm_conf = *conf;
  LintInputs in;
  in.slurm_conf_path = *conf;
  in.gres_conf_path = join_path(dirname_of(*conf), "gres.conf");
  in.cgroup_conf_path = join_path(dirname_of(*conf), "cgroup.conf");
  VersionProfile profile(version->version);
  Reporter reporter;
  run->cluster = analyze(in, profile, run->sources, reporter);
  run->findings = std::move(reporter.diagnostics());
  run->dropped = reporter.dropped();
  for (std::size_t i = 0; i < run->sources.file_count(); ++i)
    run->inputs.push_back(run->sources.path(FileId{std::uint16_t(i)}));
  return run;
}

/// Paths relative to where greslint runs, like a compiler: in CI that is the repository
/// root, which is what SARIF and GitHub annotations need.
std::string display_base(const std::string& slurm_conf) {
  char cwd[4096];
  return ::getcwd(cwd, sizeof(cwd)) ? cwd : dirname_of(slurm_conf);
}

}  // namespace

bool apply_config_file(LintOptions& options, std::ostream& err) { return load_config_file(options, err); }

std::unique_ptr<Analysis> analyze_configuration(const LintOptions& options, std::ostream& err) {
  const LintOptions& o = options;
  std::vector<std::pair<const RuleInfo*, Severity>> overrides;
  for (const std::string& item : o.severity) {
    auto eq = item.find('=');
    const RuleInfo* rule = eq == std::string::npos ? nullptr : find_rule(item.substr(0, eq));
    auto level = eq == std::string::npos ? std::nullopt : parse_severity(item.substr(eq + 1));
    if (!rule || !level) {
      err << fmt::format("greslint: severity override '{}' must be ID=error|warning|note\n", item);
      return nullptr;
    }
    overrides.emplace_back(rule, *level);
  }
  for (const auto* list : {&o.select, &o.ignore})
    for (const std::string& id : *list)
      if (!find_rule(id) && !std::any_of(all_rules().begin(), all_rules().end(), [&](const RuleInfo* r) {
            return id.size() >= 4 && iequals(r->id.substr(0, std::min(id.size(), r->id.size())), id);
          })) {
        err << fmt::format("greslint: unknown rule '{}' (see greslint rules)\n", id);
        return nullptr;
      }
  auto run = analyze_paths(o, err);
  if (!run) return nullptr;
  std::optional<Hostlist> only;
  if (!parse_node_filter(o.nodes, run->version.version, only, err)) return nullptr;
  std::vector<Diagnostic> found = std::move(run->findings);
  run->findings.clear();
  Reporter suppression_findings;
  apply_suppressions(run->cluster.comments, run->sources, found, suppression_findings);
  for (Diagnostic& d : suppression_findings.diagnostics()) found.push_back(std::move(d));
  for (Diagnostic& d : found) {
    for (const auto& [rule, level] : overrides)
      if (d.rule == rule) d.severity = level;
    if (!rule_selected(*d.rule, o)) continue;
    if (only) {
      if (d.nodes.empty()) continue;
      auto l = parse_hostlist(d.nodes, Span{}, VersionProfile(run->version.version));
      bool hit = false;
      if (l.ok()) l.list->for_each([&](const std::string& h, const HostRange&) { hit = hit || only->contains(h); });
      if (!hit) continue;
    }
    run->findings.push_back(std::move(d));
  }
  std::stable_sort(run->findings.begin(), run->findings.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::make_tuple(a.span.file.index, a.span.begin, a.rule->id) <
           std::make_tuple(b.span.file.index, b.span.begin, b.rule->id);
  });
  run->fingerprints = fingerprint_findings(run->findings, run->sources, dirname_of(run->slurm_conf));
  return run;
}

int run_lint(const LintOptions& options, std::ostream& out, std::ostream& err) {
  LintOptions o = options;
  if (!load_config_file(o, err)) return 2;
  auto run = analyze_configuration(o, err);
  if (!run) return 2;
  if (!o.write_baseline.empty() && !write_baseline(o.write_baseline, *run, err)) return 2;
  if (!o.baseline.empty()) {
    auto known = read_baseline(o.baseline, err);
    if (!known) return 2;
    drop_baselined(*known, *run);
  }
  LintReport report;
  report.slurm_version = run->version.version;
  report.version_source = run->version.source;
  report.inputs = run->inputs;
  report.diagnostics = std::move(run->findings);
  report.fingerprints = std::move(run->fingerprints);
  EmitOptions eo;
  eo.color = o.color && o.output.empty();
  eo.base_dir = display_base(run->slurm_conf);
  if (!o.output.empty()) {
    std::ofstream file(o.output);
    if (!file) {
      err << fmt::format("greslint: cannot write {}\n", o.output);
      return 2;
    }
    emit_report(o.format, report, run->sources, eo, file);
  } else if (!(o.quiet && report.diagnostics.empty())) {
    emit_report(o.format, report, run->sources, eo, out);
  }
  if (!run->dropped.empty()) {
    std::string dropped;
    for (const auto& [id, n] : run->dropped) dropped += fmt::format("{}{} more {}", dropped.empty() ? "" : ", ", n, id);
    err << fmt::format("greslint: note: at most {} findings of one rule are reported; not reported: {}\n",
                       Reporter::kMaxPerRule, dropped);
  }
  return exit_code_for(report.diagnostics, o.fail_level);
}

std::optional<FailLevel> parse_fail_level(std::string_view text) {
  if (text == "error") return FailLevel::error;
  if (text == "warning") return FailLevel::warning;
  if (text == "note") return FailLevel::note;
  if (text == "never") return FailLevel::never;
  return std::nullopt;
}

int exit_code_for(const std::vector<Diagnostic>& diagnostics, FailLevel level) {
  Severity threshold = Severity::error;
  switch (level) {
    case FailLevel::never: return 0;
    case FailLevel::error: threshold = Severity::error; break;
    case FailLevel::warning: threshold = Severity::warning; break;
    case FailLevel::note: threshold = Severity::note; break;
  }
  for (const Diagnostic& d : diagnostics)
    if (d.severity >= threshold) return 1;
  return 0;
}

namespace {
void json_string(std::ostream& out, std::string_view s) {
  out << '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      case '\t': out << "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) out << fmt::format("\\u{:04x}", c);
        else out << c;
    }
  }
  out << '"';
}
void json_opt(std::ostream& out, const std::optional<std::string>& s) {
  if (s) json_string(out, *s);
  else out << "null";
}
std::string node_reason(const NodeClass& c, const std::string& node) {
  std::string r = c.reason;
  for (std::size_t at; (at = r.find("\x02NODE\x02")) != std::string::npos;) r.replace(at, 6, node);
  return r;
}
}  // namespace

int run_nodes(const LintOptions& options, std::ostream& out, std::ostream& err) {
  LintOptions o = options;
  if (!load_config_file(o, err)) return 2;
  auto run = analyze_paths(o, err);
  if (!run) return 2;
  const Cluster& c = run->cluster;
  std::optional<Hostlist> only;
  if (!parse_node_filter(o.nodes, run->version.version, only, err)) return 2;
  auto wanted = [&](std::uint32_t n) { return !only || only->contains(c.node_names[n]); };
  bool bad = false;
  if (o.format == Format::json) {
    out << "[";
    bool first = true;
    for (std::uint32_t n = 0; n < c.node_names.size(); ++n) {
      if (!wanted(n)) continue;
      const NodeClass& cls = c.classes[c.class_of[n]];
      bad = bad || cls.verdict >= Verdict::drain;
      out << (first ? "\n" : ",\n") << "  {\"node\": ";
      first = false;
      json_string(out, c.node_names[n]);
      out << ", \"verdict\": \"" << to_string(cls.verdict) << "\", \"reason\": ";
      json_string(out, node_reason(cls, c.node_names[n]));
      out << ", \"gres\": [";
      for (std::size_t i = 0; i < cls.gres.size(); ++i) {
        const EffectiveGres& g = cls.gres[i];
        out << (i ? ", " : "") << "{\"name\": ";
        json_string(out, g.name);
        out << ", \"type\": ";
        json_opt(out, g.type);
        out << ", \"count\": " << g.count << ", \"files\": ";
        json_opt(out, g.files);
        out << ", \"cores\": ";
        json_opt(out, g.cores);
        out << ", \"links\": ";
        json_opt(out, g.links);
        out << ", \"flags\": ";
        json_string(out, g.flags);
        out << "}";
      }
      out << "], \"gpus_isolated\": " << (cls.gpus_isolated ? (*cls.gpus_isolated ? "true" : "false") : "null")
          << ", \"gpus_accounted\": " << (cls.gpus_accounted ? (*cls.gpus_accounted ? "true" : "false") : "null") << "}";
    }
    out << "\n]\n";
    return bad ? 1 : 0;
  }
  // Text: an aligned table, one row per node class (nodes folded) and GRES record.
  struct Row {
    std::string nodes, verdict, gres, files, cores, isolated, accounted, reason;
  };
  std::vector<Row> rows{{"NODES", "VERDICT", "GRES", "FILES", "CORES", "ISOLATED", "ACCOUNTED", "REASON"}};
  auto yes_no = [](const std::optional<bool>& b) { return b ? (*b ? "yes" : "no") : ""; };
  for (const NodeClass& cls : c.classes) {
    std::vector<std::string> names;
    for (std::uint32_t n : cls.nodes)
      if (wanted(n)) names.push_back(c.node_names[n]);
    if (names.empty()) continue;
    bad = bad || cls.verdict >= Verdict::drain;
    Row first{sanitize_for_output(fold_hostnames(names)), std::string(to_string(cls.verdict)), "-", "", "",
              yes_no(cls.gpus_isolated), yes_no(cls.gpus_accounted),
              sanitize_for_output(node_reason(cls, names.size() == 1 ? names.front() : fold_hostnames(names)))};
    for (std::size_t i = 0; i < cls.gres.size(); ++i) {
      const EffectiveGres& g = cls.gres[i];
      Row r = i == 0 ? first : Row{};
      r.gres = sanitize_for_output(fmt::format("{}:{}{}", g.name, g.type ? *g.type + ":" : "", g.count));
      r.files = sanitize_for_output(g.files.value_or("-"));
      r.cores = sanitize_for_output(g.cores.value_or("-"));
      rows.push_back(std::move(r));
    }
    if (cls.gres.empty()) rows.push_back(std::move(first));
  }
  std::size_t w[7] = {0, 0, 0, 0, 0, 0, 0};
  for (const Row& r : rows)
    for (std::size_t i = 0; i < 7; ++i)
      w[i] = std::max(w[i], std::array<const std::string*, 7>{&r.nodes, &r.verdict, &r.gres, &r.files, &r.cores,
                                                              &r.isolated, &r.accounted}[i]->size());
  out << fmt::format("Slurm {} profile ({})\n", run->version.version.str(), run->version.source);
  for (const Row& r : rows) {
    std::string line = fmt::format("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {}", r.nodes, w[0], r.verdict,
                                   w[1], r.gres, w[2], r.files, w[3], r.cores, w[4], r.isolated, w[5], r.accounted,
                                   w[6], r.reason);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  return bad ? 1 : 0;
}

}  // namespace greslint
