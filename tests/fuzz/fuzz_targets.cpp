// SPDX-License-Identifier: Apache-2.0
// Fuzz target bodies (see fuzz_targets.hpp for the input formats). Besides "does not crash",
// each target checks invariants a crash would not reveal: spans inside their file, the
// hostlist index agreeing with the plain scan, Cores= lists surviving a fold/re-parse round
// trip, no terminal escape or raw line break reaching an output format.
#include "fuzz_targets.hpp"
#include "limits/limits.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <tuple>

#include "gres_parse.hpp"
#include "greslint/commands.hpp"
#include "greslint/config.hpp"
#include "greslint/emit.hpp"
#include "greslint/hostlist.hpp"
#include "greslint/lint.hpp"
#include "greslint/model.hpp"
#include "suppress.hpp"

namespace greslint::fuzz {
namespace {

/// Inputs above this are ignored: they only slow the fuzzer down (the hostile-input suite
/// covers big files).
constexpr std::size_t kMaxInput = 1 << 20;
/// Hosts expanded per hostlist input (a legal list can hold 2^31 of them).
constexpr std::size_t kMaxExpandedHosts = 4096;

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "greslint fuzz invariant violated: %s\n", what);
  if (!detail.empty()) std::fprintf(stderr, "  detail: %.*s\n", int(std::min<std::size_t>(detail.size(), 2000)), detail.data());
  std::abort();
}

void require(bool ok, const char* what, std::string_view detail = {}) {
  if (!ok) fail(what, detail);
}

/// A private directory per process and purpose, removed at exit. /dev/shm when possible:
/// the pipeline target writes its files on every execution.
std::string& base_dir() {
  static std::string dir;
  return dir;
}

void remove_tree(const std::string& dir) {
  // Only our own files: slurm.conf, gres.conf, cgroup.conf, fuzz.conf in each subdirectory.
  for (const char* sub : {"reader", "pipeline"}) {
    for (const char* f : {"slurm.conf", "gres.conf", "cgroup.conf", "fuzz.conf"})
      ::unlink((dir + "/" + sub + "/" + f).c_str());
    ::rmdir((dir + "/" + sub).c_str());
  }
  ::rmdir(dir.c_str());
}

const std::string& private_dir(const char* purpose) {
  static std::string reader_dir, pipeline_dir;
  std::string& slot = std::strcmp(purpose, "reader") == 0 ? reader_dir : pipeline_dir;
  if (!slot.empty()) return slot;
  if (base_dir().empty()) {
    std::string root = "/tmp";
    struct stat st {};
    if (::stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && ::access("/dev/shm", W_OK) == 0) root = "/dev/shm";
    else if (const char* t = std::getenv("TMPDIR"); t && *t) root = t;
    std::string templ = root + "/greslint-fuzz-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) fail("mkdtemp failed");
    base_dir() = buf.data();
    std::atexit([] { remove_tree(base_dir()); });
  }
  slot = base_dir() + "/" + purpose;
  ::mkdir(slot.c_str(), 0700);
  return slot;
}

SlurmVersion version_for(unsigned selector) {
  const auto& versions = known_versions();
  return versions[selector % versions.size()];
}

void check_span(const SourceManager& sources, Span s, const char* what) {
  if (!s.valid()) return;
  require(s.file.index < sources.file_count(), what, "file index out of range");
  const std::size_t size = sources.text(s.file).size();
  require(s.begin <= s.end && s.end <= size, what,
          "span [" + std::to_string(s.begin) + "," + std::to_string(s.end) + ") in a file of " +
              std::to_string(size) + " bytes");
  // Exercise what the emitters do with it.
  const LineCol lc = sources.line_col(s.file, s.begin);
  (void)sources.line_text(s.file, lc.line);
}

