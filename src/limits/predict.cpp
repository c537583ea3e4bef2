// SPDX-License-Identifier: Apache-2.0
// The limits a job meets, in slurmctld's order (docs/limits.md, "Jobs"):
//   job_mgr.c:_job_create    the association (user, account, partition), then the QOS;
//   acct_policy.c:_acct_policy_validate   with a DenyOnLimit QOS (or no QOS at all) a job
//                            beyond a limit is refused at submission;
//   acct_policy.c:acct_policy_job_runnable_post_select   otherwise it pends with the
//                            Reason of the first limit it is beyond: each QOS in
//                            acct_policy_set_qos_order, then the association and its parents.
// A limit counts only for a TRES slurmctld tracks (AccountingStorageTRES) and only when
// AccountingStorageEnforce enforces limits. A QOS limit on a TRES hides the same limit of the
// second QOS and of the associations (the qos_rec "out" arrays of acct_policy.c).
#include "limits/predict.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <utility>

#include "limits/limits.hpp"
#include "limits/pool.hpp"
#include "util.hpp"

namespace greslint::limits {
namespace {

using rules::JobView;
constexpr std::uint64_t kInfiniteMinutes = 0xffffffffu;  // Slurm's INFINITE time limit

std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  if (a == 0 || b == 0) return 0;
  if (a > UINT64_MAX / b) return UINT64_MAX;
  return a * b;
}

/// The job's tracked GPU TRES as slurmctld counts them (gres_ctld_set_job_tres_cnt): the
/// whole job's gres/gpu, and gres/gpu:TYPE for a typed request.
struct Request {
  std::vector<std::pair<std::string, std::uint64_t>> tres;
  std::uint64_t nodes = 1;
  std::uint64_t minutes = kInfiniteMinutes;

