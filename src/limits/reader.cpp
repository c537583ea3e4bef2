// SPDX-License-Identifier: Apache-2.0
// Reads `sacctmgr dump CLUSTER` files and `sacctmgr show qos|assoc -P` output into a LimitsDb.
//
// A dump (sacctmgr/file_functions.c writes it, `sacctmgr load` reads it) is one record a line:
// `Cluster - 'c':Opt=V:...`, `Parent - 'acct'` (the account the next lines are under),
// `Account - 'a':...`, `User - 'u':...`; options are split at ':' outside quotes. sacctmgr
// writes a typed TRES unquoted (`GrpTRES=gres/gpu:a100=2`), so a piece that is no option
// of its own continues the TRES value before it.
// show -P output is a header line of field names and one record a line, '|'-separated (-p
// ends each line with '|' too).
#include <algorithm>
#include <array>
#include <fmt/format.h>

#include "greslint/report.hpp"
#include "limits/limits.hpp"
#include "util.hpp"

namespace greslint::limits {

std::string_view to_string(LimitKind k) noexcept {
  switch (k) {
    case LimitKind::grp_tres: return "GrpTRES";
    case LimitKind::grp_tres_mins: return "GrpTRESMins";
    case LimitKind::grp_tres_run_mins: return "GrpTRESRunMins";
    case LimitKind::max_tres_per_job: return "MaxTRESPerJob";
    case LimitKind::max_tres_per_node: return "MaxTRESPerNode";
    case LimitKind::max_tres_mins_per_job: return "MaxTRESMinsPerJob";
    case LimitKind::max_tres_per_user: return "MaxTRESPerUser";
    case LimitKind::max_tres_per_account: return "MaxTRESPerAccount";
    case LimitKind::min_tres: return "MinTRES";
  }
  return "?";
}

const Tres* Limit::find(std::string_view name) const {
  for (const Tres& t : tres)
    if (iequals(t.name, name)) return &t;
  return nullptr;
}

namespace {
const Limit* find_limit(const std::vector<Limit>& limits, LimitKind k) {
  for (const Limit& l : limits)
    if (l.kind == k) return &l;
  return nullptr;
}
}  // namespace

const Limit* Qos::limit(LimitKind k) const { return find_limit(limits, k); }
const Limit* Assoc::limit(LimitKind k) const { return find_limit(limits, k); }

const Qos* LimitsDb::find_qos(std::string_view name) const {
  for (const Qos& q : qos)
    if (iequals(q.name, name)) return &q;
  return nullptr;
}

const Assoc* LimitsDb::account(std::string_view name) const {
  for (const Assoc& a : assocs)
    if (!a.is_user() && iequals(a.account, name)) return &a;
  return nullptr;
}

const Assoc* LimitsDb::user_assoc(std::string_view user, std::string_view acct, std::string_view partition) const {
  const Assoc* any = nullptr;
  for (const Assoc& a : assocs) {
    if (!a.is_user() || !iequals(a.user, user) || !iequals(a.account, acct)) continue;
    if (!partition.empty() && iequals(a.partition, partition)) return &a;
    if (a.partition.empty() && !any) any = &a;
  }
  return any;
}

bool LimitsDb::has_user(std::string_view user) const {
  return std::any_of(assocs.begin(), assocs.end(), [&](const Assoc& a) { return a.is_user() && iequals(a.user, user); });
}

std::string LimitsDb::default_account(std::string_view user) const {
  for (const Assoc& a : assocs)
    if (a.is_user() && iequals(a.user, user) && !a.default_account.empty()) return a.default_account;
  for (const Assoc& a : assocs)
    if (a.is_user() && iequals(a.user, user)) return a.account;
  return {};
}

std::string LimitsDb::first_user() const {
  for (const Assoc& a : assocs)
    if (a.is_user() && !iequals(a.user, "root")) return a.user;
  return {};
}

namespace {

struct Reader {
  const SourceManager& sources;
  FileId file;
  std::string_view text;
  LimitsDb& db;
  std::optional<ReadError> error;

