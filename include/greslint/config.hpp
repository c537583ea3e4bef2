// SPDX-License-Identifier: Apache-2.0
// Syntax tree of Slurm's Key=Value files, read with Slurm's own lexical rules.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "greslint/keys.hpp"
#include "greslint/report.hpp"
#include "greslint/source.hpp"
#include "greslint/version.hpp"

namespace greslint {

/// One Key=Value pair. Strings are "cooked" (escapes removed, quotes dropped); spans point
/// at the physical text. The strings are views owned by the SourceManager that read the file:
/// into the file's text itself, or, for the rare line with escapes or continuations, into
/// the cooked copy it keeps (SourceManager::keep). A per-node file holds millions of pairs,
/// and two owned strings each were most of its memory and a third of its reading time.
struct KeyValue {
  std::string_view key;    ///< as written
  std::string_view value;  ///< cooked value
  const KeySpec* spec = nullptr;  ///< the table entry it matched (never null in a parsed tree)
  Span key_span;
  Span value_span;
  char op = 0;  ///< '+', '-', '*', '/' for "Key+=..." forms, else 0
  bool quoted = false;
};

/// One logical line that parsed: a top-level setting, or a record (NodeName=..., Name=...).
struct Directive {
  enum class Kind : std::uint8_t { setting, record };
  Kind kind = Kind::setting;
  /// setting: exactly one pair. record: the record key first, then its sub-keys in order.
  std::vector<KeyValue> pairs;
  Span span;               ///< the whole logical line (first physical line to last)
  std::uint32_t line = 0;  ///< first physical line, 1-based
  bool complete = true;    ///< false when Slurm rejected part of the line

  const KeyValue& head() const { return pairs.front(); }
  /// Last occurrence of `key` among the record's sub-keys (Slurm: last value wins).
  const KeyValue* find(std::string_view key) const;
};

/// A comment that greslint reads itself (suppressions), with its span.
struct Comment {
  Span span;
  std::string_view text;  ///< after '#', not cooked
  std::uint32_t line = 0;
};

/// A parsed file (with its Includes spliced in, in order).
struct ConfigFile {
  FileId file;
  std::string path;
  bool exists = false;
  bool failed = false;  ///< Slurm's s_p_parse_file would return an error
  /// greslint stopped reading at its limit of settings and records (a GRS008 finding says
  /// where); what Slurm makes of the file is then not modelled.
  bool truncated = false;
  std::vector<Directive> directives;
  std::vector<Comment> comments;
  std::vector<FileId> files;  ///< this file and every file it included
  /// Lines of files Slurm would not read (an Include that failed here but names a file
  /// that exists elsewhere, an indented Include). Never linted; they only let greslint name
  /// the nodes a fatal configuration leaves without a daemon.
  std::vector<Directive> recovered;
};

struct ReadOptions {
  KeyTable table = KeyTable::slurm_conf;
  /// Directory of slurm.conf: base of relative Includes from 23.02 on.
  std::string slurm_conf_dir;
  /// Value of ClusterName known so far (for %c in Include), lower-cased by the reader.
  std::string cluster_name;
  /// --prefix-map OLD=NEW: an Include naming OLD/... (after the base directory is applied)
  /// is read from NEW/...; the longest matching OLD wins. A checkout of /etc/slurm elsewhere.
  std::vector<std::pair<std::string, std::string>> prefix_map;
};

/// `path` with the longest matching prefix of `map` replaced (whole path components only);
/// `path` itself when none matches.
std::string map_prefix(const std::string& path, const std::vector<std::pair<std::string, std::string>>& map);

/// Reads and parses `path` as Slurm would. Problems become GRS0xx diagnostics.
ConfigFile read_config_file(const std::string& path, const ReadOptions& options,
                            const VersionProfile& profile, SourceManager& sources,
                            Reporter& out);

/// Parses text already in the SourceManager (tests, fuzzing). Includes are resolved
/// relative to options.slurm_conf_dir.
ConfigFile parse_config_text(FileId file, const ReadOptions& options, const VersionProfile& profile,
                             SourceManager& sources, Reporter& out);

/// Slurm's numeric and boolean conversions (parse_value.c); on failure `error`
/// receives Slurm's exact message.
bool convert_value(const KeySpec& spec, std::string_view value, std::string& error);

/// Reads a file with greslint's safety limits; false with a message on failure.
bool read_file_bounded(const std::string& path, std::string& text, std::string& error);

}  // namespace greslint