  std::uint64_t count(std::string_view name) const {
    for (const auto& [n, c] : tres)
      if (iequals(n, name)) return c;
    return 0;
  }
  void add(const std::string& name, std::uint64_t c) {
    for (auto& [n, have] : tres)
      if (iequals(n, name)) {
        have += c;
        return;
      }
    tres.emplace_back(name, c);
  }
};

Request request_of(const JobView& v, const Pool& pool, const PoolPartition* part) {
  Request r;
  r.nodes = std::max<std::uint64_t>(1, v.job.min_nodes);
  for (const job::GresAsk& a : v.job.asks) {
    if (a.name != "gpu") continue;
    std::uint64_t c = a.count;
    switch (a.per) {
      case job::GresAsk::Per::node: c = sat_mul(a.count, r.nodes); break;
      case job::GresAsk::Per::job: break;
      case job::GresAsk::Per::task: c = sat_mul(a.count, v.job.ntasks ? *v.job.ntasks : r.nodes); break;
      case job::GresAsk::Per::socket: c = sat_mul(a.count, r.nodes); break;
    }
    r.add("gres/gpu", c);
    if (!a.type.empty()) r.add("gres/gpu:" + a.type, c);
  }
  // A TRES slurmctld does not track has no count at all.
  r.tres.erase(std::remove_if(r.tres.begin(), r.tres.end(), [&](const auto& t) { return !pool.tracks(t.first); }),
               r.tres.end());
  // _set_time_limit: the job's --time, else the partition's DefaultTime, else its MaxTime.
  std::optional<std::uint64_t> t;
  if (const job::JobOption* o = v.script.last("time")) t = time_minutes(o->value);
  if (!t && part) t = part->default_time ? part->default_time : part->max_time;
  if (t) r.minutes = *t;
  return r;
}

std::string_view qos_reason(LimitKind k) {
  switch (k) {
    case LimitKind::grp_tres_mins: return "QOSGrpGRESMinutes";
    case LimitKind::grp_tres: return "QOSGrpGRES";
    case LimitKind::grp_tres_run_mins: return "QOSGrpGRESRunMinutes";
    case LimitKind::max_tres_mins_per_job: return "QOSMaxGRESMinutesPerJob";
    case LimitKind::max_tres_per_job: return "QOSMaxGRESPerJob";
    case LimitKind::max_tres_per_node: return "QOSMaxGRESPerNode";
    case LimitKind::min_tres: return "QOSMinGRES";
    case LimitKind::max_tres_per_account: return "MaxGRESPerAccount";
    case LimitKind::max_tres_per_user: return "QOSMaxGRESPerUser";
  }
  return "";
}

std::string_view assoc_reason(LimitKind k) {
  switch (k) {
    case LimitKind::grp_tres_mins: return "AssocGrpGRESMinutes";
    case LimitKind::grp_tres: return "AssocGrpGRES";
    case LimitKind::grp_tres_run_mins: return "AssocGrpGRESRunMinutes";
    case LimitKind::max_tres_mins_per_job: return "AssocMaxGRESMinutesPerJob";
    case LimitKind::max_tres_per_job: return "AssocMaxGRESPerJob";
    case LimitKind::max_tres_per_node: return "AssocMaxGRESPerNode";
    default: return "";
  }
}

/// Whether a job asking `r` is beyond limit `k` = `value` of TRES `name` (usage is zero:
/// greslint sees no running job). `at_submit`: acct_policy_validate's strict checks, which
/// leave a job without a time limit alone (they set its time limit instead).
bool beyond(LimitKind k, std::uint64_t value, std::string_view name, const Request& r, bool safe, bool at_submit,
            bool time_given) {
  const std::uint64_t req = r.count(name);
  const std::uint64_t req_time = sat_mul(req, r.minutes);
  switch (k) {
    case LimitKind::grp_tres_mins:
      if (at_submit) return time_given && req_time > value;
      // No usage: only a limit of 0 is reached already (usage >= limit), unless safe.
      return safe ? req_time > value : (req > 0 && value == 0);
    case LimitKind::grp_tres_run_mins:
    case LimitKind::max_tres_mins_per_job:
      if (at_submit && !time_given) return false;
      return req_time > value;
    case LimitKind::grp_tres:
    case LimitKind::max_tres_per_job:
    case LimitKind::max_tres_per_user:
    case LimitKind::max_tres_per_account: return req > value;
    case LimitKind::max_tres_per_node: return req / std::max<std::uint64_t>(1, r.nodes) > value;
    case LimitKind::min_tres: return req < value;
  }
  return false;
}

std::string describe_limit(LimitKind k, const Tres& t) { return fmt::format("{}={}={}", to_string(k), t.name, t.value); }

std::string asked(LimitKind k, std::string_view name, const Request& r) {
  const std::uint64_t req = r.count(name);
  switch (k) {
    case LimitKind::grp_tres_mins:
    case LimitKind::grp_tres_run_mins:
    case LimitKind::max_tres_mins_per_job:
      return r.minutes == kInfiniteMinutes
                 ? fmt::format("{} {} without a time limit", req, name)
                 : fmt::format("{} {} for {} minutes ({} {}-minutes)", req, name, r.minutes, sat_mul(req, r.minutes),
                               name);
    case LimitKind::max_tres_per_node:
      return fmt::format("{} {} per node", req / std::max<std::uint64_t>(1, r.nodes), name);
    default: return fmt::format("{} {}", req, name);
  }
}

struct Checker {
  const Pool& pool;
  const Request& r;
  bool time_given;
  bool at_submit;
  std::set<std::pair<LimitKind, std::string>> qos_set;  ///< limits a QOS already set
  Prediction hit;

  bool relevant(const Tres& t) const { return is_gpu_tres(t.name) && pool.tracks(t.name); }

  bool check_qos(const Qos& q, const std::vector<LimitKind>& kinds) {
    for (LimitKind k : kinds) {
      const Limit* l = q.limit(k);
      if (!l) continue;
      for (const Tres& t : l->tres) {
        if (!relevant(t)) continue;
        if (!qos_set.emplace(k, to_lower(t.name)).second) continue;
        if (!beyond(k, t.value, t.name, r, pool.enforce_safe, at_submit, time_given)) continue;
        hit.reason = std::string(qos_reason(k));
        hit.limit = t.span;
        hit.message = fmt::format("QOS {} has {}: the job asks for {}", q.name, describe_limit(k, t),
                                  asked(k, t.name, r));
        hit.limit_note = fmt::format("QOS {}'s {} limit", q.name, to_string(k));
        return true;
      }
    }
    return false;
  }

