// SPDX-License-Identifier: Apache-2.0
// A configuration file read on a second thread while the model goes on with what it has.
#pragma once

#include <exception>
#include <functional>
#include <optional>
#include <thread>

#include "greslint/config.hpp"
#include "greslint/report.hpp"
#include "greslint/source.hpp"

namespace greslint::model {

/// Reads one file (with its Includes) on its own thread, into a SourceManager and a
/// Reporter of its own, and hands both over when the model reaches the step that reads the
/// file. Performance: a gres.conf written node by node is a quarter to a half of a run, and
/// slurmctld's steps before gres_init (the node table, the partitions) never look at it; on
/// two cores the two overlap.
///
/// The result is the same as reading the file at that step: its files get the ids a read
/// there would give them (finish() checks that no file was added in between), and its
/// findings are added after those already reported, under the same per-rule limits.
class ReadAhead {
 public:
  /// Reads with `sources` and `out`; must touch nothing the caller's thread changes.
  using Read = std::function<ConfigFile(SourceManager& sources, Reporter& out)>;

  /// Starts `read`; its files are numbered after those `sources` holds now. Where no thread
  /// can be started, reads here and now.
  ReadAhead(const SourceManager& sources, Read read);
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;
  /// Waits for the read (an exception on the caller's side unwinds through here).
  ~ReadAhead();

  /// Waits for the read. When `sources` gained no file since the start, hands the files to
  /// `sources` and the findings to `out`, then returns the file, or rethrows what the read
  /// threw. Otherwise returns nothing and hands nothing over: the caller reads again.
  std::optional<ConfigFile> finish(SourceManager& sources, Reporter& out);

 private:
  void run() noexcept;

  Read read_;
  SourceManager sources_;
  Reporter out_;
  ConfigFile file_;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace greslint::model
