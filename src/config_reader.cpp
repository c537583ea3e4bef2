// SPDX-License-Identifier: Apache-2.0
// Slurm's s_p_parse_file, re-done with spans: logical lines, Key=Value matching,
// one top-level key per line, records, Include, conversions and their messages.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <optional>
#include <unordered_map>

#include "greslint/config.hpp"
#include "rules/rules.hpp"
#include "util.hpp"

namespace greslint {
namespace {

constexpr std::size_t kMaxFileBytes = 64u << 20;  // far above any real config; bounds memory
constexpr int kMaxIncludeDepth = 64;
/// Files (and bytes) one run reads through Include: a file that includes the next one twice,
/// 40 deep, would otherwise be read 2^40 times. Slurm has no such stop (nor a depth limit).
constexpr std::size_t kMaxSourceFiles = 1024;
constexpr std::size_t kMaxSourceBytes = 2 * kMaxFileBytes;
// Settings and records kept from one file and its Includes. A 100,000-node cluster written
// one line per node has ~100,000; each kept line costs 200-1,000 bytes, so 64 MiB of tiny
// lines (6 million `NodeName=a`) took 1.6 GB before this limit.
constexpr std::size_t kMaxDirectives = std::size_t(1) << 20;

/// A logical line: cooked text plus, for each cooked byte, its physical offset.
/// Where each byte of a logical line came from in its file. A logical line is a few runs of
/// bytes copied unchanged, split only where a continuation joins lines or an escape drops a
/// backslash, so it is stored as runs: one offset per byte cost a 10 MB line 80 MB.
class OffsetMap {
 public:
  /// Records that byte `index` of the line came from file offset `source`; indexes arrive
  /// in increasing order.
  void add(std::size_t index, std::uint32_t source) {
    if (!runs_.empty() && runs_.back().source + (index - runs_.back().index) == source) return;
    runs_.push_back(Run{index, source});
  }
  /// Closes the map: `size` bytes, and [size] (one past the last byte) answers `end`.
  void finish(std::size_t size, std::uint32_t end) {
    size_ = size;
    end_ = end;
  }
  std::uint32_t operator[](std::size_t index) const {
    if (index >= size_) return end_;
    auto run = std::upper_bound(runs_.begin(), runs_.end(), index,
                                [](std::size_t i, const Run& r) { return i < r.index; });
    --run;  // runs_ starts at index 0, so a run at or before `index` exists
    return run->source + std::uint32_t(index - run->index);
  }

 private:
  struct Run {
    std::size_t index;
    std::uint64_t source;
  };
  std::vector<Run> runs_;
  std::size_t size_ = 0;
  std::uint32_t end_ = 0;
};

struct LogicalLine {
  std::string text;
  OffsetMap offsets;                   // file offset of each byte of text; [text.size()] = end
  std::vector<std::size_t> joins;      // cooked indexes where a continuation joined lines
  std::uint32_t first_line = 0;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

struct KvMatch {
  std::size_t key_begin, key_end;
  char op;
  std::size_t value_begin, value_end;  // value without quotes
  bool quoted;
  bool gap_before_value;  // whitespace between '=' and the value
  std::size_t end;        // end of the value (quotes included)
};

/// Slurm's keyvalue_pattern, applied at `pos` with POSIX leftmost-longest semantics.
std::optional<KvMatch> match_key_value(std::string_view s, std::size_t pos) {
  std::size_t i = pos;
  while (i < s.size() && is_space(s[i])) ++i;
  const std::size_t key_begin = i;
  while (i < s.size() && (is_alnum(s[i]) || s[i] == '_' || s[i] == '.')) ++i;
  if (i == key_begin) return std::nullopt;
  const std::size_t key_end = i;
  while (i < s.size() && is_space(s[i])) ++i;
  char op = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '*' || s[i] == '+' || s[i] == '/')) op = s[i++];
  if (i >= s.size() || s[i] != '=') return std::nullopt;
  ++i;
  const std::size_t after_eq = i;
  while (i < s.size() && is_space(s[i])) ++i;
  if (i >= s.size()) return std::nullopt;
  // Alternative 1: "..." followed by whitespace or end of line.
  std::size_t quoted_len = 0;
  if (s[i] == '"') {
    std::size_t close = s.find('"', i + 1);
    if (close != std::string_view::npos && (close + 1 == s.size() || is_space(s[close + 1])))
      quoted_len = close + 1 - i;
  }
  // Alternative 2: a run of non-space characters.
  std::size_t plain_len = 0;
  while (i + plain_len < s.size() && !is_space(s[i + plain_len])) ++plain_len;
  if (quoted_len == 0 && plain_len == 0) return std::nullopt;
  KvMatch m{key_begin, key_end, op, 0, 0, false, i > after_eq, 0};
  if (quoted_len >= plain_len && quoted_len > 0) {
    m.quoted = true;
    m.value_begin = i + 1;
    m.value_end = i + quoted_len - 1;
    m.end = i + quoted_len;
  } else {
    m.value_begin = i;
    m.value_end = i + plain_len;
    m.end = i + plain_len;
  }
  return m;
}

bool only_space(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return is_space(c); });
}

