// SPDX-License-Identifier: Apache-2.0
// What a job check sees (greslint job, GRS6xx): one job script's request against the
// cluster slurmctld schedules, and what each requested partition can give it. A job check
// reports findings and returns what slurmctld does with the job; the first check that
// rejects the job (or leaves it pending for ever) decides, as the first error of
// job_mgr.c:_job_create does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/report.hpp"
#include "greslint/version.hpp"
#include "job/job_model.hpp"

namespace greslint::rules {

/// A requested partition and the nodes of it that can run the job.
struct PartitionFit {
  const job::JobPartition* partition = nullptr;
  std::vector<std::uint32_t> nodes;  ///< indexes into JobCluster::nodes
  std::uint64_t gpus = 0;            ///< the GPUs of those nodes (of the type asked for)
  bool enough = false;               ///< enough nodes (and GPUs) for the job
};

struct JobView {
  SlurmVersion version;
  const job::JobScript& script;
  const job::JobRequest& job;
  const job::JobCluster& cluster;
  /// The partitions the job asked for (or the default one) that exist, in its order.
  std::vector<PartitionFit> fits;
  /// The job's whole-job GPU count (--gpus), 0 when it asks per node or task.
  std::uint64_t gpus_per_job = 0;
};

/// What slurmctld does with the job.
class JobOutcome {
 public:
  enum class Kind : std::uint8_t { accepted, rejected, pends };
  static JobOutcome accepted() { return JobOutcome(Kind::accepted, {}); }
  /// sbatch prints "Batch job submission failed: <message>".
  static JobOutcome rejected(std::string message) { return JobOutcome(Kind::rejected, std::move(message)); }
  /// Accepted, but it never starts: squeue shows `reason` for ever.
  static JobOutcome pends(std::string reason) { return JobOutcome(Kind::pends, std::move(reason)); }
  Kind kind() const { return kind_; }
  const std::string& text() const { return text_; }

 private:
  JobOutcome(Kind k, std::string text) : kind_(k), text_(std::move(text)) {}
  Kind kind_;
  std::string text_;
};

template <class View>
struct JobCheck {
  const RuleInfo* rule;
  JobOutcome (*run)(const View&, Reporter&);
  std::string_view follows;
};

/// Slurm's messages, as sbatch prints them after "Batch job submission failed: ".
inline constexpr std::string_view kNodeConfigUnavailable = "Requested node configuration is not available";
inline constexpr std::string_view kInvalidGres = "Invalid generic resource (gres) specification";

/// Where a finding about the job's request points: the option, else the script's first byte.
Span job_span(const JobView& v, const job::JobOption* o);

}  // namespace greslint::rules