  std::uint32_t off(std::string_view piece) const { return std::uint32_t(piece.data() - text.data()); }
  Span span(std::string_view piece) const { return Span{file, off(piece), off(piece) + std::uint32_t(piece.size())}; }
  bool fail(std::string_view at, std::string message) {
    if (!error) error = ReadError{span(at), std::move(message)};
    return false;
  }
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}


/// "gres/gpu=8,cpu=4" (whitespace around items allowed); false (with the error) when an item
/// is not NAME=NUMBER[KMGTP].
bool parse_tres(Reader& r, std::string_view value, LimitKind kind, std::vector<Limit>& out) {
  Limit l{kind, {}, r.span(value)};
  std::size_t at = 0;
  while (at <= value.size()) {
    std::size_t comma = value.find(',', at);
    if (comma == std::string_view::npos) comma = value.size();
    std::string_view item = trim(value.substr(at, comma - at));
    at = comma + 1;
    if (item.empty()) {
      if (comma == value.size()) break;
      continue;
    }
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return r.fail(item, fmt::format("{} item \"{}\" is not TRES=COUNT", to_string(kind), clipped(item)));
    std::string_view name = trim(item.substr(0, eq)), num = trim(item.substr(eq + 1));
    std::uint64_t v = 0;
    std::size_t i = 0;
    bool overflow = false;
    for (; i < num.size() && is_digit(num[i]); ++i) {
      if (v > (UINT64_MAX - 9) / 10) overflow = true;
      v = v * 10 + std::uint64_t(num[i] - '0');
    }
    std::uint64_t scale = 1;
    if (i < num.size() && i > 0) {
      switch (to_lower(num[i])) {
        case 'k': scale = 1; break;  // mem is in MB: K rounds to it in Slurm; greslint ignores mem
        case 'm': scale = 1; break;
        case 'g': scale = 1024; break;
        case 't': scale = std::uint64_t{1024} * 1024; break;
        case 'p': scale = std::uint64_t{1024} * 1024 * 1024; break;
        default: scale = 0;
      }
      ++i;
    }
    if (num == "-1") continue;  // sacctmgr's "clear this limit"
    if (i == 0 || i != num.size() || scale == 0 || overflow || v > UINT64_MAX / scale)
      return r.fail(item, fmt::format("{} item \"{}\": \"{}\" is not a count", to_string(kind), clipped(item),
                                      clipped(num)));
    l.tres.push_back(Tres{std::string(name), v * scale, r.span(item)});
  }
  out.push_back(std::move(l));
  return true;
}

/// The limit an option or column names; nullopt for the others.
std::optional<LimitKind> limit_key(std::string_view key) {
  std::string k;
  for (char c : key)
    if (!is_space(c)) k += to_lower(c);
  static const std::array<std::pair<std::string_view, LimitKind>, 17> names{{
      {"grptres", LimitKind::grp_tres},
      {"grptresmins", LimitKind::grp_tres_mins},
      {"grptresrunmins", LimitKind::grp_tres_run_mins},
      {"maxtres", LimitKind::max_tres_per_job},
      {"maxtresperjob", LimitKind::max_tres_per_job},
      {"maxtrespj", LimitKind::max_tres_per_job},
      {"maxtrespernode", LimitKind::max_tres_per_node},
      {"maxtrespn", LimitKind::max_tres_per_node},
      {"maxtresmins", LimitKind::max_tres_mins_per_job},
      {"maxtresminsperjob", LimitKind::max_tres_mins_per_job},
      {"maxtrespu", LimitKind::max_tres_per_user},
      {"maxtresperuser", LimitKind::max_tres_per_user},
      {"maxtrespa", LimitKind::max_tres_per_account},
      {"maxtresperaccount", LimitKind::max_tres_per_account},
      {"maxtresperacct", LimitKind::max_tres_per_account},
      {"mintres", LimitKind::min_tres},
      {"mintresperjob", LimitKind::min_tres},
  }};
  for (const auto& [name, kind] : names)
    if (k == name) return kind;
  return std::nullopt;
}

std::vector<std::string> comma_words(std::string_view v) {
  std::vector<std::string> out;
  for (std::string_view w : split_commas_view(v)) {
    w = trim(w);
    // show assoc prints an inherited or added QOS with a leading '+' or '-' in some
    // releases' modify output; a plain list has none.
    if (!w.empty() && (w.front() == '+' || w.front() == '=')) w.remove_prefix(1);
    if (!w.empty()) out.emplace_back(w);
  }
  return out;
}

// ----- sacctmgr dump ------------------------------------------------------------------------

/// Keys a dump line may hold (file_functions.c), which a TRES value's pieces are not.
bool dump_key(std::string_view key) {
  static constexpr std::string_view keys[] = {
      "adminlevel", "cluster", "coordinator", "defaultaccount", "defaultqos", "defaultwckey", "description",
      "fairshare", "share", "shares", "grpcpumins", "grpcpurunmins", "grpcpus", "grpjobs", "grpjobsaccrue",
      "grpmemory", "grpnodes", "grpsubmit", "grpsubmitjobs", "grptres", "grptresmins", "grptresrunmins", "grpwall",
      "maxcpuminsperjob", "maxcpus", "maxcpusperjob", "maxjobs", "maxjobsaccrue", "maxnodes", "maxnodesperjob",
      "maxsubmit", "maxsubmitjobs", "maxtres", "maxtresmins", "maxtresminsperjob", "maxtresperjob",
      "maxtrespernode", "maxtresrunmins", "maxwall", "maxwalldurationperjob", "name", "organization", "parent",
      "partition", "priority", "qos", "qoslevel", "wckeys"};
  const std::string k = to_lower(trim(key));
  return std::find(std::begin(keys), std::end(keys), k) != std::end(keys);
}

struct Option {
  std::string_view key;
  std::string_view value;  ///< quotes kept; unquote() strips them
  std::string_view whole;
};

/// Splits a dump line's options at ':' outside quotes; false on an unterminated quote.
bool split_options(Reader& r, std::string_view rest, std::vector<Option>& out) {
  std::size_t at = 0;
  while (at < rest.size()) {
    std::size_t i = at;
    char quote = 0;
    for (; i < rest.size(); ++i) {
      const char c = rest[i];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == ':') {
        break;
      }
    }
    if (quote) return r.fail(rest.substr(at), "a quote is not closed on this line");
    std::string_view piece = rest.substr(at, i - at);
    at = i + 1;
    if (trim(piece).empty()) continue;
    const std::size_t eq = piece.find('=');
    std::string_view key = eq == std::string_view::npos ? piece : piece.substr(0, eq);
    // A piece of a typed TRES (GrpTRES=gres/gpu:a100=2 split at its ':'): join it back.
    if (!out.empty() && limit_key(out.back().key) && !dump_key(key)) {
      Option& prev = out.back();
      const char* begin = prev.value.data();
      prev.value = std::string_view(begin, std::size_t(piece.data() + piece.size() - begin));
      prev.whole = std::string_view(prev.whole.data(), std::size_t(piece.data() + piece.size() - prev.whole.data()));
      continue;
    }
    if (eq == std::string_view::npos)
      return r.fail(piece, fmt::format("\"{}\" is not Option=Value", clipped(trim(piece))));
    out.push_back(Option{trim(key), piece.substr(eq + 1), piece});
  }
  return true;
}

/// Trims a value keeping it inside the file's text (for spans).
std::string_view value_span_text(std::string_view v) {
  v = trim(v);
  if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) return v.substr(1, v.size() - 2);
  return v;
}