void check_diagnostics(const SourceManager& sources, const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics) {
    require(d.rule != nullptr, "diagnostic without a rule");
    check_span(sources, d.span, "diagnostic span");
    for (const Related& r : d.related) check_span(sources, r.span, "related span");
  }
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), std::streamsize(text.size()));
  if (!out) fail("cannot write a fuzz input file", path);
}

/// No byte from a linted file may start a terminal escape or a new workflow command.
void check_output(Format format, bool color, const std::string& out) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] != '\x1b') continue;
    // Colour is greslint's own SGR sequences: ESC [ digits/';' m, nothing else.
    require(color, "ESC byte in uncoloured output", out.substr(i > 80 ? i - 80 : 0, 160));
    std::size_t j = i + 1;
    require(j < out.size() && out[j] == '[', "ESC not followed by '['");
    ++j;
    while (j < out.size() && ((out[j] >= '0' && out[j] <= '9') || out[j] == ';')) ++j;
    require(j < out.size() && out[j] == 'm', "ESC sequence other than SGR in coloured output");
  }
  if (format == Format::github) {
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
      require(line.rfind("::error ", 0) == 0 || line.rfind("::warning ", 0) == 0 || line.rfind("::notice ", 0) == 0,
              "github output line is not a workflow command", line);
  }
}

}  // namespace

std::vector<Part> split_pipeline_input(std::string_view rest) {
  std::vector<Part> parts(3);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::size_t sep = i + 1 < parts.size() ? rest.find(kFileSeparator) : std::string_view::npos;
    parts[i].present = true;
    parts[i].text = std::string(rest.substr(0, sep));
    if (sep == std::string_view::npos) break;
    rest.remove_prefix(sep + kFileSeparator.size());
  }
  return parts;
}

/// The same text read again with its later lines on a second thread (LaterLines, split at
/// its first line and every 1,024 lines, whatever its size) must give what a read on one
/// thread gave: directives, comments, findings and verdict.
void require_same_when_split(const ConfigFile& one, const Reporter& one_out, ReadOptions options,
                             const VersionProfile& profile, const std::string& path, std::string_view text) {
  CoreBudget cores(8);
  options.cores = &cores;
  options.later_lines_from_bytes = 0;
  SourceManager sources;
  Reporter out;
  const FileId file = sources.add(path, std::string(text));
  const ConfigFile split = parse_config_text(file, options, profile, sources, out);
  require(split.failed == one.failed && split.truncated == one.truncated, "split read: another verdict");
  require(split.directives.size() == one.directives.size(), "split read: another number of directives");
  auto same_pair = [](const KeyValue& a, const KeyValue& b) {
    return a.key == b.key && a.value == b.value && a.spec == b.spec && a.key_span.begin == b.key_span.begin &&
           a.key_span.end == b.key_span.end && a.value_span.begin == b.value_span.begin &&
           a.value_span.end == b.value_span.end;
  };
  for (std::size_t i = 0; i < one.directives.size(); ++i) {
    const Directive& a = one.directives[i];
    const Directive& b = split.directives[i];
    require(a.line == b.line && a.span.begin == b.span.begin && a.span.end == b.span.end && a.kind == b.kind &&
                a.complete == b.complete && same_pair(a.head(), b.head()) && a.rest().size() == b.rest().size(),
            "split read: another directive", a.head().key);
    for (std::size_t k = 0; k < a.rest().size(); ++k)
      require(same_pair(a.rest()[k], b.rest()[k]), "split read: another pair", a.rest()[k].key);
  }
  require(split.comments.size() == one.comments.size(), "split read: another number of comments");
  for (std::size_t i = 0; i < one.comments.size(); ++i)
    require(split.comments[i].span.begin == one.comments[i].span.begin, "split read: another comment");
  const auto& a = one_out.diagnostics();
  const auto& b = out.diagnostics();
  require(a.size() == b.size() && one_out.dropped() == out.dropped(), "split read: other findings");
  for (std::size_t i = 0; i < a.size(); ++i)
    require(a[i].rule == b[i].rule && a[i].span.begin == b[i].span.begin && a[i].message == b[i].message &&
                a[i].slurm_message == b[i].slurm_message,
            "split read: another finding", a[i].message);
}