std::string_view strip_cr_nl(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

Daemon daemon_for(KeyTable table) {
  return table == KeyTable::gres_conf ? Daemon::slurmd : Daemon::slurmctld;
}

class Reader {
 public:
  Reader(const ReadOptions& options, const VersionProfile& profile, SourceManager& sources,
         Reporter& out)
      : options_(options), profile_(profile), sources_(sources), out_(out),
        cluster_name_(to_lower(options.cluster_name)) {}

  void parse(FileId file, ConfigFile& result, int depth) {
    result.files.push_back(file);
    stack_.push_back(sources_.path(file));
    std::string_view text = sources_.text(file);
    if (depth == 0) {
      // Performance: room for a directive per line, so that a file of a million settings is
      // not moved to a bigger vector twenty times (a third of its run). Pages that stay
      // unused (comment lines) are reserved address space, never touched, never resident.
      const std::size_t lines = std::size_t(std::count(text.begin(), text.end(), '\n')) + 1;
      result.directives.reserve(std::min(lines, kMaxDirectives));
    }
    std::uint32_t pos = 0;
    std::uint32_t line_no = 1;
    while (pos < text.size() && !stopped_) {
      LogicalLine line = next_line(file, text, pos, line_no, result);
      if (line.text.empty()) continue;
      if (result.directives.size() >= kMaxDirectives) {
        stopped_ = true;
        out_.report(rules::GRS008, span_of(file, line, 0, line.text.size()),
                    fmt::format("greslint stops reading here: the file already holds {} settings and records, "
                                "greslint's limit",
                                kMaxDirectives))
            .effect(Effect::none, Daemon::none)
            .help("a real cluster needs far fewer lines: fold the node lines into hostlists (gpu[001-100])");
        result.truncated = true;
        break;
      }
      handle_line(file, line, result, depth);
    }
    stack_.pop_back();
  }

 private:
  Span span_of(FileId file, const LogicalLine& l, std::size_t b, std::size_t e) const {
    return Span{file, l.offsets[b], e > b ? l.offsets[e - 1] + 1 : l.offsets[b]};
  }

  LogicalLine next_line(FileId file, std::string_view text, std::uint32_t& pos,
                        std::uint32_t& line_no, ConfigFile& result) {
    LogicalLine l;
    l.first_line = line_no;
    l.begin = pos;
    std::string raw;
    // Each physical line's kept bytes: where they start in `raw` and in the file.
    std::vector<std::pair<std::size_t, std::uint32_t>> pieces;
    while (pos < text.size()) {
      std::size_t eol = text.find('\n', pos);
      std::uint32_t line_end = eol == std::string_view::npos ? std::uint32_t(text.size()) : std::uint32_t(eol);
      std::uint32_t next = eol == std::string_view::npos ? line_end : line_end + 1;
      // Slurm reads lines with fgets and then uses strlen: a NUL ends the line's content.
      std::uint32_t content_end = line_end;
      if (const void* nul = std::memchr(text.data() + pos, '\0', line_end - pos))
        content_end = std::uint32_t(static_cast<const char*>(nul) - text.data());
      // Comments: a '#' not preceded by an odd run of backslashes.
      int backslashes = 0;
      for (std::uint32_t i = pos; i < content_end; ++i) {
        if (text[i] == '#' && backslashes % 2 == 0) {
          std::string_view body = text.substr(i + 1, line_end - i - 1);
          if (body.find("greslint:") != std::string_view::npos)
            result.comments.push_back(Comment{Span{file, i, line_end}, body, line_no});
          content_end = i;
          break;
        }
        backslashes = text[i] == '\\' ? backslashes + 1 : 0;
      }
      // Continuation: an odd run of trailing backslashes (trailing blanks allowed after it).
      std::uint32_t scan = content_end;
      int run = 0;
      while (scan > pos) {
        char c = text[scan - 1];
        if (c == '\\') ++run;
        else if (is_space(c) && run == 0) {}
        else break;
        --scan;
      }
      const bool continued = run % 2 == 1;
      std::uint32_t keep_end = continued ? scan + std::uint32_t(run) - 1 : content_end;
      if (keep_end > pos) {
        // In bulk: per-byte push_back made a 10 MB line cost 20 million of them.
        pieces.emplace_back(raw.size(), pos);
        raw.append(text.data() + pos, keep_end - pos);
      }
      l.end = continued ? line_end : keep_end;
      pos = next;
      ++line_no;
      if (!continued) break;
      l.joins.push_back(raw.size());
    }
    // Escapes: every backslash is dropped and the next character kept as it is.
    l.text.reserve(raw.size());
    std::vector<std::size_t> joins;
    std::size_t j = 0;
    std::size_t piece = 0;
    auto source_of = [&](std::size_t i) {
      while (piece + 1 < pieces.size() && pieces[piece + 1].first <= i) ++piece;
      return pieces[piece].second + std::uint32_t(i - pieces[piece].first);
    };
    for (std::size_t i = 0; i < raw.size(); ++i) {
      while (j < l.joins.size() && l.joins[j] <= i) joins.push_back(l.text.size()), ++j;
      if (raw[i] == '\\') {
        if (++i >= raw.size()) break;
      }
      l.offsets.add(l.text.size(), source_of(i));
      l.text.push_back(raw[i]);
    }
    while (j < l.joins.size()) joins.push_back(l.text.size()), ++j;
    l.joins = std::move(joins);
    l.offsets.finish(l.text.size(), l.end);
    return l;
  }

  void handle_line(FileId file, const LogicalLine& l, ConfigFile& result, int depth) {
    std::string_view s = l.text;
    if (s.size() > 7 && iequals(s.substr(0, 7), "include") && is_space(s[7])) {
      handle_include(file, l, result, depth);
      return;
    }
    auto m = match_key_value(s, 0);
    if (!m) {
      if (!only_space(s)) parse_error(file, l, 0, result);
      return;
    }
    std::string_view key = s.substr(m->key_begin, m->key_end - m->key_begin);
    const KeySpec* spec = find_key(options_.table, key, profile_.version());
    if (!spec) {
      unknown_key(file, l, *m, options_.table, /*in_record=*/false, result);
      return;
    }
    Directive d;
    d.span = Span{file, l.begin, l.end};
    d.line = l.first_line;
    d.pairs.push_back(make_pair(file, l, *m, spec));
    check_joins(file, l, *m);
    check_empty_value(file, l, *m);
    std::size_t ptr = m->end;
    if (auto sub = record_table(options_.table, key)) {
      d.kind = Directive::Kind::record;
      // Index of the last pair of each key: a duplicate is reported against the previous
      // occurrence, as for top-level keys (a scan of every earlier pair was quadratic: a 10 MB
      // line of repeated CPUs=1 never finished).
      std::unordered_map<const KeySpec*, std::size_t> last_of;
      while (auto sm = match_key_value(s, ptr)) {
        std::string_view sub_key = s.substr(sm->key_begin, sm->key_end - sm->key_begin);
        const KeySpec* sub_spec = find_key(*sub, sub_key, profile_.version());
        if (!sub_spec) {
          unknown_key(file, l, *sm, *sub, /*in_record=*/true, result);
          d.complete = false;
          break;
        }
        KeyValue kv = make_pair(file, l, *sm, sub_spec);
        if (!convert(file, kv, result)) {
          d.complete = false;
          break;
        }
        check_joins(file, l, *sm);
        check_empty_value(file, l, *sm);
        if (sub_spec->type != ValueType::array && sub_spec->type != ValueType::line &&
            sub_spec->type != ValueType::expline) {
          auto [seen, fresh] = last_of.emplace(sub_spec, d.pairs.size());
          if (!fresh) {
            duplicate(d.pairs[seen->second], kv);
            // Slurm keeps the last value: it takes the earlier pair's place, so a line that
            // repeats one key a million times holds one pair (find() saw only the last anyway).
            d.pairs[seen->second] = std::move(kv);
            ptr = sm->end;
            continue;
          }
        }
        d.pairs.push_back(std::move(kv));
        ptr = sm->end;
      }
      if (d.complete && !only_space(s.substr(ptr))) {
        parse_error(file, l, ptr, result);
        d.complete = false;
      }
      result.directives.push_back(std::move(d));
      return;
    }
    KeyValue& kv = d.pairs.front();
    if (!convert(file, kv, result)) return;
    if (!only_space(s.substr(ptr))) {
      parse_error(file, l, ptr, result);
      return;
    }
    if (spec->type != ValueType::array) {
      auto previous = settings_.find(spec);
      if (previous != settings_.end()) duplicate(previous->second, kv);
      settings_[spec] = kv;
    }
    if (iequals(spec->name, "ClusterName")) cluster_name_ = to_lower(kv.value);
    result.directives.push_back(std::move(d));
  }

  KeyValue make_pair(FileId file, const LogicalLine& l, const KvMatch& m, const KeySpec* spec) {
    KeyValue kv;
    kv.key = l.text.substr(m.key_begin, m.key_end - m.key_begin);
    kv.value = l.text.substr(m.value_begin, m.value_end - m.value_begin);
    kv.op = m.op;
    kv.quoted = m.quoted;
    kv.key_span = span_of(file, l, m.key_begin, m.key_end);
    kv.value_span = span_of(file, l, m.value_begin, m.value_end);
    kv.spec = spec;
    return kv;
  }

  bool convert(FileId file, const KeyValue& kv, ConfigFile& result) {
    std::string error;
    if (convert_value(*kv.spec, kv.value, error)) return true;
    out_.report(rules::GRS003, kv.value_span,
                fmt::format("{}={} is not a value Slurm accepts for {}", kv.key, kv.value, kv.spec->name))
        .slurm(error)
        .effect(Effect::fatal, daemon_for(options_.table))
        .help(help_for_value(*kv.spec));
    result.failed = true;
    return false;
  }

  static std::string help_for_value(const KeySpec& spec) {
    switch (spec.type) {
      case ValueType::uint16: return "use a whole number from 0 to 65535";
      case ValueType::uint32: return "use a whole number (a trailing k multiplies by 1024), or UNLIMITED";
      case ValueType::uint64: return "use a whole number (a trailing k multiplies by 1024), or UNLIMITED";
      case ValueType::boolean: return "use yes/no, true/false, up/down or 1/0";
      default: return "use a value of the documented form";
    }
  }

  void duplicate(const KeyValue& first, const KeyValue& again) {
    if (out_.skip(rules::GRS004)) return;  // past the limit: counted, not formatted
    const char* n = again.spec->type == ValueType::pointer ? "2" : "1";
    out_.report(rules::GRS004, again.key_span,
                fmt::format("{} is given more than once; Slurm uses the last value ({})", again.spec->name,
                            again.value))
        .slurm(fmt::format("{} {} specified more than once, latest value used", again.spec->name, n))
        .related(first.key_span, fmt::format("first given here as {}={}", first.key, first.value))
        .help("keep a single occurrence");
  }

  void unknown_key(FileId file, const LogicalLine& l, const KvMatch& m, KeyTable table, bool in_record,
                   ConfigFile& result) {
    std::string key = l.text.substr(m.key_begin, m.key_end - m.key_begin);
    Span span = span_of(file, l, m.key_begin, m.key_end);
    // Past the cap the finding is dropped: skip the "did you mean" search over every key.
    const bool dropped = out_.saturated(rules::GRS002);
    std::string where = in_record ? fmt::format(" in a {} record", table_label(table)) : std::string();
    std::string slurm = in_record ? fmt::format("Parsing error at unrecognized key: {}", key)
                                  : fmt::format("_parse_next_key: Parsing error at unrecognized key: {}", key);
    auto b = out_.report(rules::GRS002, span,
                         fmt::format("Slurm {} does not know the key {}{}", profile_.version().str(), key, where))
                 .slurm(slurm)
                 .effect(Effect::fatal, daemon_for(options_.table));
    std::string_view guess = dropped ? std::string_view() : closest_key(table, key, profile_.version());
    if (!guess.empty())
      b.help(fmt::format("did you mean {}?", guess));
    else
      b.help(fmt::format("remove it, or check that Slurm {} supports it", profile_.version().str()));
    result.failed = true;
  }

  static std::string_view table_label(KeyTable t) {
    switch (t) {
      case KeyTable::node_name: return "NodeName";
      case KeyTable::partition_name: return "PartitionName";
      case KeyTable::node_set: return "NodeSet";
      case KeyTable::down_nodes: return "DownNodes";
      case KeyTable::slurmctld_host: return "SlurmctldHost";
      case KeyTable::frontend_name: return "FrontendName";
      case KeyTable::power_action: return "PowerAction";
      case KeyTable::gres_record: return "gres.conf";
      default: return "top-level";
    }
  }

  void parse_error(FileId file, const LogicalLine& l, std::size_t from, ConfigFile& result) {
    std::size_t b = from;
    while (b < l.text.size() && is_space(l.text[b])) ++b;
    std::size_t e = l.text.size();
    while (e > b && is_space(l.text[e - 1])) --e;
    // Clipped before formatting: a 10 MB line must not be copied whole into a message.
    std::string leftover = clipped(strip_cr_nl(std::string_view(l.text).substr(from)));
    std::string shown = clipped(std::string_view(l.text).substr(b, e - b));
    std::string help;
    if (from == 0 && l.text.size() > 0 && is_space(l.text[0]) &&
        iequals(std::string_view(l.text).substr(b, std::min<std::size_t>(7, e - b)), "include")) {
      help = "Include must start in column 0; remove the leading whitespace";
      std::string_view rest = std::string_view(shown).substr(7);
      while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
      std::string name(rest.substr(0, rest.find_first_of(" \t")));
      if (!name.empty() && name.find('%') == std::string::npos) {
        std::string base = profile_.include_relative_to_including_file() ? dirname_of(sources_.path(file))
                                                                         : options_.slurm_conf_dir;
        recover(name[0] == '/' ? name : join_path(base, name), result, 0);
      }
    }
    else if (from == 0 && std::string_view(l.text).substr(b, e - b).find('=') == std::string_view::npos)
      help = "every line must be Key=Value";
    else if (from == 0)
      help = "write the value right after '=', or use Key=\"\" for an empty value";
    else if (options_.table == KeyTable::slurm_conf || options_.table == KeyTable::gres_conf ||
             options_.table == KeyTable::cgroup_conf)
      help = "only record lines (NodeName=, PartitionName=, Name=, ...) take several Key=Value pairs; "
             "put each setting on its own line";
    if (out_.skip(rules::GRS001)) {  // past the limit: counted, not formatted
      result.failed = true;
      return;
    }
    out_.report(rules::GRS001, span_of(file, l, b, e),
                fmt::format("Slurm cannot parse \"{}\" on this line", shown))
        .slurm(fmt::format("Parse error in file {} line {}: \"{}\"", sources_.path(file), l.first_line, leftover))
        .effect(Effect::fatal, daemon_for(options_.table))
        .help(help);
    result.failed = true;
  }

  void check_empty_value(FileId file, const LogicalLine& l, const KvMatch& m) {
    if (!m.gap_before_value || m.quoted) return;
    std::string_view value = std::string_view(l.text).substr(m.value_begin, m.value_end - m.value_begin);
    auto inner = match_key_value(value, 0);
    if (!inner || inner->end != value.size()) return;
    std::string key = l.text.substr(m.key_begin, m.key_end - m.key_begin);
    out_.report(rules::GRS006, span_of(file, l, m.value_begin, m.value_end),
                fmt::format("{}= is followed by a space, so Slurm sets {} to \"{}\"", key, key, value))
        .help(fmt::format("write {}=\"\" for an empty value, or remove the space after '='", key));
  }

  void check_joins(FileId file, const LogicalLine& l, const KvMatch& m) {
    for (std::size_t j : l.joins) {
      if (j <= m.key_begin || j >= m.end || j == 0 || j >= l.text.size()) continue;
      if (is_space(l.text[j - 1]) || is_space(l.text[j])) continue;
      std::string_view joined = std::string_view(l.text).substr(m.value_begin, m.value_end - m.value_begin);
      out_.report(rules::GRS007, Span{file, l.offsets[j], l.offsets[j] + 1},
                  fmt::format("the line continuation joins two words with no space: Slurm reads \"{}\"", joined))
          .related(span_of(file, l, j - 1, j), "the continued line ends here")
          .help("end the continued line with a space before the backslash");
    }
  }

  void handle_include(FileId file, const LogicalLine& l, ConfigFile& result, int depth) {
    std::string_view s = l.text;
    std::size_t i = 7;
    while (i < s.size() && is_space(s[i])) ++i;
    std::size_t fn_begin = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    std::size_t fn_end = i;
    Span name_span = span_of(file, l, fn_begin, fn_end);
    std::string name(s.substr(fn_begin, fn_end - fn_begin));
    auto fail = [&](std::string message, std::string slurm, std::string help) {
      out_.report(rules::GRS005, name_span, std::move(message))
          .slurm(std::move(slurm))
          .effect(Effect::fatal, daemon_for(options_.table))
          .help(std::move(help));
      result.failed = true;
    };
    const std::string failed_line =
        fmt::format("\"Include\" failed in file {} line {}", sources_.path(file), l.first_line);
    // %c is replaced by ClusterName in lower case; it must have been read already.
    std::string path;
    for (std::size_t k = 0; k < name.size(); ++k) {
      if (name[k] == '%' && k + 1 < name.size() && name[k + 1] == 'c') {
        if (cluster_name_.empty()) {
          fail("Include uses %c but ClusterName is not set before this line",
               "_parse_for_format: Did not get ClusterName for include path",
               "set ClusterName= above the Include line");
          return;
        }
        path += cluster_name_;
        ++k;
      } else {
        path.push_back(name[k]);
      }
    }
    if (profile_.include_glob_is_error() && path.find('*') != std::string::npos) {
      fail(fmt::format("Slurm {} does not expand '*' in Include {}", profile_.version().str(), name),
           failed_line, "list each included file on its own Include line");
      return;
    }
    std::string base = profile_.include_relative_to_including_file() ? dirname_of(sources_.path(file))
                                                                     : options_.slurm_conf_dir;
    std::string full = path.empty() || path[0] == '/' ? path : join_path(base, path);
    if (!only_space(s.substr(fn_end))) parse_error(file, l, fn_end, result);
    if (std::find(stack_.begin(), stack_.end(), full) != stack_.end()) {
      fail(fmt::format("Include {} includes itself (directly or through other files)", name),
           failed_line, "remove the cycle of Include lines");
      return;
    }
    if (depth >= kMaxIncludeDepth) {
      // Slurm recurses until it runs out of file descriptors; greslint stops earlier.
      fail(fmt::format("Include {} is nested more than {} files deep; greslint stops here", name, kMaxIncludeDepth),
           failed_line, "flatten the chain of Include lines");
      return;
    }
    if (sources_.file_count() >= kMaxSourceFiles || source_bytes() > kMaxSourceBytes) {
      fail(fmt::format("Include {} would take greslint past {} files or {} MiB read in one run; it stops "
                       "reading Includes here",
                       name, kMaxSourceFiles, kMaxSourceBytes >> 20),
           failed_line, "include each file once (an Include that fans out is read again each time)");
      return;
    }
    struct stat st {};
    if (::stat(full.c_str(), &st) != 0) {
      const int stat_errno = errno;
      if (stat_errno != ENOENT && stat_errno != ENOTDIR) {
        // A symlink loop, a path too long, a directory we may not search: not "missing".
        fail(fmt::format("included file {} cannot be read: {}", full, std::strerror(stat_errno)),
             failed_line, "point the Include at a readable regular file");
        return;
      }
      if (!path.empty() && path[0] != '/') {
        // The other releases' base directory: what the admin probably meant.
        std::string other = join_path(profile_.include_relative_to_including_file() ? options_.slurm_conf_dir
                                                                                    : dirname_of(sources_.path(file)),
                                      path);
        if (::stat(other.c_str(), &st) == 0) recover(other, result, depth);
      }
      fail(fmt::format("included file {} does not exist", full),
           failed_line,
           profile_.include_relative_to_including_file()
               ? "Slurm 22.05 resolves a relative Include against the folder of the file that holds it"
               : "Slurm 23.02+ resolves a relative Include against the folder of slurm.conf");
      return;
    }
    std::string text, error;
    if (!read_file_bounded(full, text, error)) {
      fail(fmt::format("included file {} cannot be read: {}", full, error),
           fmt::format("s_p_parse_file: unable to read \"{}\": {}", full, error), "make the file readable");
      return;
    }
    if (text.empty()) return;  // Slurm: "file is empty", success
    FileId inc = sources_.add(full, std::move(text));
    parse(inc, result, depth + 1);
  }

  /// Bytes of every file read so far in this run.
  std::size_t source_bytes() const {
    std::size_t total = 0;
    for (std::size_t i = 0; i < sources_.file_count(); ++i) total += sources_.text(FileId{std::uint16_t(i)}).size();
    return total;
  }

  /// Reads `path` for its directives only (no findings) into result.recovered.
  void recover(const std::string& path, ConfigFile& result, int depth) {
    if (depth >= 4 || std::find(stack_.begin(), stack_.end(), path) != stack_.end()) return;
    if (sources_.file_count() >= kMaxSourceFiles || source_bytes() > kMaxSourceBytes) return;
    std::string text, error;
    if (!read_file_bounded(path, text, error) || text.empty()) return;
    Reporter quiet;
    Reader inner(options_, profile_, sources_, quiet);
    inner.cluster_name_ = cluster_name_;
    inner.stack_ = stack_;
    ConfigFile side;
    inner.parse(sources_.add(path, std::move(text)), side, depth + 1);
    for (Directive& d : side.directives) result.recovered.push_back(std::move(d));
    for (Directive& d : side.recovered) result.recovered.push_back(std::move(d));
  }

  const ReadOptions& options_;
  const VersionProfile& profile_;
  SourceManager& sources_;
  Reporter& out_;
  std::string cluster_name_;
  std::vector<std::string> stack_;
  bool stopped_ = false;  // kMaxDirectives reached: nothing more is read, Includes included
  std::unordered_map<const KeySpec*, KeyValue> settings_;
};

}  // namespace