bool apply_assoc_option(Reader& r, const Option& o, Assoc& a) {
  const std::string_view v = value_span_text(o.value);
  if (auto kind = limit_key(o.key)) return parse_tres(r, v, *kind, a.limits);
  if (iequals(o.key, "QOS") || iequals(o.key, "QOSLevel")) {
    a.qos = comma_words(v);
    a.qos_span = r.span(v);
  } else if (iequals(o.key, "DefaultQOS")) {
    a.default_qos = std::string(v);
    a.default_qos_span = r.span(v);
  } else if (iequals(o.key, "DefaultAccount")) {
    a.default_account = std::string(v);
  } else if (iequals(o.key, "Partition")) {
    a.partition = std::string(v);
  }
  return true;
}

bool read_dump(Reader& r) {
  std::string parent = "root";
  std::string cluster;
  std::size_t at = 0;
  bool cluster_seen = false;
  while (at < r.text.size()) {
    std::size_t nl = r.text.find('\n', at);
    if (nl == std::string_view::npos) nl = r.text.size();
    const std::string_view line = trim(r.text.substr(at, nl - at));
    at = nl + 1;
    if (line.empty() || line.front() == '#') continue;
    const std::size_t dash = line.find(" - ");
    std::string_view kind = dash == std::string_view::npos ? std::string_view{} : trim(line.substr(0, dash));
    if (dash == std::string_view::npos ||
        !(iequals(kind, "Cluster") || iequals(kind, "Parent") || iequals(kind, "Account") || iequals(kind, "User")))
      return r.fail(line.substr(0, std::min<std::size_t>(line.size(), line.find_first_of(" :") == std::string_view::npos
                                                                           ? line.size()
                                                                           : line.find_first_of(" :"))),
                    "a sacctmgr dump line starts with Cluster -, Parent -, Account - or User -");
    std::string_view rest = line.substr(dash + 3);
    // The name: quoted ('name') or up to the first ':'.
    std::string_view name;
    std::string_view after;
    rest = trim(rest);
    if (!rest.empty() && (rest.front() == '\'' || rest.front() == '"')) {
      const std::size_t close = rest.find(rest.front(), 1);
      if (close == std::string_view::npos) return r.fail(rest, "the name's quote is not closed");
      name = rest.substr(1, close - 1);
      after = rest.substr(close + 1);
    } else {
      const std::size_t colon = rest.find(':');
      name = trim(rest.substr(0, colon));
      after = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon);
    }
    if (name.empty()) return r.fail(line.substr(0, dash), fmt::format("{} - without a name", kind));
    after = trim(after);
    if (!after.empty() && after.front() != ':')
      return r.fail(after, "options follow the name after ':'");
    std::vector<Option> options;
    if (!after.empty() && !split_options(r, after.substr(1), options)) return false;
    if (iequals(kind, "Parent")) {
      if (!options.empty()) return r.fail(options.front().whole, "a Parent - line has no options");
      parent = std::string(name);
      continue;
    }
    Assoc a;
    a.span = r.span(name);
    if (iequals(kind, "Cluster")) {
      if (cluster_seen) return r.fail(line.substr(0, dash), "a second Cluster - line");
      cluster_seen = true;
      cluster = std::string(name);
      r.db.cluster = cluster;
      a.account = "root";
    } else if (iequals(kind, "Account")) {
      a.account = std::string(name);
      a.parent = parent;
    } else {
      a.user = std::string(name);
      a.account = parent;
      a.parent = parent;
    }
    a.cluster = cluster;
    for (const Option& o : options)
      if (!apply_assoc_option(r, o, a)) return false;
    r.db.assocs.push_back(std::move(a));
  }
  r.db.assocs_known = true;
  return true;
}