int reader(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > kMaxInput) return 0;
  const unsigned sel = data[0];
  static constexpr KeyTable kTables[] = {KeyTable::slurm_conf, KeyTable::gres_conf, KeyTable::cgroup_conf,
                                         KeyTable::greslint_conf};
  const std::string& dir = private_dir("reader");
  ReadOptions options;
  options.table = kTables[sel & 3];
  options.slurm_conf_dir = dir;
  if (sel & 4) options.cluster_name = "Fuzz";
  const VersionProfile profile(version_for(sel >> 3));
  SourceManager sources;
  Reporter out;
  const FileId file = sources.add(dir + "/fuzz.conf", std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  const ConfigFile parsed = parse_config_text(file, options, profile, sources, out);
  check_diagnostics(sources, out.diagnostics());
  for (const auto* list : {&parsed.directives, &parsed.recovered})
    for (const Directive& d : *list) {
      require(d.head().spec != nullptr, "directive without a head");
      check_span(sources, d.head().key_span, "head key span");
      check_span(sources, d.head().value_span, "head value span");
      for (const KeyValue& kv : d.rest()) {
        require(kv.spec != nullptr, "pair without a key spec");
        check_span(sources, kv.key_span, "key span");
        check_span(sources, kv.value_span, "value span");
        // A repeating line's pairs are made from an earlier line's: they must view its own text.
        require(sources.text(kv.key_span) == kv.key || kv.key_span.size() != kv.key.size(), "key text off its span");
        (void)d.find(kv.key);
      }
      check_span(sources, d.span, "directive span");
    }
  for (const Comment& c : parsed.comments) check_span(sources, c.span, "comment span");
  require_same_when_split(parsed, out, options, profile, sources.path(file), sources.text(file));
  return 0;
}

int hostlist(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > kMaxInput) return 0;
  const VersionProfile profile(version_for(data[0]));
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const Span where{FileId{0}, 0, static_cast<std::uint32_t>(text.size())};
  HostlistResult r = parse_hostlist(text, where, profile);
  for (const auto* list : {&r.errors, &r.warnings})
    for (const HostlistError& e : *list)
      require(e.span.begin <= e.span.end && e.span.end <= text.size(), "hostlist error span out of range");
  if (!r.ok()) return 0;
  const Hostlist& list = *r.list;
  std::uint64_t total = 0;
  for (const HostRange& range : list.ranges()) {
    require(!range.numeric || range.lo <= range.hi, "range with lo > hi");
    require(range.item.end <= text.size() && range.expr.end <= text.size(), "range span out of range");
    total += range.count();
  }
  require(total == list.size(), "Hostlist::size differs from the sum of its ranges");

  std::vector<std::string> names;
  for (const HostRange& range : list.ranges())
    for (std::uint64_t i = 0; i < range.count() && names.size() < kMaxExpandedHosts; ++i) names.push_back(range.host(i));
  // The hash index must answer exactly like Slurm's linear walk, for members and near misses.
  // find_unindexed is a linear scan: keep names x ranges around a few million steps.
  const std::size_t budget = std::max<std::size_t>(4, (std::size_t(1) << 21) / (list.ranges().size() + 1));
  std::size_t probes = 0;
  for (const std::string& name : names) {
    if (++probes > budget) break;
    require(list.find(name) == list.find_unindexed(name), "indexed find differs from linear find", name);
    if (probes * 5 > budget) continue;
    for (const std::string& miss : {name + "0", "0" + name, name.substr(0, name.size() / 2), name + "x"})
      require(list.find(miss) == list.find_unindexed(miss), "indexed find differs on a probe", miss);
  }
  // Slurm's sorted forms split overlapping ranges host by host (quadratic): small lists only.
  if (list.ranges().size() <= 256 && list.size() <= 4096) {
    (void)fold_hostlist(list, FoldOrder::slurm_sorted);
    (void)fold_hostlist(list, FoldOrder::sorted_unique);
  }
  (void)fold_hostnames(names, true);
  (void)fold_hostnames(names, false);
  std::ostringstream out, err;
  const std::vector<std::string> exprs{std::string(text)};
  // Counting parses the list again: four brackets of 100 in one name are a million ranges,
  // 0.4 s a parse in a release build and ~3 s instrumented (1.7 s and over 5 s until the
  // hostlist index was made lazily; found by the CI fuzz smoke). The parse above covered it;
  // the command runs on lists of at most 65,536 ranges.
  if (list.ranges().size() <= (1u << 16))
    require(run_hostlist_command('c', profile, exprs, out, err) == 0, "hostlist -c failed on a valid list");
  // Folding compares neighbouring prefixes digit by digit: 65,536 ranges with long prefixes take
  // 0.2 s in a release build but ~10 s instrumented, so the fuzzer folds the smaller lists (the
  // big ones are in tests/regress/hostlist and the hostile suite).
  // A suffixed range (23.11 "a[1-4]b") folds host by host, as Slurm keeps one hostrange per
  // such host: "a[1-655]b[0-65535]c" is 43 million of them, 4 GB and 18 s even in a release
  // build. The fuzzer folds lists of at most 65,536 such hosts (found by the CI fuzz smoke).
  std::uint64_t folded_one_by_one = 0;
  for (const HostRange& range : list.ranges())
    if (!range.suffix.empty()) folded_one_by_one += range.count();
  if (list.ranges().size() <= (1u << 14) && folded_one_by_one <= (1u << 16))
    require(run_hostlist_command('f', profile, exprs, out, err) == 0, "hostlist -f failed on a valid list");
  return 0;
}

