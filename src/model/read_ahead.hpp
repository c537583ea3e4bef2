// SPDX-License-Identifier: Apache-2.0
// A configuration file read on a second thread while the model goes on with what it has.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "greslint/config.hpp"
#include "greslint/report.hpp"
#include "greslint/source.hpp"

namespace greslint::model {

/// Reads one file (with its Includes) on its own thread, into a SourceManager and a
/// Reporter of its own, from the start of a run, and hands both over when the model reaches
/// the step that reads the file. Performance: a gres.conf written node by node is a quarter
/// to a half of a run, and slurmctld reads slurm.conf, builds the node table and the
/// partitions without looking at it; on two cores the two overlap.
///
/// The read starts before the files read ahead of it in turn (slurm.conf, its Includes,
/// cgroup.conf) are known. place() tells it where it sits once they are. The thread then
/// renumbers its files to follow them. finish() hands over the same files, ids and
/// findings as a read in turn, or nothing when the read could differ from one made in turn:
///   - an Include used %c, and the ClusterName that slurm.conf set was not known;
///   - the run's files or bytes, counted with those read before, pass greslint's limits
///     on reading (within_read_limits), which a read in turn would have stopped at;
///   - a file was added between place() and finish().
/// The caller then reads the file again, in turn.
class ReadAhead {
 public:
  /// Reads with `sources` and `out`; must touch nothing the caller's thread changes.
  using Read = std::function<ConfigFile(SourceManager& sources, Reporter& out)>;
  /// What comes next with the file, on the same thread, once its ids are final but for its
  /// directives': run only for a read that is one in turn and threw nothing. It moves every
  /// directive `directives_by` file ids on (Directive::shift_file) before it reads its spans,
  /// in a pass over them it makes anyway. Its findings go to `out` after the read's. Writes
  /// only where the caller's thread looks after finish().
  using Then = std::function<void(ConfigFile& file, std::uint16_t directives_by, const SourceManager& sources,
                                  Reporter& out)>;

  /// Starts `read`, then `then`, on a thread that holds one of `cores` while it works (and
  /// lends it while it waits for place()); the thread that calls finish() lends its own while
  /// it waits there. Where no thread can be started, reads here and now.
  explicit ReadAhead(Read read, Then then = {}, CoreBudget* cores = nullptr);
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;
  /// Tells the read it is not wanted (if place() was not called) and waits for it.
  ~ReadAhead();

  /// The files ahead of this one, in the order a run reads them, are those `before` holds,
  /// and `cluster_name_set` says whether they set ClusterName. Call once, when they are read.
  void place(const SourceManager& before, bool cluster_name_set);

  /// Waits for the read. When it is what a read in turn would be, hands the files to
  /// `sources` and the findings to `out`, then returns the file, or rethrows what the read
  /// threw. Otherwise (or when place() was not called) returns nothing and hands nothing
  /// over: the caller reads again.
  std::optional<ConfigFile> finish(SourceManager& sources, Reporter& out);

 private:
  struct Place {
    std::size_t files = 0;
    std::size_t bytes = 0;
    bool cluster_name_set = false;
  };

  void run() noexcept;
  /// On the read's thread, once it is placed: whether the read is one in turn, and if so its
  /// files renumbered to follow those ahead of it, and then_ run.
  void settle(const Place& at);

  Read read_;
  Then then_;
  CoreBudget* cores_;
  SourceManager sources_;
  Reporter out_;
  ConfigFile file_;
  std::exception_ptr error_;

  std::mutex mutex_;
  std::condition_variable placed_cv_;
  std::optional<Place> place_;  ///< under mutex_
  bool unwanted_ = false;       ///< under mutex_
  /// Written by the read's thread before it ends; read after the join.
  bool in_turn_ = false;

  std::thread thread_;  ///< last: starts once everything above is built
};

}  // namespace greslint::model