// ----- sacctmgr show -P ---------------------------------------------------------------------

std::vector<std::string_view> split_bars(std::string_view line, bool trailing) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  for (;;) {
    const std::size_t bar = line.find('|', at);
    if (bar == std::string_view::npos) {
      out.push_back(line.substr(at));
      break;
    }
    out.push_back(line.substr(at, bar - at));
    at = bar + 1;
  }
  if (trailing && !out.empty() && out.back().empty()) out.pop_back();
  return out;
}

std::string header_key(std::string_view h) {
  std::string k;
  for (char c : h)
    if (!is_space(c)) k += to_lower(c);
  return k;
}

// One row of `sacctmgr show qos -P`.
bool read_qos_row(Reader& r, std::string_view line, const std::vector<std::string>& header,
                  const std::vector<std::string_view>& fields) {
  Qos q;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string_view v = trim(fields[i]);
    const std::string& h = header[i];
    if (h == "name") {
      q.name = std::string(v);
      q.span = r.span(v.empty() ? fields[i] : v);
    } else if (h == "flags") {
      q.flags = comma_words(v);
      for (const std::string& f : q.flags) {
        if (iequals(f, "DenyOnLimit")) q.deny_on_limit = true;
        if (iequals(f, "OverPartQOS")) q.over_part_qos = true;
      }
    } else if (auto kind = limit_key(h)) {
      if (!v.empty() && !parse_tres(r, v, *kind, q.limits)) return false;
    }
  }
  if (q.name.empty()) return r.fail(line, "a QOS without a Name");
  r.db.qos.push_back(std::move(q));
  return true;
}