int gres_values(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > (1 << 16)) return 0;
  const unsigned sel = data[0];
  // Core counts a node line can produce: sockets x cores, each up to 65535.
  static constexpr std::uint32_t kBits[] = {0, 1, 2, 4, 8, 16, 64, 128, 256, 4096, 65536, 1u << 20, 4294836225u};
  static constexpr std::string_view kNames[] = {"gpu", "mps", "shard", "nic", "g", ""};
  constexpr unsigned kBitChoices = sizeof(kBits) / sizeof(kBits[0]);
  const std::uint32_t nbits = kBits[sel % kBitChoices];
  const std::string_view name = kNames[(sel / kBitChoices) % 6];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);

  const GresCount c = count_gres(text, name);
  (void)c.typed_sum();
  for (std::string_view part : split_commas(text)) (void)suffix_multiplier(part);
  (void)parse_gres_count(text);
  (void)validate_links(text);
  if (auto cores = parse_core_list(text, nbits)) {
    for (std::size_t i = 0; i < cores->size(); ++i) {
      require((*cores)[i] < nbits, "core index not below nbits");
      require(i == 0 || (*cores)[i - 1] < (*cores)[i], "core list not sorted and unique");
    }
    const std::string folded = format_index_list(*cores);
    const auto again = parse_core_list(folded, nbits);
    require(again && *again == *cores, "Cores= list does not survive format + parse", folded);
  }
  return 0;
}

