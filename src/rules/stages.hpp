// SPDX-License-Identifier: Apache-2.0
// The steps of Slurm's processing the model replays, each with its ordered list of checks
// (defined in registry.cpp). The model runs a step's checks in list order; the order is
// Slurm's, so it is part of the behaviour (which message Slurm logs first, which drain
// reason scontrol shows).
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/check.hpp"
#include "rules/job_view.hpp"
#include "rules/node_registration_rules.hpp"
#include "rules/views.hpp"

namespace greslint::rules {

/// An ordered list of checks over one kind of view.
template <class View>
class Stage {
 public:
  template <std::size_t N>
  constexpr Stage(std::string_view name, const Check<View> (&checks)[N]) : name_(name), first_(checks), size_(N) {}
  constexpr std::string_view name() const { return name_; }
  constexpr const Check<View>* begin() const { return first_; }
  constexpr const Check<View>* end() const { return first_ + size_; }
  constexpr std::size_t size() const { return size_; }

 private:
  std::string_view name_;
  const Check<View>* first_;
  std::size_t size_;
};

// Start-up: slurm.conf as slurmctld (and slurmd) read it.
extern const Stage<SlurmConfView> kSlurmConfValuesStage;
extern const Stage<SelectPluginView> kSelectPluginStage;
extern const Stage<GresTypesView> kGresTypesStage;
extern const Stage<SlurmConfView> kSlurmConfRecordsStage;
extern const Stage<SlurmConfView> kAccountingTresStage;
extern const Stage<SlurmConfView> kLicenseInitStage;
extern const Stage<SlurmConfView> kPriorityInitStage;
extern const Stage<CgroupConfView> kCgroupConfStage;
extern const Stage<SlurmConfView> kReadSlurmConfStage;
extern const Stage<NodeNameLineView> kNodeNameLineStage;
extern const Stage<NodeAddressView> kNodeAddressStage;
extern const Stage<NodeAddressView> kNodeAddressCountStage;
extern const Stage<NodeNameLineView> kNodeNamesStage;
extern const Stage<NodeTableView> kNodeTableStage;
extern const Stage<PartitionView> kPartitionStage;
extern const Stage<NodeTableView> kSelectNodeInitStage;

// gres.conf as the model reads it, once for every node, before any node class.
/// Each NodeName= record line, its hostlist parsed.
extern const Stage<GresConfLineView> kGresConfNodeNameStage;
/// The lines that name nodes slurm.conf lacks, one group of lines that say the same at a time.
extern const Stage<UnknownNodesView> kGresConfUnknownNodesStage;

// A node class's slurm.conf Gres=.
extern const Stage<NodeGresView> kNodeGresStage;

// slurmd reads gres.conf for a node class (slurmctld too, for CLOUD nodes).
extern const Stage<GresLoadView> kGresConfAutoDetectStage;
/// Each record line up to File=; then, File= expanded, kGresRecordAfterFilesStage.
extern const Stage<GresRecordView> kGresRecordStage;
extern const Stage<GresRecordView> kGresRecordAfterFilesStage;
extern const Stage<GresLoadView> kGresNodeRecordsStage;
extern const Stage<GresNameView> kGresNameStage;
extern const Stage<GresPluginView> kGresPluginLoadStage;

// Registration: slurmctld validates what slurmd reports, per node class and GRES name.
extern const Stage<RegistrationView> kRegistrationCountStage;
/// Only for names whose records slurmctld tracks per device.
extern const Stage<RegistrationView> kRegistrationTopologyStage;
/// Then the node as a whole: what its configured state makes of the registration.
extern const Stage<NodeRegistrationView> kRegistrationNodeStage;

// The cluster as a whole, once every node class is replayed (GRS4xx). The checks' outcomes
// change no node's verdict: Slurm runs, and only the GPU pool misbehaves.
/// Scheduling, accounting and isolation settings of the GPU nodes.
extern const Stage<PolicyView> kClusterPolicyStage;
/// Each PartitionName line, as the model's walk of the partitions reaches it.
extern const Stage<GpuPartitionView> kGpuPartitionStage;
/// Then the nodes: which GPU nodes the partitions offer, what their AutoDetect needs.
extern const Stage<PolicyView> kClusterPolicyNodesStage;

/// A job's checks (greslint job), in the order slurmctld refuses a job: the first that
/// rejects it (or leaves it pending) ends the list, as job_mgr.c:_job_create returns at its
/// first error.
class JobStage {
 public:
  template <std::size_t N>
  constexpr JobStage(std::string_view name, const JobCheck<JobView> (&checks)[N])
      : name_(name), first_(checks), size_(N) {}
  constexpr std::string_view name() const { return name_; }
  constexpr const JobCheck<JobView>* begin() const { return first_; }
  constexpr const JobCheck<JobView>* end() const { return first_ + size_; }

 private:
  std::string_view name_;
  const JobCheck<JobView>* first_;
  std::size_t size_;
};
/// Submission: sbatch's own checks, then slurmctld's, until one refuses the job.
extern const JobStage kJobSubmissionStage;
/// What the script does once it runs; always all of them.
extern const JobStage kJobScriptStage;

/// Where a rule is checked: a step of Slurm's processing (and its stage list), or the reader,
/// the suppression pass or node-check. For the registry's own tests.
struct Placement {
  std::string_view step;   ///< "slurm.conf start-up", "reader", ...
  std::string_view stage;  ///< the stage list's name; empty outside stage lists
  const RuleInfo* rule;
  std::string_view follows;
};
std::vector<Placement> placements();
/// kRules: each row's id as written in registry.cpp, and its rule.
std::vector<std::pair<std::string_view, const RuleInfo*>> registry_rows();

}  // namespace greslint::rules
