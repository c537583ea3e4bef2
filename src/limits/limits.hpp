// SPDX-License-Identifier: Apache-2.0
// QOS and association limits as slurmdbd holds them, read from the files admins already have:
// `sacctmgr dump CLUSTER` and `sacctmgr show qos|assoc -P` (or -p). docs/limits.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "greslint/source.hpp"

namespace greslint::limits {

/// The TRES limits of a QOS or an association that greslint checks.
enum class LimitKind : std::uint8_t {
  grp_tres,
  grp_tres_mins,
  grp_tres_run_mins,
  max_tres_per_job,
  max_tres_per_node,
  max_tres_mins_per_job,
  max_tres_per_user,     ///< QOS only
  max_tres_per_account,  ///< QOS only
  min_tres,              ///< QOS only
};
/// sacctmgr's name: GrpTRES, MaxTRESPerJob (MaxTRES), ...
std::string_view to_string(LimitKind k) noexcept;

/// One TRES of a limit: `gres/gpu:a100=2`.
struct Tres {
  std::string name;  ///< as written: "gres/gpu", "gres/gpu:a100", "cpu"
  std::uint64_t value = 0;
  Span span;  ///< the whole item
};

struct Limit {
  LimitKind kind;
  std::vector<Tres> tres;
  Span span;  ///< the value
  /// The value of TRES `name` (case-insensitive, as Slurm compares TRES names).
  const Tres* find(std::string_view name) const;
};

struct Qos {
  std::string name;
  Span span;  ///< the name
  std::vector<Limit> limits;
  std::vector<std::string> flags;
  bool deny_on_limit = false;  ///< Flags=DenyOnLimit
  bool over_part_qos = false;  ///< Flags=OverPartQOS
  const Limit* limit(LimitKind k) const;
};

struct Assoc {
  std::string cluster;
  std::string account;    ///< the account (a user association: the account it is under)
  std::string user;       ///< empty: an account association
  std::string partition;  ///< empty: any partition
  std::string parent;     ///< the parent account (empty for root and when unknown)
  Span span;              ///< the name
  std::vector<Limit> limits;
  std::optional<std::vector<std::string>> qos;  ///< QOS=, when set on this association
  Span qos_span;
  std::optional<std::string> default_qos;  ///< DefaultQOS= / Def QOS
  Span default_qos_span;
  std::string default_account;  ///< a user's DefaultAccount= (dump files)
  bool is_user() const { return !user.empty(); }
  const Limit* limit(LimitKind k) const;
};

/// Every QOS and association read from the limits files.
struct LimitsDb {
  std::vector<Qos> qos;
  std::vector<Assoc> assocs;
  std::vector<FileId> files;
  std::string cluster;     ///< the dump's Cluster - name (empty without a dump)
  bool qos_known = false;  ///< a show-qos file was read: the QOS are all known
  bool assocs_known = false;

  const Qos* find_qos(std::string_view name) const;
  /// The account association of `account` (case-insensitive, as slurmdbd lowers names).
  const Assoc* account(std::string_view account) const;
  /// The user association of `user` under `account` (for `partition`, else the one without).
  const Assoc* user_assoc(std::string_view user, std::string_view account, std::string_view partition) const;
  /// Whether `user` has any association.
  bool has_user(std::string_view user) const;
  /// The user's DefaultAccount (dump), else the account of its first association.
  std::string default_account(std::string_view user) const;
  /// The first user of the files that is not root (greslint job's default --user).
  std::string first_user() const;
};

/// Where a limits file cannot be read.
struct ReadError {
  Span span;
  std::string message;
};

enum class FileFormat : std::uint8_t { dump, show_qos, show_assoc, empty };

/// Reads one limits file (its format detected from its text) into `db`; the first error
/// stops the file.
std::optional<ReadError> read_limits(const SourceManager& sources, FileId file, LimitsDb& db);

/// The format read_limits would take `text` for.
FileFormat detect_format(std::string_view text);

/// What applies to one user association once Slurm's inheritance is applied: the Max limits
/// and the QOS list come from the nearest association that sets them (per TRES for the
/// limits), the Grp limits are each ancestor's own, all of them checked.
struct EffectiveAssoc {
  const Assoc* assoc = nullptr;
  std::vector<const Assoc*> chain;  ///< assoc, its account, ..., root
  std::vector<std::string> qos;     ///< the QOS it may use (empty: not set anywhere)
  const Assoc* qos_from = nullptr;
  std::string default_qos;          ///< empty: none
  /// The limit `k` of TRES `tres` that applies to the association itself (inherited), and
  /// the association that set it.
  struct Found {
    const Tres* tres = nullptr;
    const Assoc* from = nullptr;
  };
  Found max_limit(LimitKind k, std::string_view tres) const;
};
EffectiveAssoc effective(const LimitsDb& db, const Assoc& a);

/// A QOS or an association, as findings name it.
struct LimitOwner {
  const Qos* qos = nullptr;
  const Assoc* assoc = nullptr;
  /// `QOS gpu`, `account physics`, `user alice (account physics)`.
  std::string describe() const;
  Span span() const;
};

/// Every GPU TRES item (gres/gpu, gres/gpu:TYPE) of every limit, QOS first, in file order.
template <class F>
void each_gpu_limit(const LimitsDb& db, F&& f);

bool is_gpu_tres_name(std::string_view name);

template <class F>
void each_gpu_limit(const LimitsDb& db, F&& f) {
  for (const Qos& q : db.qos)
    for (const Limit& l : q.limits)
      for (const Tres& t : l.tres)
        if (is_gpu_tres_name(t.name)) f(LimitOwner{&q, nullptr}, l, t);
  for (const Assoc& a : db.assocs)
    for (const Limit& l : a.limits)
      for (const Tres& t : l.tres)
        if (is_gpu_tres_name(t.name)) f(LimitOwner{nullptr, &a}, l, t);
}

}  // namespace greslint::limits
