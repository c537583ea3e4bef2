// SPDX-License-Identifier: Apache-2.0
// What the reader reports about a line itself: parse errors, unknown keys, repeated keys,
// values Slurm cannot convert, and the two traps of its line syntax (GRS006, GRS007).
#include <fmt/format.h>

#include "config/reader.hpp"
#include "rules/rules.hpp"

namespace greslint::config_detail {

std::string Reader::help_for_value(const KeySpec& spec) {
  switch (spec.type) {
    case ValueType::uint16: return "use a whole number from 0 to 65535";
    case ValueType::uint32: return "use a whole number (a trailing k multiplies by 1024), or UNLIMITED";
    case ValueType::uint64: return "use a whole number (a trailing k multiplies by 1024), or UNLIMITED";
    case ValueType::boolean: return "use yes/no, true/false, up/down or 1/0";
    default: return "use a value of the documented form";
  }
}

std::string_view Reader::table_label(KeyTable t) {
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

void Reader::duplicate(const KeyValue& first, const KeyValue& again) {
  if (out_.skip(rules::GRS004)) return;  // past the limit: counted, not formatted
  const char* n = again.spec->type == ValueType::pointer ? "2" : "1";
  out_.report(rules::GRS004, again.key_span,
              fmt::format("{} is given more than once; Slurm uses the last value ({})", again.spec->name, again.value))
      .slurm(fmt::format("{} {} specified more than once, latest value used", again.spec->name, n))
      .related(first.key_span, fmt::format("first given here as {}={}", first.key, first.value))
      .help("keep a single occurrence");
}

void Reader::unknown_key(FileId file, const LogicalLine& l, const KvMatch& m, KeyTable table, bool in_record,
                         ConfigFile& result) {
  std::string key(l.text.substr(m.key_begin, m.key_end - m.key_begin));
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

void Reader::parse_error(FileId file, const LogicalLine& l, std::size_t from, ConfigFile& result) {
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
      std::string base =
          profile_.include_relative_to_including_file() ? dirname_of(sources_.path(file)) : options_.slurm_conf_dir;
      recover(name[0] == '/' ? name : join_path(base, name), result, 0);
    }
  } else if (from == 0 && std::string_view(l.text).substr(b, e - b).find('=') == std::string_view::npos)
    help = "every line must be Key=Value";
  else if (from == 0)
    help = "write the value right after '=', or use Key=\"\" for an empty value";
  else if (options_.table == KeyTable::slurm_conf || options_.table == KeyTable::gres_conf ||
           options_.table == KeyTable::cgroup_conf)
    help =
        "only record lines (NodeName=, PartitionName=, Name=, ...) take several Key=Value pairs; "
        "put each setting on its own line";
  if (out_.skip(rules::GRS001)) {  // past the limit: counted, not formatted
    result.failed = true;
    return;
  }
  out_.report(rules::GRS001, span_of(file, l, b, e), fmt::format("Slurm cannot parse \"{}\" on this line", shown))
      // The file being read is the top of the stack: a reader on another thread (LaterLines)
      // must not look into the SourceManager, which the first one may be adding files to.
      .slurm(fmt::format("Parse error in file {} line {}: \"{}\"", stack_.back(), line_number(l), leftover))
      .effect(Effect::fatal, daemon_for(options_.table))
      .help(help);
  result.failed = true;
}

bool Reader::check_empty_value(FileId file, const LogicalLine& l, const KvMatch& m) {
  if (!m.gap_before_value || m.quoted) return false;
  std::string_view value = std::string_view(l.text).substr(m.value_begin, m.value_end - m.value_begin);
  auto inner = match_key_value(value, 0);
  if (!inner || inner->end != value.size()) return false;
  std::string key(l.text.substr(m.key_begin, m.key_end - m.key_begin));
  out_.report(rules::GRS006, span_of(file, l, m.value_begin, m.value_end),
              fmt::format("{}= is followed by a space, so Slurm sets {} to \"{}\"", key, key, value))
      .help(fmt::format("write {}=\"\" for an empty value, or remove the space after '='", key));
  return true;
}

void Reader::check_joins(FileId file, const LogicalLine& l, const KvMatch& m) {
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

}  // namespace greslint::config_detail