const KeyValue* Directive::find(std::string_view key) const {
  for (auto it = pairs.rbegin(); it != pairs.rend(); ++it)
    if (it != pairs.rend() - 1 && it->spec && iequals(it->spec->name, key)) return &*it;
  return nullptr;
}

bool read_file_bounded(const std::string& path, std::string& text, std::string& error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (and a /proc file that would block
  // on read fails instead). fstat on the open descriptor: what is checked is what is read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    error = std::strerror(errno);
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    error = "Is a directory";
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    error = "not a regular file";
    return false;
  }
  const std::string too_large = fmt::format("larger than greslint's limit of {} MiB", kMaxFileBytes >> 20);
  if (std::uint64_t(st.st_size) > kMaxFileBytes) {
    error = too_large;
    return false;
  }
  // Never more than the limit plus one byte: /proc and /sys files report a size of 0 (and
  // /proc/self/pagemap would go on for 256 GB), and a file can grow while it is read.
  std::string buffer(std::max<std::size_t>(std::size_t(st.st_size) + 1, 4096), '\0');
  std::size_t got = 0;
  for (;;) {
    if (got == buffer.size()) buffer.resize(std::min(buffer.size() * 2, kMaxFileBytes + 1));
    const ssize_t n = ::read(fd, buffer.data() + got, buffer.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      return false;
    }
    if (n == 0) break;
    got += std::size_t(n);
    if (got > kMaxFileBytes) {
      error = too_large;
      return false;
    }
  }
  buffer.resize(got);
  text = std::move(buffer);
  return true;
}

