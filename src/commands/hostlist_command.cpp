// SPDX-License-Identifier: Apache-2.0
// `greslint hostlist`: expand, fold or count Slurm hostlist expressions from the command line.
#include <algorithm>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "commands/command.hpp"
#include "greslint/commands.hpp"
#include "greslint/hostlist.hpp"

namespace greslint {

namespace {

/// Echoes the expression and underlines the span, so the bad part is visible even when
/// the expression holds tabs or newlines.
void show_at(std::ostream& err, const std::string& expr, const HostlistError& e, bool rejected) {
  std::string echo = expr;
  for (char& c : echo)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  const std::size_t begin = std::min<std::size_t>(e.span.begin, expr.size());
  const std::size_t end = std::clamp<std::size_t>(e.span.end, begin, expr.size());
  std::string marker(begin, ' ');
  marker += '^';
  if (end > begin + 1) marker.append(end - begin - 1, '~');
  err << "  " << echo << '\n' << "  " << marker << ' ' << e.message;
  if (rejected && !e.slurm_logs) err << " (Slurm logs nothing)";
  err << '\n';
}

}  // namespace

int run_hostlist_command(char mode, const VersionProfile& profile, const std::vector<std::string>& exprs,
                         std::ostream& out, std::ostream& err) {
  if (mode != 'e' && mode != 'f' && mode != 'c') {
    err << "greslint: hostlist: mode must be -e, -f or -c\n";
    return 2;
  }
  const std::string version = profile.version().str();
  std::vector<HostRange> ranges;
  bool invalid = false;
  for (const std::string& expr : exprs) {
    const Span where{FileId{}, 0, static_cast<std::uint32_t>(expr.size())};
    HostlistResult r = parse_hostlist(expr, where, profile);
    if (!r.ok()) {
      invalid = true;
      err << fmt::format("greslint: error: invalid hostlist for Slurm {}: {}\n", version, expr);
      for (const HostlistError& e : r.errors) show_at(err, expr, e, true);
      continue;
    }
    for (const HostlistError& e : r.errors) {
      err << fmt::format("greslint: warning: Slurm {} logs an error for {} and then ignores that part\n", version,
                         expr);
      show_at(err, expr, e, false);
    }
    for (const HostlistError& w : r.warnings) {
      err << fmt::format("greslint: warning: {}\n", expr);
      show_at(err, expr, w, false);
    }
    const auto& got = r.list->ranges();
    ranges.insert(ranges.end(), got.begin(), got.end());
  }
  if (invalid) return 2;

  const Hostlist list(std::move(ranges));
  switch (mode) {
    case 'c': out << list.size() << '\n'; break;
    case 'f': out << fold_hostlist(list, FoldOrder::as_written) << '\n'; break;
    default: {
      // Streamed in blocks: a legal list can hold millions of names. Performance: the names
      // are written straight into the block (HostRange::append_hosts), with no std::string
      // per host to build and copy.
      constexpr std::size_t kBlock = (1 << 16) - 256;
      std::string buffer;
      buffer.reserve(1 << 16);
      for (const HostRange& r : list.ranges())
        for (std::uint64_t i = 0; i < r.count();) {
          i = r.append_hosts(i, buffer, '\n', kBlock);
          if (buffer.size() >= kBlock) {
            out.write(buffer.data(), std::streamsize(buffer.size()));
            buffer.clear();
          }
        }
      out.write(buffer.data(), std::streamsize(buffer.size()));
      break;
    }
  }
  out.flush();
  return out ? 0 : 1;
}

namespace cli {
namespace {

/// CLI11 2.1 reads an argument shaped "[a,b]" as a list and splits it at commas; hostlist
/// expressions such as "[1-3]" have that shape, so they pass the parser behind a guard byte.
constexpr char kGuard = '\x1f';

class HostlistCommand final : public Command {
 public:
  void add_to(CLI::App& app) override {
    app_ = app.add_subcommand("hostlist", "expand, fold or count hostlists with Slurm's grammar");
    auto* e = app_->add_flag("-e,--expand", expand_, "one host per line (default)");
    auto* f = app_->add_flag("-f,--fold", fold_, "fold into ranged form");
    auto* c = app_->add_flag("-c,--count", count_, "print the number of hosts");
    e->excludes(f)->excludes(c);
    f->excludes(c);
    app_->add_option("--slurm-version", version_, "Slurm release grammar to use");
    app_->add_option("EXPR", exprs_, "hostlist expressions")->required();
  }

  void prepare(std::vector<std::string>& args) const override {
    for (std::string& a : args)
      if (a.size() >= 2 && a.front() == '[' && a.back() == ']') a.insert(0, 1, kGuard);
  }

  int run(std::ostream& out, std::ostream& err) override {
    for (std::string& x : exprs_)
      if (x.size() >= 3 && x[0] == kGuard && x[1] == '[' && x.back() == ']') x.erase(0, 1);
    auto v = version_.empty() ? std::optional<SlurmVersion>(known_versions().back()) : parse_slurm_version(version_);
    if (!v) {
      err << "greslint: unknown Slurm version '" << version_ << "'\n";
      return 2;
    }
    const char mode = fold_ ? 'f' : count_ ? 'c' : 'e';
    return run_hostlist_command(mode, VersionProfile(*v), exprs_, out, err);
  }

 private:
  bool expand_ = false, fold_ = false, count_ = false;
  std::string version_;
  std::vector<std::string> exprs_;
};

}  // namespace

std::unique_ptr<Command> make_hostlist_command() { return std::make_unique<HostlistCommand>(); }

}  // namespace cli
}  // namespace greslint
