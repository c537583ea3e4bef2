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

Request request_of(const job::JobScript& script, const job::JobRequest& job, const Pool& pool,
                   const PoolPartition* part) {
  Request r;
  r.nodes = std::max<std::uint64_t>(1, job.min_nodes);
  for (const job::GresAsk& a : job.asks) {
    if (a.name != "gpu") continue;
    std::uint64_t c = a.count;
    switch (a.per) {
      case job::GresAsk::Per::node: c = sat_mul(a.count, r.nodes); break;
      case job::GresAsk::Per::job: break;
      case job::GresAsk::Per::task: c = sat_mul(a.count, job.ntasks ? *job.ntasks : r.nodes); break;
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
  if (const job::JobOption* o = script.last("time")) t = time_minutes(o->value);
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

std::string running_note(std::uint64_t used, std::string_view name, LimitKind k) {
  if (used == 0) return {};
  return fmt::format(" and running jobs hold {} {}{}", used, name,
                     k == LimitKind::grp_tres_run_mins ? "-minutes" : "");
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
  const Usage* usage;  ///< the running jobs (--running); null: none
  const std::string& user;
  const std::string& account;
  std::set<std::pair<LimitKind, std::string>> qos_set;  ///< limits a QOS already set
  Prediction hit;

  /// What the running jobs already use of limit `k` of QOS `q` for TRES `tres`
  /// (grp_used_tres, the QOS's per-user and per-account usage, grp_used_tres_run_secs).
  std::uint64_t qos_used(const Qos& q, LimitKind k, const std::string& tres) const {
    if (!usage) return 0;
    const std::string qn = to_lower(q.name);
    auto get = [](const auto& m, const auto& key) -> std::uint64_t {
      auto it = m.find(key);
      return it == m.end() ? 0 : it->second;
    };
    switch (k) {
      case LimitKind::grp_tres: return get(usage->qos_grp, std::make_pair(qn, tres));
      case LimitKind::grp_tres_run_mins: return get(usage->qos_run_mins, std::make_pair(qn, tres));
      case LimitKind::max_tres_per_user: return get(usage->qos_user, std::make_tuple(qn, to_lower(user), tres));
      case LimitKind::max_tres_per_account:
        return get(usage->qos_account, std::make_tuple(qn, to_lower(account), tres));
      default: return 0;
    }
  }
  std::uint64_t assoc_used(const Assoc& a, LimitKind k, const std::string& tres) const {
    if (!usage) return 0;
    const auto& m = k == LimitKind::grp_tres ? usage->assoc_grp
                    : k == LimitKind::grp_tres_run_mins ? usage->assoc_run_mins
                                                        : usage->assoc_none;
    auto it = m.find({&a, tres});
    return it == m.end() ? 0 : it->second;
  }
  /// _validate_tres_usage_limits with safe limits: the request with what runs, against the limit.
  bool beyond_with_usage(LimitKind k, const Tres& t, std::uint64_t used) const {
    if (beyond(k, t.value, t.name, r, pool.enforce_safe, at_submit, time_given)) return true;
    if (used == 0) return false;
    const_cast<Checker*>(this)->hit.until_jobs_end = true;
    const std::uint64_t req = k == LimitKind::grp_tres_run_mins ? sat_mul(r.count(t.name), r.minutes) : r.count(t.name);
    return req > 0 && req + used > t.value;
  }

  bool relevant(const Tres& t) const { return is_gpu_tres(t.name) && pool.tracks(t.name); }

  bool check_qos(const Qos& q, const std::vector<LimitKind>& kinds) {
    for (LimitKind k : kinds) {
      const Limit* l = q.limit(k);
      if (!l) continue;
      for (const Tres& t : l->tres) {
        if (!relevant(t)) continue;
        if (!qos_set.emplace(k, to_lower(t.name)).second) continue;
        const std::uint64_t used = qos_used(q, k, to_lower(t.name));
        if (!beyond_with_usage(k, t, used)) continue;
        hit.reason = std::string(qos_reason(k));
        hit.limit = t.span;
        hit.message = fmt::format("QOS {} has {}: the job asks for {}{}", q.name, describe_limit(k, t),
                                  asked(k, t.name, r), running_note(used, t.name, k));
        hit.limit_note = fmt::format("QOS {}'s {} limit", q.name, to_string(k));
        return true;
      }
    }
    return false;
  }

  bool check_assoc_limit(const Assoc& owner, const Assoc& holder, LimitKind k, const Tres& t, bool inherited) {
    if (!relevant(t) || qos_set.count({k, to_lower(t.name)})) return false;
    const std::uint64_t used = assoc_used(owner, k, to_lower(t.name));
    if (!beyond_with_usage(k, t, used)) return false;
    hit.reason = std::string(assoc_reason(k));
    hit.limit = t.span;
    const std::string who = owner.is_user() ? fmt::format("user {} in account {}", owner.user, owner.account)
                                            : fmt::format("account {}", owner.account);
    hit.message = fmt::format("the association of {} has {}{}: the job asks for {}{}", who, describe_limit(k, t),
                              inherited && &owner != &holder ? fmt::format(" (user {} inherits it)", holder.user) : "",
                              asked(k, t.name, r), running_note(used, t.name, k));
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

namespace {

/// What slurmctld resolves for a job before its limits: partition, association, QOS.
struct Resolved {
  Prediction error;  ///< invalid account / QOS; kind none when resolved
  const job::JobPartition* jp = nullptr;
  const PoolPartition* part = nullptr;
  std::string user, account;
  const Assoc* assoc = nullptr;
  EffectiveAssoc e;
  const Qos* qos1 = nullptr;
  const Qos* qos2 = nullptr;
  const Qos* job_qos = nullptr;  ///< the job's own QOS (not the partition's)
  Request r;
  bool time_given = false;
};

// The association: user, account (the job's --account, else greslint's --account, else the
// user's default), partition. False, with out.error set, when associations are enforced and
// there is none.
bool resolve_assoc(const job::JobScript& script, const rules::JobLimits& limits, Resolved& out) {
  const LimitsDb& db = limits.db;
  const std::string& user = out.user;
  if (const job::JobOption* o = script.last("account"))
    out.account = o->value;
  else if (!limits.account.empty())
    out.account = limits.account;
  else
    out.account = db.default_account(user);
  const std::string& account = out.account;
  if (db.assocs_known && !user.empty()) {
    out.assoc = db.user_assoc(user, account, out.jp ? std::string_view(out.jp->name) : std::string_view{});
    if (!out.assoc && limits.pool.enforce_assocs) {
      Prediction& p = out.error;
      p.kind = Prediction::Kind::invalid_account;
      p.message = account.empty() ? fmt::format("user {} has no association, and associations are enforced", user)
                                  : fmt::format("user {} has no association with account {}{}", user, account,
                                                out.jp ? fmt::format(" (partition {})", out.jp->name) : "");
      p.help = db.has_user(user) ? fmt::format("submit with --account={} (the user's default account)",
                                               db.default_account(user))
                                 : fmt::format("add the user: sacctmgr add user {} account=ACCOUNT", user);
      if (const Assoc* a = db.account(account)) p.limit = a->span;
      return false;
    }
  }
  if (out.assoc) out.e = effective(db, *out.assoc);
  return true;
}

// The QOS: --qos, else the association's default, else its only QOS, else normal
// (assoc_mgr_get_default_qos_info). False, with out.error set, when QOS are enforced and it
// does not exist or the association may not use it.
bool resolve_qos(const job::JobScript& script, const rules::JobLimits& limits, Resolved& out) {
  const LimitsDb& db = limits.db;
  const EffectiveAssoc& e = out.e;
  Prediction& p = out.error;
  const job::JobOption* qos_option = script.last("qos");
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
  if (db.qos_known && !qos && limits.pool.enforce_qos) {
    p.kind = Prediction::Kind::invalid_qos;
    p.message = fmt::format("QOS {} does not exist{}", qos_name, qos_option ? "" : " (the job's default QOS)");
    p.help = "define it (sacctmgr add qos " + qos_name + ") or submit with an existing --qos";
    return false;
  }
  if (out.assoc && limits.pool.enforce_qos &&
      std::none_of(e.qos.begin(), e.qos.end(), [&](const std::string& q) { return iequals(q, qos_name); })) {
    p.kind = Prediction::Kind::invalid_qos;
    std::string list;
    for (const std::string& q : e.qos) list += (list.empty() ? "" : ",") + q;
    p.message = fmt::format("the association of user {} in account {} may not use QOS {} (its QOS: {})", out.user,
                            out.assoc->account, qos_name, list.empty() ? "none" : list);
    p.help = fmt::format("sacctmgr modify user {} set qos+={}", out.user, qos_name);
    p.limit = e.qos_from ? e.qos_from->qos_span : out.assoc->span;
    return false;
  }
  out.job_qos = qos;
  return true;
}

// acct_policy_set_qos_order: the partition QOS first, unless the job's QOS has OverPartQOS.
void order_qos(const LimitsDb& db, Resolved& out) {
  const Qos* qos = out.job_qos;
  const Qos* part_qos = out.part && out.part->qos ? db.find_qos(out.part->qos->value) : nullptr;
  out.qos1 = qos;
  if (part_qos && qos) {
    if (qos->over_part_qos) {
      out.qos2 = part_qos;
    } else {
      out.qos1 = part_qos;
      out.qos2 = qos;
    }
    if (out.qos1 == out.qos2) out.qos2 = nullptr;
  } else if (part_qos) {
    out.qos1 = part_qos;
  }
}

Resolved resolve(const job::JobScript& script, const job::JobRequest& job, const job::JobCluster& cluster,
                 const rules::JobLimits& limits, const std::string& user) {
  Resolved out;
  // The partition: the job's first (slurmctld tries them in order), else the default.
  out.jp = job.partitions.empty() ? cluster.default_partition() : cluster.partition(job.partitions.front());
  out.part = out.jp ? limits.pool.partition(out.jp->name) : nullptr;
  out.user = user;
  if (!resolve_assoc(script, limits, out) || !resolve_qos(script, limits, out)) return out;
  order_qos(limits.db, out);
  out.r = request_of(script, job, limits.pool, out.part);
  out.time_given = script.last("time") != nullptr;
  return out;
}

}  // namespace

void add_running(Usage& usage, const job::JobScript& script, const job::JobRequest& job,
                 const job::JobCluster& cluster, const rules::JobLimits& limits, const std::string& user,
                 const std::vector<std::uint32_t>& nodes) {
  Resolved res = resolve(script, job, cluster, limits, user);
  if (res.error.kind != Prediction::Kind::none) return;  // a refused job uses nothing
  // Once placed, an untyped request is counted as the type it got (the allocation's TRES).
  std::string got_type;
  bool one_type = !nodes.empty();
  for (std::uint32_t n : nodes) {
    if (n >= cluster.nodes.size()) continue;
    for (const job::NodeGres& g : cluster.nodes[n].gres) {
      if (g.name != "gpu" || g.type.empty()) continue;
      if (got_type.empty()) got_type = g.type;
      else if (got_type != g.type) one_type = false;
    }
  }
  Request r = res.r;
  const std::uint64_t total = r.count("gres/gpu");
  bool typed = false;
  for (const auto& t : r.tres)
    if (t.first.size() > 8) typed = true;
  if (!typed && one_type && !got_type.empty() && total > 0 && limits.pool.tracks("gres/gpu:" + got_type))
    r.tres.emplace_back("gres/gpu:" + got_type, total);
  for (const auto& [name, count] : r.tres) {
    const std::string tres = to_lower(name);
    const std::uint64_t mins = sat_mul(count, r.minutes);
    for (const Qos* q : {res.qos1, res.qos2}) {
      if (!q) continue;
      const std::string qn = to_lower(q->name);
      usage.qos_grp[{qn, tres}] += count;
      usage.qos_run_mins[{qn, tres}] += mins;
      usage.qos_user[{qn, to_lower(user), tres}] += count;
      usage.qos_account[{qn, to_lower(res.account), tres}] += count;
    }
    for (const Assoc* a : res.e.chain) {
      usage.assoc_grp[{a, tres}] += count;
      usage.assoc_run_mins[{a, tres}] += mins;
    }
  }
  ++usage.jobs;
}

Prediction predict(const rules::JobLimitsView& lv) {
  const JobView& v = lv.job;
  const rules::JobLimits& limits = lv.limits;
  Resolved res = resolve(v.script, v.job, v.cluster, limits, limits.user);
  if (res.error.kind != Prediction::Kind::none) return res.error;
  Prediction p;
  const Pool& pool = limits.pool;
  // partition_mgr.c:part_policy_valid_qos: a partition's AllowQos= without the job's QOS
  // refuses it at submission with EnforcePartLimits (_part_access_check), else the scheduler
  // leaves it pending with that state description (select_nodes, before the limits).
  bool qos_refused = false;
  std::string refusal;
  if (res.job_qos && res.part && res.part->allow_qos && !iequals(res.part->allow_qos->value, "ALL")) {
    const std::string_view allow = res.part->allow_qos->value;
    const auto words = split_commas_view(allow);
    if (std::none_of(words.begin(), words.end(), [&](std::string_view w) { return iequals(w, res.job_qos->name); })) {
      qos_refused = true;
      refusal = fmt::format("Job's QOS not permitted to use this partition ({} allows {} not {})", res.part->name,
                            allow, res.job_qos->name);
    }
  }
  if (qos_refused && pool.enforce_part_limits) {
    p.kind = Prediction::Kind::invalid_qos;
    p.message = fmt::format("partition {} has AllowQos={}, which does not include the job's QOS {} (EnforcePartLimits)",
                            res.part->name, res.part->allow_qos->value, res.job_qos->name);
    p.help = "submit with a QOS the partition allows";
    p.limit = res.part->allow_qos->value_span;
    return p;
  }
  auto refused = [&] {
    p.kind = Prediction::Kind::pends;
    p.reason = refusal;
    std::replace(p.reason.begin(), p.reason.end(), ' ', '_');  // as squeue and scontrol print it
    p.message = fmt::format("partition {} has AllowQos={}, which does not include the job's QOS {}", res.part->name,
                            res.part->allow_qos->value, res.job_qos->name);
    p.help = "submit with a QOS the partition allows";
    p.limit = res.part->allow_qos->value_span;
    p.limit_note = "the partition's AllowQos";
    return p;
  };
  if (!pool.enforce_limits) return qos_refused ? refused() : p;
  const Qos* qos1 = res.qos1;
  const Qos* qos2 = res.qos2;
  const Request& r = res.r;
  // Submission: strict checks with a DenyOnLimit QOS, or without any QOS (usage plays no part).
  const bool strict = (qos1 && qos1->deny_on_limit) || (qos2 && qos2->deny_on_limit) || (!qos1 && limits.db.qos_known);
  if (strict) {
    Checker c{pool, r, res.time_given, true, nullptr, res.user, res.account, {}, {}};
    static const std::vector<LimitKind> submit_kinds = {
        LimitKind::max_tres_per_account, LimitKind::grp_tres, LimitKind::max_tres_per_user,
        LimitKind::max_tres_mins_per_job, LimitKind::grp_tres_mins, LimitKind::grp_tres_run_mins,
        LimitKind::max_tres_per_job, LimitKind::max_tres_per_node, LimitKind::min_tres};
    if ((qos1 && c.check_qos(*qos1, submit_kinds)) || (qos2 && c.check_qos(*qos2, submit_kinds)) ||
        (res.assoc && c.check_assocs(res.e))) {
      p = c.hit;
      p.kind = Prediction::Kind::denied;
      p.help = qos1 && qos1->deny_on_limit ? fmt::format("QOS {} has Flags=DenyOnLimit: ask for less", qos1->name)
                                           : "ask for less, or raise the limit";
      return p;
    }
  }
  if (qos_refused) return refused();
  Checker c{pool, r, res.time_given, false, limits.usage, res.user, res.account, {}, {}};
  static const std::vector<LimitKind> run_kinds = {
      LimitKind::grp_tres_mins, LimitKind::grp_tres, LimitKind::grp_tres_run_mins,
      LimitKind::max_tres_mins_per_job, LimitKind::max_tres_per_job, LimitKind::max_tres_per_node,
      LimitKind::min_tres, LimitKind::max_tres_per_account, LimitKind::max_tres_per_user};
  if ((qos1 && c.check_qos(*qos1, run_kinds)) || (qos2 && c.check_qos(*qos2, run_kinds)) ||
      (res.assoc && c.check_assocs(res.e))) {
    p = c.hit;
    p.kind = Prediction::Kind::pends;
    p.help = p.reason == "QOSMinGRES" ? "ask for at least the QOS's minimum, or use another QOS"
                                      : "ask for less, or raise the limit";
  }
  return p;
}

}  // namespace greslint::limits