int pipeline(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > kMaxInput) return 0;
  const unsigned sel = data[0];
  const SlurmVersion version = version_for(sel & 0x3f);
  const std::vector<Part> parts =
      split_pipeline_input(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  const std::string& dir = private_dir("pipeline");
  static const char* const kNames[] = {"slurm.conf", "gres.conf", "cgroup.conf"};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string path = dir + "/" + kNames[i];
    if (parts[i].present) write_file(path, parts[i].text);
    else ::unlink(path.c_str());
  }
  LintInputs inputs{dir + "/slurm.conf", dir + "/gres.conf", dir + "/cgroup.conf", {}};
  SourceManager sources;
  Reporter reporter;
  const Cluster cluster = analyze(inputs, VersionProfile(version), sources, reporter);

  require(cluster.class_of.size() == cluster.node_names.size(), "class_of size differs from node count");
  std::size_t in_classes = 0;
  for (const NodeClass& cls : cluster.classes) in_classes += cls.nodes.size();
  require(in_classes == cluster.node_names.size(), "node classes do not partition the nodes");
  for (std::uint32_t c : cluster.class_of) require(c < cluster.classes.size(), "class index out of range");

  std::vector<Diagnostic> found = std::move(reporter.diagnostics());
  Reporter suppression_findings;
  apply_suppressions(cluster.comments, sources, found, suppression_findings);
  for (Diagnostic& d : suppression_findings.diagnostics()) found.push_back(std::move(d));
  check_diagnostics(sources, found);
  std::stable_sort(found.begin(), found.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::make_tuple(a.span.file.index, a.span.begin, a.rule->id) <
           std::make_tuple(b.span.file.index, b.span.begin, b.rule->id);
  });

  LintReport report;
  report.diagnostics = std::move(found);
  for (std::size_t i = 0; i < sources.file_count(); ++i) report.inputs.push_back(sources.path(FileId{std::uint16_t(i)}));
  report.slurm_version = version;
  report.version_source = "fuzz";
  for (Format format : {Format::text, Format::json, Format::sarif, Format::github, Format::junit, Format::gitlab}) {
    // SARIF carries the whole rule registry (~200 KB): a quarter of the executions otherwise.
    if (format == Format::sarif && !(sel & 0x40)) continue;
    for (bool color : {false, true}) {
      if (color && format != Format::text) continue;
      EmitOptions options;
      options.color = color;
      options.base_dir = dir;
      std::ostringstream out;
      emit_report(format, report, sources, options, out);
      check_output(format, color, out.str());
    }
  }
  if (sel & 0x80) {
    // The per-node table too (it reads the files again, so only for half the inputs).
    for (Format format : {Format::text, Format::json}) {
      LintOptions o;
      o.paths = {dir};
      o.slurm_version = version.str();
      o.no_config = true;
      o.format = format;
      std::ostringstream out, err;
      const int rc = run_nodes(o, out, err);
      require(rc >= 0 && rc <= 2, "nodes returned an exit code outside 0-2");
      check_output(format, false, out.str());
    }
  }
  return 0;
}

int limits(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInput) return 0;
  SourceManager sources;
  const FileId file = sources.add("fuzz.cfg", std::string(reinterpret_cast<const char*>(data), size));
  greslint::limits::LimitsDb db;
  if (auto error = greslint::limits::read_limits(sources, file, db)) {
    check_span(sources, error->span, "limits error span");
    require(!error->message.empty(), "limits error without a message");
    return 0;
  }
  for (const greslint::limits::Assoc& a : db.assocs) {
    check_span(sources, a.span, "association span");
    for (const greslint::limits::Limit& l : a.limits)
      for (const greslint::limits::Tres& t : l.tres) check_span(sources, t.span, "TRES span");
    const greslint::limits::EffectiveAssoc e = greslint::limits::effective(db, a);
    require(!e.chain.empty() && e.chain.size() <= db.assocs.size(), "association chain");
  }
  for (const greslint::limits::Qos& q : db.qos) {
    check_span(sources, q.span, "QOS span");
    for (const greslint::limits::Limit& l : q.limits)
      for (const greslint::limits::Tres& t : l.tres) check_span(sources, t.span, "TRES span");
  }
  return 0;
}

Target find_target(std::string_view name) {
  if (name == "limits") return limits;
  if (name == "reader") return reader;
  if (name == "hostlist") return hostlist;
  if (name == "gres_values") return gres_values;
  if (name == "pipeline") return pipeline;
  return nullptr;
}

}  // namespace greslint::fuzz
