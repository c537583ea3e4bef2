// SPDX-License-Identifier: Apache-2.0
#include "model/read_ahead.hpp"

#include <system_error>
#include <utility>

namespace greslint::model {

ReadAhead::ReadAhead(Read read, Then then, CoreBudget* cores)
    : read_(std::move(read)), then_(std::move(then)), cores_(cores) {
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error&) {
    // No thread to be had (a process limit): the same read, on this thread. It is placed
    // (and renumbered) in finish(), since place() cannot wait for it here.
    try {
      file_ = read_(sources_, out_);
    } catch (...) {
      error_ = std::current_exception();
    }
  }
}

ReadAhead::~ReadAhead() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!place_) unwanted_ = true;
  }
  placed_cv_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void ReadAhead::place(const SourceManager& before, bool cluster_name_set) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    place_ = Place{before.file_count(), before.text_bytes(), cluster_name_set};
  }
  placed_cv_.notify_one();
}

void ReadAhead::run() noexcept {
  const CoreBudget::Held core(cores_);
  try {
    file_ = read_(sources_, out_);
  } catch (...) {
    error_ = std::current_exception();
  }
  Place at;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!place_ && !unwanted_) {
      // A small file is read long before the files ahead of it: the reader of those may
      // take this core meanwhile.
      const CoreBudget::Lent waiting(cores_);
      placed_cv_.wait(lock, [this] { return place_ || unwanted_; });
    }
    if (!place_) return;
    at = *place_;
  }
  // Renumbering walks every directive the read made: done here, beside the model's thread.
  settle(at);
}

void ReadAhead::settle(const Place& at) {
  // A read in turn starts with ClusterName known; this one started without it. Only an
  // Include naming %c reads it.
  const bool same_cluster_name = !file_.include_used_cluster_name || !at.cluster_name_set;
  // A read in turn counts the files ahead against the limits; every count this read made
  // was lower by them, and all stay within the limits only if the sums do.
  const bool same_limits = within_read_limits(at.files + sources_.file_count(), at.bytes + sources_.text_bytes());
  in_turn_ = same_cluster_name && same_limits;
  if (!in_turn_) return;
  const std::uint16_t by = sources_.rebase(at.files, at.bytes);
  if (by != 0) out_.shift_files(by);
  if (error_ || !then_) {
    if (by != 0) file_.shift_files(by, cores_);
    return;
  }
  // Renumbering walks every directive the read made: then_ does it in its own pass over them.
  // Performance: a pass of its own over a gres.conf written one line per GPU (800,000
  // directives, 70 MB) took 1.3 ms on two cores, before the records' pass over the same.
  file_.shift_files_but_directives(by);
  try {
    then_(file_, by, sources_, out_);
  } catch (...) {
    error_ = std::current_exception();
  }
}

std::optional<ConfigFile> ReadAhead::finish(SourceManager& sources, Reporter& out) {
  bool placed = false;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    placed = place_.has_value();
    if (!placed) unwanted_ = true;
  }
  placed_cv_.notify_one();
  if (thread_.joinable()) {
    const CoreBudget::Lent waiting(cores_);
    thread_.join();
  } else if (placed)
    settle(*place_);  // read in the constructor, on this thread
  if (!placed || !in_turn_ || !sources.adopt(std::move(sources_))) return std::nullopt;
  out.absorb(std::move(out_));
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return std::move(file_);
}

}  // namespace greslint::model