// One row of `sacctmgr show assoc -P`.
bool read_assoc_row(Reader& r, std::string_view line, const std::vector<std::string>& header,
                    const std::vector<std::string_view>& fields) {
  Assoc a;
  std::string_view parent_name;
  bool have_parent = false;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string_view v = trim(fields[i]);
    const std::string& h = header[i];
    if (h == "cluster") {
      a.cluster = std::string(v);
    } else if (h == "account") {
      a.account = std::string(v);
      a.span = r.span(v.empty() ? fields[i] : v);
    } else if (h == "user") {
      a.user = std::string(v);
      if (!v.empty()) a.span = r.span(v);
    } else if (h == "partition") {
      a.partition = std::string(v);
    } else if (h == "qos") {
      if (!v.empty()) {
        a.qos = comma_words(v);
        a.qos_span = r.span(v);
      }
    } else if (h == "defqos" || h == "defaultqos") {
      if (!v.empty()) {
        a.default_qos = std::string(v);
        a.default_qos_span = r.span(v);
      }
    } else if (h == "parname" || h == "parentname") {
      parent_name = v;
      have_parent = true;
    } else if (auto kind = limit_key(h)) {
      if (!v.empty() && !parse_tres(r, v, *kind, a.limits)) return false;
    }
  }
  if (a.account.empty()) return r.fail(line, "an association without an Account");
  if (a.is_user())
    a.parent = a.account;
  else if (have_parent)
    a.parent = std::string(parent_name);
  else if (!iequals(a.account, "root"))
    a.parent = "root";
  r.db.assocs.push_back(std::move(a));
  return true;
}

bool read_show(Reader& r, FileFormat format) {
  std::size_t at = 0;
  std::vector<std::string> header;
  bool trailing = false;
  while (at < r.text.size()) {
    std::size_t nl = r.text.find('\n', at);
    if (nl == std::string_view::npos) nl = r.text.size();
    std::string_view line = r.text.substr(at, nl - at);
    at = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (trim(line).empty() || trim(line).front() == '#') continue;
    if (header.empty()) {
      trailing = !line.empty() && line.back() == '|';
      for (std::string_view h : split_bars(line, trailing)) header.push_back(header_key(h));
      continue;
    }
    const std::vector<std::string_view> fields = split_bars(line, trailing);
    if (fields.size() != header.size())
      return r.fail(line, fmt::format("{} fields where the header has {}", fields.size(), header.size()));
    const bool ok = format == FileFormat::show_qos ? read_qos_row(r, line, header, fields)
                                                    : read_assoc_row(r, line, header, fields);
    if (!ok) return false;
  }
  if (format == FileFormat::show_qos)
    r.db.qos_known = true;
  else
    r.db.assocs_known = true;
  return true;
}

}  // namespace

