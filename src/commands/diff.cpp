// SPDX-License-Identifier: Apache-2.0
// `greslint diff OLD NEW` and `greslint diff --git REV [PATH]`.
#include <sys/stat.h>

#include <fmt/format.h>

#include <fstream>

#include "diff/change_report.hpp"
#include "diff/git_tree.hpp"
#include "emit/emit_detail.hpp"
#include "greslint/review.hpp"
#include "util.hpp"

namespace greslint {
namespace {

/// The directory a path names for display: itself, or the folder of a file.
std::string shown_dir(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) return dirname_of(path);
  return path;
}

std::unique_ptr<Analysis> analyse(LintOptions o, const std::string& path, std::ostream& err) {
  o.paths = {path};
  return analyze_configuration(o, err);
}

bool load(diff::Snapshot& s, const LintOptions& o, const std::string& path, std::ostream& err) {
  s.analysis = analyse(o, path, err);
  return s.analysis != nullptr;
}

}  // namespace

namespace diff {

void write_report(const ChangeReport& r, OutputFormat format, std::string_view command, FailLevel level,
                  std::ostream& out) {
  switch (format) {
    case OutputFormat::text: render_text(r, out); return;
    case OutputFormat::markdown: render_markdown(r, out, 2); return;
    case OutputFormat::json: {
      emit_detail::JsonWriter w(out);
      w.begin_object();
      w.key("schema").number(1);
      w.key("tool").begin_object().key("name").string("greslint").key("version").string(GRESLINT_VERSION).end_object();
      w.key("command").string(command);
      render_json_members(r, w);
      w.key("fails").boolean(exit_code(r, level) != 0);
      w.end_object();
      out << "\n";
      return;
    }
  }
}

}  // namespace diff

int run_diff(const DiffOptions& options, std::ostream& out, std::ostream& err) {
  const auto format = diff::parse_output_format(options.format);
  if (!format) {
    err << fmt::format("greslint: diff: unknown format '{}' (text, json or markdown)\n", options.format);
    return 2;
  }
  const bool git = !options.git_rev.empty();
  if (git ? options.paths.size() > 1 : options.paths.size() != 2) {
    err << (git ? "greslint: diff --git REV takes at most one PATH\n" : "greslint: diff takes OLD and NEW\n");
    return 2;
  }
  const std::string new_path = git ? (options.paths.empty() ? std::string() : options.paths.front()) : options.paths[1];
  LintOptions o = options.lint;
  o.paths = {new_path.empty() ? "." : new_path};
  if (!load_config_file(o, err)) return 2;

  diff::Snapshot before, after;
  std::unique_ptr<diff::RevisionTree> tree;
  if (git) {
    auto conf = locate_slurm_conf(new_path, err);
    if (!conf) return 2;
    tree = diff::RevisionTree::check_out(options.git_rev, *conf, err);
    if (!tree) return 2;
    before.label = options.git_rev;
    after.label = "work tree";
    before.display_dir = after.display_dir = tree->repo_dir();
    // A revision from before the configuration existed compares as an empty cluster.
    if (tree->exists() && !load(before, o, tree->slurm_conf(), err)) return 2;
    if (!load(after, o, *conf, err)) return 2;
  } else {
    before.label = options.paths[0];
    after.label = options.paths[1];
    before.display_dir = shown_dir(options.paths[0]);
    after.display_dir = shown_dir(options.paths[1]);
    if (!load(before, o, options.paths[0], err) || !load(after, o, options.paths[1], err)) return 2;
  }
  const diff::ChangeReport report = diff::compare(before, after);
  if (!o.output.empty()) {
    std::ofstream file(o.output);
    if (!file) {
      err << fmt::format("greslint: cannot write {}\n", o.output);
      return 2;
    }
    diff::write_report(report, *format, "diff", o.fail_level, file);
  } else {
    diff::write_report(report, *format, "diff", o.fail_level, out);
  }
  const bool unreadable = (before.analysis && before.analysis->input_unreadable) || after.analysis->input_unreadable;
  return unreadable ? 2 : diff::exit_code(report, o.fail_level);
}

}  // namespace greslint