  bool check_assoc_limit(const Assoc& owner, const Assoc& user, LimitKind k, const Tres& t, bool inherited) {
    if (!relevant(t) || qos_set.count({k, to_lower(t.name)})) return false;
    if (!beyond(k, t.value, t.name, r, pool.enforce_safe, at_submit, time_given)) return false;
    hit.reason = std::string(assoc_reason(k));
    hit.limit = t.span;
    const std::string who = owner.is_user() ? fmt::format("user {} in account {}", owner.user, owner.account)
                                            : fmt::format("account {}", owner.account);
    hit.message = fmt::format("the association of {} has {}{}: the job asks for {}", who, describe_limit(k, t),
                              inherited && &owner != &user ? fmt::format(" (user {} inherits it)", user.user) : "",
                              asked(k, t.name, r));
    hit.limit_note = fmt::format("{}'s {} limit", who, to_string(k));
    return true;
  }

  bool check_assocs(const EffectiveAssoc& e) {
    static const LimitKind grp[] = {LimitKind::grp_tres_mins, LimitKind::grp_tres, LimitKind::grp_tres_run_mins};
    static const LimitKind max[] = {LimitKind::max_tres_mins_per_job, LimitKind::max_tres_per_job,
                                    LimitKind::max_tres_per_node};
    for (std::size_t i = 0; i < e.chain.size(); ++i) {
      const Assoc& a = *e.chain[i];
      for (LimitKind k : grp)
        if (const Limit* l = a.limit(k))
          for (const Tres& t : l->tres)
            if (check_assoc_limit(a, *e.assoc, k, t, false)) return true;
      if (i != 0) continue;
      // The Max limits are the user's, inherited per TRES from the nearest parent that sets
      // them (slurmdbd propagates them down).
      for (LimitKind k : max) {
        std::set<std::string> seen;
        for (const Assoc* c : e.chain)
          if (const Limit* l = c->limit(k))
            for (const Tres& t : l->tres)
              if (seen.insert(to_lower(t.name)).second && check_assoc_limit(*c, *e.assoc, k, t, true)) return true;
      }
    }
    return false;
  }
};

}  // namespace