FileFormat detect_format(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = trim(text.substr(at, nl - at));
    at = nl + 1;
    if (line.empty() || line.front() == '#') continue;
    if (line.find('|') != std::string_view::npos) {
      std::vector<std::string> keys;
      for (std::string_view h : split_bars(line, true)) keys.push_back(header_key(h));
      if (std::find(keys.begin(), keys.end(), "account") != keys.end()) return FileFormat::show_assoc;
      if (std::find(keys.begin(), keys.end(), "name") != keys.end()) return FileFormat::show_qos;
    }
    return FileFormat::dump;
  }
  return FileFormat::empty;
}

std::optional<ReadError> read_limits(const SourceManager& sources, FileId file, LimitsDb& db) {
  Reader r{sources, file, sources.text(file), db, std::nullopt};
  db.files.push_back(file);
  const FileFormat format = detect_format(r.text);
  // The text must be usable as offsets: findings carry 32-bit spans.
  if (r.text.size() >= UINT32_MAX) return ReadError{Span{file, 0, 0}, "the file is larger than 4 GB"};
  if (r.text.find('\0') != std::string_view::npos)
    return ReadError{Span{file, std::uint32_t(r.text.find('\0')), std::uint32_t(r.text.find('\0') + 1)},
                     "the file holds a NUL byte: it is not sacctmgr output"};
  bool ok = true;
  switch (format) {
    case FileFormat::empty: break;
    case FileFormat::dump: ok = read_dump(r); break;
    case FileFormat::show_qos:
    case FileFormat::show_assoc: ok = read_show(r, format); break;
  }
  if (!ok && r.error) return r.error;
  return std::nullopt;
}

bool is_gpu_tres_name(std::string_view name) {
  if (name.size() < 8 || !iequals(name.substr(0, 8), "gres/gpu")) return false;
  return name.size() == 8 || (name[8] == ':' && name.size() > 9);
}

std::string LimitOwner::describe() const {
  if (qos) return "QOS " + qos->name;
  if (assoc->is_user())
    return "user " + assoc->user + " (account " + assoc->account +
           (assoc->partition.empty() ? "" : ", partition " + assoc->partition) + ")";
  return "account " + assoc->account;
}

Span LimitOwner::span() const { return qos ? qos->span : assoc->span; }

// ----- inheritance --------------------------------------------------------------------------

EffectiveAssoc::Found EffectiveAssoc::max_limit(LimitKind k, std::string_view tres) const {
  // Grp limits are not inherited: each ancestor's own applies to its subtree.
  if (k == LimitKind::grp_tres || k == LimitKind::grp_tres_mins || k == LimitKind::grp_tres_run_mins) return {};
  for (const Assoc* a : chain)
    if (const Limit* l = a->limit(k))
      if (const Tres* t = l->find(tres)) return Found{t, a};
  return {};
}

EffectiveAssoc effective(const LimitsDb& db, const Assoc& a) {
  EffectiveAssoc e;
  e.assoc = &a;
  e.chain.push_back(&a);
  const Assoc* at = &a;
  // A user association's parent is its account's association; an account's, its Parent -.
  // Bounded by the number of associations (a cycle in a hand-made file ends the walk).
  for (std::size_t guard = 0; guard <= db.assocs.size(); ++guard) {
    const std::string& parent_name = at->is_user() ? at->account : at->parent;
    if (parent_name.empty()) break;
    const Assoc* parent = db.account(parent_name);
    if (!parent || parent == at ||
        std::find(e.chain.begin(), e.chain.end(), parent) != e.chain.end())
      break;
    e.chain.push_back(parent);
    at = parent;
  }
  for (const Assoc* c : e.chain) {
    if (c->qos && e.qos_from == nullptr) {
      e.qos = *c->qos;
      e.qos_from = c;
    }
    if (c->default_qos && e.default_qos.empty()) e.default_qos = *c->default_qos;
  }
  return e;
}

}  // namespace greslint::limits