bool convert_value(const KeySpec& spec, std::string_view value, std::string& error) {
  const std::string v(value);
  const char* key = spec.name.data();
  const int key_len = int(spec.name.size());
  auto unlimited = [&] { return iequals(v, "UNLIMITED") || iequals(v, "INFINITE"); };
  char* end = nullptr;
  errno = 0;
  switch (spec.type) {
    case ValueType::uint16: {
      unsigned long n = std::strtoul(v.c_str(), &end, 0);
      if ((n == 0 && errno == EINVAL) || *end != '\0') {
        if (unlimited()) return true;
        error = fmt::format("{:.{}} value \"{}\" is not a valid number", key, key_len, v);
        return false;
      }
      if (errno == ERANGE) error = fmt::format("{:.{}} value ({}) is out of range", key, key_len, v);
      else if (!v.empty() && v[0] == '-') error = fmt::format("{:.{}} value ({}) is less than zero", key, key_len, v);
      else if (n > 0xffff) error = fmt::format("{:.{}} value ({}) is greater than 65535", key, key_len, v);
      else return true;
      return false;
    }
    case ValueType::uint32:
    case ValueType::uint64: {
      unsigned long long n = std::strtoull(v.c_str(), &end, 0);
      if (*end == 'k' || *end == 'K') {
        n *= 1024;
        ++end;
      }
      if ((n == 0 && errno == EINVAL) || *end != '\0') {
        if (unlimited()) return true;
        error = fmt::format("{:.{}} value ({}) is not a valid number", key, key_len, v);
        return false;
      }
      if (errno == ERANGE) error = fmt::format("{:.{}} value ({}) is out of range", key, key_len, v);
      else if (!v.empty() && v[0] == '-') error = fmt::format("{:.{}} value ({}) is less than zero", key, key_len, v);
      else if (spec.type == ValueType::uint32 && n > 0xffffffffULL)
        error = fmt::format("{:.{}} value ({}) is greater than 4294967295", key, key_len, v);
      else return true;
      return false;
    }
    case ValueType::long_: {
      std::strtol(v.c_str(), &end, 0);
      if (*end != '\0' && !unlimited()) {
        error = fmt::format("\"{}\" is not a valid number", v);
        return false;
      }
      if (errno == ERANGE) {
        error = fmt::format("\"{}\" is out of range", v);
        return false;
      }
      return true;
    }
    case ValueType::boolean: {
      for (const char* ok : {"yes", "up", "true", "1", "no", "down", "false", "0"})
        if (iequals(v, ok)) return true;
      error = fmt::format("\"{}\" is not a valid option for \"{:.{}}\"", v, key, key_len);
      return false;
    }
    case ValueType::float_:
    case ValueType::double_:
    case ValueType::long_double: {
      std::strtod(v.c_str(), &end);
      if (*end != '\0' && !unlimited()) {
        error = fmt::format("\"{}\" is not a valid number", v);
        return false;
      }
      return true;
    }
    default:
      return true;
  }
}