Prediction predict(const rules::JobLimitsView& lv) {
  Prediction p;
  const JobView& v = lv.job;
  const rules::JobLimits* limits = &lv.limits;
  const LimitsDb& db = limits->db;
  const Pool& pool = limits->pool;
  if (!pool.enforce_assocs && !pool.enforce_limits && !pool.enforce_qos) return p;
  // The partition: the job's first (slurmctld tries them in order), else the default.
  const job::JobPartition* jp = nullptr;
  if (!v.job.partitions.empty())
    jp = v.cluster.partition(v.job.partitions.front());
  else
    jp = v.cluster.default_partition();
  const PoolPartition* part = jp ? pool.partition(jp->name) : nullptr;

  // The association: user, account (the job's --account, else greslint's --account, else
  // the user's default), partition.
  const std::string user = limits->user;
  std::string account;
  const job::JobOption* account_option = v.script.last("account");
  if (account_option)
    account = account_option->value;
  else if (!limits->account.empty())
    account = limits->account;
  else
    account = db.default_account(user);
  const Assoc* assoc = nullptr;
  if (db.assocs_known && !user.empty()) {
    assoc = db.user_assoc(user, account, jp ? std::string_view(jp->name) : std::string_view{});
    if (!assoc && pool.enforce_assocs) {
      p.kind = Prediction::Kind::invalid_account;
      p.message = account.empty() ? fmt::format("user {} has no association, and associations are enforced", user)
                                  : fmt::format("user {} has no association with account {}{}", user, account,
                                                jp ? fmt::format(" (partition {})", jp->name) : "");
      p.help = db.has_user(user) ? fmt::format("submit with --account={} (the user's default account)",
                                               db.default_account(user))
                                 : fmt::format("add the user: sacctmgr add user {} account=ACCOUNT", user);
      if (const Assoc* a = db.account(account)) p.limit = a->span;
      return p;
    }
  }
  EffectiveAssoc e;
  if (assoc) e = effective(db, *assoc);

  // The QOS: --qos, else the association's default, else its only QOS, else normal
  // (assoc_mgr_get_default_qos_info).
  const job::JobOption* qos_option = v.script.last("qos");
  std::string qos_name;
  if (qos_option)
    qos_name = qos_option->value;
  else if (!e.default_qos.empty())
    qos_name = e.default_qos;
  else if (e.qos.size() == 1)
    qos_name = e.qos.front();
  else
    qos_name = "normal";
  const Qos* qos = db.find_qos(qos_name);
  if (db.qos_known && !qos && pool.enforce_qos) {
    p.kind = Prediction::Kind::invalid_qos;
    p.message = fmt::format("QOS {} does not exist{}", qos_name, qos_option ? "" : " (the job's default QOS)");
    p.help = "define it (sacctmgr add qos " + qos_name + ") or submit with an existing --qos";
    return p;
  }
  if (assoc && pool.enforce_qos &&
      std::none_of(e.qos.begin(), e.qos.end(), [&](const std::string& q) { return iequals(q, qos_name); })) {
    p.kind = Prediction::Kind::invalid_qos;
    std::string list;
    for (const std::string& q : e.qos) list += (list.empty() ? "" : ",") + q;
    p.message = fmt::format("the association of user {} in account {} may not use QOS {} (its QOS: {})", user,
                            assoc->account, qos_name, list.empty() ? "none" : list);
    p.help = fmt::format("sacctmgr modify user {} set qos+={}", user, qos_name);
    p.limit = e.qos_from ? e.qos_from->qos_span : assoc->span;
    return p;
  }
  if (!pool.enforce_limits) return p;

  // acct_policy_set_qos_order: the partition QOS first, unless the job's QOS has OverPartQOS.
  const Qos* part_qos = part && part->qos ? db.find_qos(part->qos->value) : nullptr;
  const Qos* qos1 = qos;
  const Qos* qos2 = nullptr;
  if (part_qos && qos) {
    if (qos->over_part_qos) {
      qos2 = part_qos;
    } else {
      qos1 = part_qos;
      qos2 = qos;
    }
    if (qos1 == qos2) qos2 = nullptr;
  } else if (part_qos) {
    qos1 = part_qos;
  }

  const Request r = request_of(v, pool, part);
  const bool time_given = v.script.last("time") != nullptr;
  // Submission: strict checks with a DenyOnLimit QOS, or without any QOS.
  const bool strict = (qos1 && qos1->deny_on_limit) || (qos2 && qos2->deny_on_limit) || (!qos1 && db.qos_known);
  if (strict) {
    Checker c{pool, r, time_given, true, {}, {}};
    static const std::vector<LimitKind> submit_kinds = {
        LimitKind::max_tres_per_account, LimitKind::grp_tres, LimitKind::max_tres_per_user,
        LimitKind::max_tres_mins_per_job, LimitKind::grp_tres_mins, LimitKind::grp_tres_run_mins,
        LimitKind::max_tres_per_job, LimitKind::max_tres_per_node, LimitKind::min_tres};
    if ((qos1 && c.check_qos(*qos1, submit_kinds)) || (qos2 && c.check_qos(*qos2, submit_kinds)) ||
        (assoc && c.check_assocs(e))) {
      p = c.hit;
      p.kind = Prediction::Kind::denied;
      p.help = qos1 && qos1->deny_on_limit ? fmt::format("QOS {} has Flags=DenyOnLimit: ask for less", qos1->name)
                                           : "ask for less, or raise the limit";
      return p;
    }
  }
  Checker c{pool, r, time_given, false, {}, {}};
  static const std::vector<LimitKind> run_kinds = {
      LimitKind::grp_tres_mins, LimitKind::grp_tres, LimitKind::grp_tres_run_mins,
      LimitKind::max_tres_mins_per_job, LimitKind::max_tres_per_job, LimitKind::max_tres_per_node,
      LimitKind::min_tres, LimitKind::max_tres_per_account, LimitKind::max_tres_per_user};
  if ((qos1 && c.check_qos(*qos1, run_kinds)) || (qos2 && c.check_qos(*qos2, run_kinds)) ||
      (assoc && c.check_assocs(e))) {
    p = c.hit;
    p.kind = Prediction::Kind::pends;
    p.help = p.reason == "QOSMinGRES" ? "ask for at least the QOS's minimum, or use another QOS"
                                      : "ask for less, or raise the limit";
  }
  return p;
}

}  // namespace greslint::limits