ConfigFile parse_config_text(FileId file, const ReadOptions& options, const VersionProfile& profile,
                             SourceManager& sources, Reporter& out) {
  ConfigFile result;
  result.file = file;
  result.path = sources.path(file);
  result.exists = true;
  Reader reader(options, profile, sources, out);
  reader.parse(file, result, 0);
  return result;
}

ConfigFile read_config_file(const std::string& path, const ReadOptions& options,
                            const VersionProfile& profile, SourceManager& sources, Reporter& out) {
  ConfigFile result;
  result.path = path;
  struct stat st {};
  // Callers decide what a missing file means; any other stat() failure (a symlink loop, a
  // directory we may not search) is a file Slurm cannot read.
  if (::stat(path.c_str(), &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) return result;
  result.exists = true;
  std::string text, error;
  if (!read_file_bounded(path, text, error)) {
    result.failed = true;
    out.report(rules::GRS008, Span{}, fmt::format("{} cannot be read: {}", path, error))
        .slurm(fmt::format("s_p_parse_file: unable to read \"{}\": {}", path, error))
        .effect(Effect::fatal, daemon_for(options.table))
        .help("point greslint at the regular text file Slurm reads");
    return result;
  }
  FileId file = sources.add(path, std::move(text));
  ConfigFile parsed = parse_config_text(file, options, profile, sources, out);
  return parsed;
}

}  // namespace greslint
