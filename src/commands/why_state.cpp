// SPDX-License-Identifier: Apache-2.0
#include "commands/why_state.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "greslint/hostlist.hpp"
#include "greslint/version.hpp"
#include "util.hpp"

extern char** environ;

namespace greslint::why {

using nlohmann::json;

bool ControllerNode::has_state(std::string_view s) const {
  return std::any_of(state.begin(), state.end(), [&](const std::string& x) { return x == s; });
}

std::string ControllerNode::state_text() const {
  std::string text;
  for (const std::string& s : state) text += (text.empty() ? "" : "+") + s;
  return text + (not_responding ? "*" : "");
}

bool ControllerNode::unavailable() const {
  for (std::string_view s : {"DRAIN", "DRAINED", "DRAINING", "INVALID", "INVALID_REG", "DOWN", "FAIL", "FAILING"})
    if (has_state(s)) return true;
  return false;
}

const std::string* ControllerConfig::find(std::string_view key) const {
  auto it = settings.find(to_lower(key));
  return it == settings.end() ? nullptr : &it->second;
}

ControllerNode* ControllerView::find(std::string_view name) {
  for (ControllerNode& n : nodes)
    if (n.name == name) return &n;
  return nullptr;
}

std::string ControllerView::slurm_version() const {
  if (config)
    if (const std::string* v = config->find("SLURM_VERSION")) return *v;
  for (const ControllerNode& n : nodes)
    if (!n.version.empty()) return n.version;
  return {};
}

namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && (is_space(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    auto nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

/// "2026-12-01T11:57:11" in the controller's local time, as scontrol and sinfo print it.
std::optional<std::time_t> parse_time(std::string_view text) {
  std::tm tm{};
  const std::string s = trim(text);
  const char* end = ::strptime(s.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (!end) return std::nullopt;
  tm.tm_isdst = -1;
  return std::mktime(&tm);
}

std::optional<std::uint32_t> parse_count(std::string_view text) {
  std::uint32_t v = 0;
  if (text.empty() || text.size() > 9) return std::nullopt;
  for (char c : text) {
    if (!is_digit(c)) return std::nullopt;
    v = v * 10 + std::uint32_t(c - '0');
  }
  return v;
}

/// Splits "IDLE*+DRAIN" (scontrol) into upper-case states; the suffixes sinfo and scontrol
/// add to the base state ('*' not responding, '~' powered down, '#', '%', '$', '@', '^',
/// '!', '-') are dropped, and '*' remembered.
void set_state(ControllerNode& n, std::string_view text) {
  std::string item;
  auto flush = [&] {
    while (!item.empty() && std::string_view("*~#%$@^!-").find(item.back()) != std::string_view::npos) {
      if (item.back() == '*') n.not_responding = true;
      item.pop_back();
    }
    if (!item.empty()) n.state.push_back(item);
    item.clear();
  };
  for (char c : text) {
    if (c == '+' || is_space(c)) {
      flush();
    } else {
      item += char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    }
  }
  flush();
  // The JSON lists NOT_RESPONDING as a flag; the text marks it with '*': one flag either way.
  auto nr = std::find(n.state.begin(), n.state.end(), "NOT_RESPONDING");
  if (nr != n.state.end()) {
    n.not_responding = true;
    n.state.erase(nr);
  }
}

// ---- JSON ----------------------------------------------------------------------------

/// A number as 23.02+ wraps it ({"set": true, "infinite": false, "number": N}) or plain.
std::optional<std::int64_t> json_number(const json& v) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_object()) {
    auto set = v.find("set");
    auto num = v.find("number");
    const bool is_set = set == v.end() || !set->is_boolean() || set->get<bool>();
    if (num != v.end() && num->is_number_integer() && is_set)
      return num->get<std::int64_t>();
  }
  return std::nullopt;
}

std::string json_text(const json& node, const char* key) {
  auto it = node.find(key);
  if (it == node.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  return {};
}

std::optional<std::uint32_t> json_count(const json& node, const char* key) {
  auto it = node.find(key);
  if (it == node.end()) return std::nullopt;
  auto v = json_number(*it);
  if (!v || *v < 0 || *v > 0xffffffffLL) return std::nullopt;
  return std::uint32_t(*v);
}

ControllerNode node_from_json(const json& j) {
  ControllerNode n;
  n.name = json_text(j, "name");
  if (auto st = j.find("state"); st != j.end()) {
    if (st->is_string()) {
      set_state(n, st->get<std::string>());
    } else if (st->is_array()) {
      for (const json& s : *st)
        if (s.is_string()) set_state(n, s.get<std::string>());
    }
  }
  if (auto fl = j.find("state_flags"); fl != j.end() && fl->is_array())
    for (const json& s : *fl)
      if (s.is_string()) set_state(n, s.get<std::string>());
  n.reason = json_text(j, "reason");
  n.reason_user = json_text(j, "reason_set_by_user");
  if (auto t = j.find("reason_changed_at"); t != j.end())
    if (auto v = json_number(*t); v && *v > 0) {
      char buf[32];
      std::time_t tt = std::time_t(*v);
      std::tm tm{};
      ::localtime_r(&tt, &tm);
      std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
      n.reason_time = buf;
    }
  n.gres = json_text(j, "gres");
  n.cpus = json_count(j, "cpus");
  n.sockets = json_count(j, "sockets");
  n.cores_per_socket = json_count(j, "cores");
  n.threads_per_core = json_count(j, "threads");
  n.boards = json_count(j, "boards");
  if (auto t = j.find("slurmd_start_time"); t != j.end())
    if (auto v = json_number(*t); v && *v > 0) n.slurmd_start_time = std::time_t(*v);
  n.registered = n.slurmd_start_time.has_value();
  n.version = json_text(j, "version");
  return n;
}

// ---- text ----------------------------------------------------------------------------

/// Reason=text [user@time]: the bracket is scontrol's, not the admin's text.
void set_reason(ControllerNode& n, std::string text) {
  text = trim(text);
  if (text == "(null)" || text == "none") text.clear();
  if (!text.empty() && text.back() == ']') {
    auto open = text.rfind(" [");
    auto at = text.find('@', open == std::string::npos ? 0 : open);
    if (open != std::string::npos && at != std::string::npos) {
      n.reason_user = text.substr(open + 2, at - open - 2);
      n.reason_time = text.substr(at + 1, text.size() - at - 2);
      text.resize(open);
    }
  }
  n.reason = trim(text);
}

void set_text_field(ControllerNode& n, std::string_view key, const std::string& value) {
  if (key == "NodeName") n.name = value;
  else if (key == "State") set_state(n, value);
  else if (key == "Gres") n.gres = value == "(null)" ? "" : value;
  else if (key == "CPUTot") n.cpus = parse_count(value);
  else if (key == "Sockets") n.sockets = parse_count(value);
  else if (key == "CoresPerSocket") n.cores_per_socket = parse_count(value);
  else if (key == "ThreadsPerCore") n.threads_per_core = parse_count(value);
  else if (key == "Boards") n.boards = parse_count(value);
  else if (key == "Version") n.version = value == "(null)" ? "" : value;
  else if (key == "SlurmdStartTime") {
    n.slurmd_start_time = parse_time(value);
    n.registered = n.slurmd_start_time.has_value();
  }
}

/// One record's text: KEY=VALUE words; a word without '=' continues the value before it
/// (OS=Linux 6.1 #1 SMP); Reason= runs to the end of its line.
void parse_node_record(std::string_view text, ControllerNode& n) {
  std::string key, value;
  auto flush = [&] {
    if (!key.empty()) set_text_field(n, key, value);
    key.clear();
    value.clear();
  };
  for (std::string_view line : lines_of(text)) {
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && is_space(line[i])) ++i;
      std::size_t end = i;
      while (end < line.size() && !is_space(line[end])) ++end;
      if (end == i) break;
      std::string_view word = line.substr(i, end - i);
      auto eq = word.find('=');
      if (eq != std::string_view::npos && eq > 0) {
        flush();
        key = std::string(word.substr(0, eq));
        if (key == "Reason") {
          set_reason(n, std::string(line.substr(i + eq + 1)));
          key.clear();
          break;
        }
        value = std::string(word.substr(eq + 1));
      } else if (!key.empty()) {
        value += ' ';
        value += word;
      }
      i = end;
    }
    flush();
  }
}

/// Maps sinfo's short state names (%T prints "drain", "inval", "down*") onto scontrol's.
std::string scontrol_state_name(std::string s) {
  s = to_lower(s);
  while (!s.empty() && std::string_view("*~#%$@^!-").find(s.back()) != std::string_view::npos) s.pop_back();
  static const std::pair<const char*, const char*> names[] = {
      {"drain", "DRAIN"}, {"drng", "DRAIN"}, {"drained", "DRAIN"}, {"draining", "DRAIN"}, {"inval", "INVALID_REG"},
      {"invalid", "INVALID_REG"}, {"down", "DOWN"}, {"fail", "FAIL"}, {"failg", "FAIL"}, {"failing", "FAIL"},
      {"idle", "IDLE"}, {"unk", "UNKNOWN"}, {"unknown", "UNKNOWN"}, {"alloc", "ALLOCATED"}, {"mix", "MIXED"}};
  for (const auto& [shortname, name] : names)
    if (s == shortname) return name;
  for (char& c : s) c = c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c;
  return s;
}

std::vector<std::string> expand_nodes(const std::string& expr) {
  std::vector<std::string> names;
  auto l = parse_hostlist(expr, Span{}, VersionProfile(known_versions().back()));
  if (!l.ok()) return {expr};
  l.list->for_each([&](const std::string& h, const HostRange&) { names.push_back(h); });
  return names;
}

/// Node name -> index into ControllerView::nodes, kept while sinfo's lines are merged.
using NodeIndex = std::unordered_map<std::string, std::size_t>;

void add_sinfo_reason(ControllerView& view, NodeIndex& index, const std::string& node, const std::string& state,
                      std::string reason, bool truncated, const std::string& user, const std::string& time) {
  auto [it, added] = index.emplace(node, view.nodes.size());
  if (added) view.nodes.emplace_back();
  ControllerNode* n = &view.nodes[it->second];
  if (added) {
    n->name = node;
    if (!state.empty()) set_state(*n, scontrol_state_name(state));
    if (state.find('*') != std::string::npos) n->not_responding = true;
    if (n->state.empty()) n->state.push_back("DRAIN");  // sinfo -R lists only unavailable nodes
  }
  reason = trim(reason);
  if (reason == "none") reason.clear();  // sinfo's word for a reason that is empty
  if (n->reason.empty()) {
    n->reason = reason;
    n->reason_truncated = truncated;
  }
  if (n->reason_user.empty()) n->reason_user = user;
  if (n->reason_time.empty()) n->reason_time = time;
}

bool read_file(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

/// The output without the lines scontrol and sinfo log while reading slurm.conf themselves
/// ("scontrol: error: ..."), which a capture made with 2>&1 holds.
std::string without_client_log(std::string_view text) {
  std::string kept;
  for (std::string_view line : lines_of(text))
    if (line.rfind("scontrol: ", 0) != 0 && line.rfind("sinfo: ", 0) != 0) {
      kept += line;
      kept += '\n';
    }
  return kept;
}

/// Adds one file's content to the view by what it holds; false when it holds none of it.
bool add_text(std::string_view raw, const std::string& label, ControllerView& view, std::ostream& err) {
  const std::string clean = without_client_log(raw);
  const std::string_view text = clean;
  switch (detect_state_kind(text)) {
    case StateKind::node_json: {
      std::vector<ControllerNode> nodes;
      std::string error;
      if (!parse_node_json(text, nodes, error)) {
        err << fmt::format("greslint: {}: {}\n", label, error);
        return false;
      }
      if (view.have_node_records) return true;  // the first node listing read wins (JSON sorts first)
      view.nodes = std::move(nodes);
      view.have_node_records = true;
      break;
    }
    case StateKind::node_text:
      if (view.have_node_records) return true;
      view.nodes = parse_node_text(text);
      view.have_node_records = true;
      break;
    case StateKind::sinfo:
      merge_sinfo_reasons(text, view);
      break;
    case StateKind::config:
      view.config = parse_show_config(text);
      break;
    case StateKind::unknown:
      return false;
  }
  view.sources.push_back(label);
  return true;
}

}  // namespace

StateKind detect_state_kind(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && is_space(text[i])) ++i;
  std::string_view t = text.substr(i);
  if (t.empty()) return StateKind::unknown;
  if (t.front() == '{') return StateKind::node_json;
  if (t.rfind("NodeName=", 0) == 0 || t.rfind("No nodes in the system", 0) == 0) return StateKind::node_text;
  if (t.rfind("Configuration data as of", 0) == 0) return StateKind::config;
  if (t.rfind("REASON", 0) == 0) return StateKind::sinfo;
  auto first_line = t.substr(0, t.find('\n'));
  if (std::count(first_line.begin(), first_line.end(), '|') >= 4) return StateKind::sinfo;
  return StateKind::unknown;
}

bool parse_node_json(std::string_view text, std::vector<ControllerNode>& nodes, std::string& error) {
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    error = "not the JSON of scontrol show node --json";
    return false;
  }
  auto list = doc.find("nodes");
  if (list == doc.end() || !list->is_array()) {
    error = "JSON without a \"nodes\" list (not scontrol show node --json)";
    return false;
  }
  for (const json& j : *list)
    if (j.is_object()) nodes.push_back(node_from_json(j));
  return true;
}

std::vector<ControllerNode> parse_node_text(std::string_view text) {
  std::vector<ControllerNode> nodes;
  // A record starts at each "NodeName=" at the start of a line (the -o form has one
  // record per line; the long form a block of indented lines).
  std::size_t start = std::string_view::npos;
  std::size_t pos = 0;
  auto close = [&](std::size_t end) {
    if (start == std::string_view::npos) return;
    ControllerNode n;
    parse_node_record(text.substr(start, end - start), n);
    if (!n.name.empty()) nodes.push_back(std::move(n));
  };
  while (pos < text.size()) {
    if (text.compare(pos, 9, "NodeName=") == 0) {
      close(pos);
      start = pos;
    }
    auto nl = text.find('\n', pos);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  close(text.size());
  return nodes;
}

void merge_sinfo_reasons(std::string_view text, ControllerView& view) {
  NodeIndex index;
  for (std::size_t i = 0; i < view.nodes.size(); ++i) index.emplace(view.nodes[i].name, i);
  bool table = false;
  for (std::string_view line : lines_of(text)) {
    if (trim(line).empty()) continue;
    if (line.rfind("REASON", 0) == 0) {
      table = true;
      continue;
    }
    if (!table) {  // NODE|STATE|USER|TIME|REASON (the reason may hold '|')
      std::vector<std::string> f;
      std::size_t from = 0;
      for (int k = 0; k < 4; ++k) {
        auto bar = line.find('|', from);
        if (bar == std::string_view::npos) break;
        f.emplace_back(line.substr(from, bar - from));
        from = bar + 1;
      }
      if (f.size() != 4) continue;
      for (const std::string& node : expand_nodes(trim(f[0])))
        add_sinfo_reason(view, index, node, trim(f[1]), std::string(line.substr(from)), false, trim(f[2]), trim(f[3]));
      continue;
    }
    // The default "%20E %9u %19H %N": the reason fills 20 columns (cut there), then one space.
    const std::string reason = trim(line.substr(0, std::min<std::size_t>(20, line.size())));
    std::istringstream rest(line.size() > 21 ? std::string(line.substr(21)) : std::string());
    std::string user, time, nodelist;
    rest >> user >> time >> nodelist;
    if (nodelist.empty()) continue;
    const bool truncated = line.size() >= 20 && !is_space(line[19]);
    for (const std::string& node : expand_nodes(nodelist))
      add_sinfo_reason(view, index, node, "", reason, truncated, user, time);
  }
}

ControllerConfig parse_show_config(std::string_view text) {
  ControllerConfig c;
  bool started = false;
  for (std::string_view line : lines_of(text)) {
    if (line.rfind("Configuration data as of", 0) == 0) {
      c.as_of = parse_time(line.substr(std::string_view("Configuration data as of").size()));
      started = true;
      continue;
    }
    if (trim(line).empty()) {
      if (started && !c.settings.empty()) break;  // the plugin sections follow
      continue;
    }
    auto eq = line.find(" = ");
    if (eq == std::string_view::npos) continue;
    std::string key = trim(line.substr(0, eq));
    if (key.empty() || key.find(' ') != std::string::npos) continue;
    std::string value = trim(line.substr(eq + 3));
    if (iequals(key, "BOOT_TIME")) c.boot_time = parse_time(value);
    c.names[to_lower(key)] = key;
    c.settings[to_lower(key)] = std::move(value);
  }
  return c;
}

bool read_state(const std::string& path, ControllerView& view, std::ostream& err) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    err << fmt::format("greslint: --state {}: no such file or folder\n", path);
    return false;
  }
  std::vector<std::string> files;
  if (S_ISDIR(st.st_mode)) {
    if (DIR* d = ::opendir(path.c_str())) {
      while (const dirent* e = ::readdir(d))
        if (e->d_name[0] != '.') files.push_back(join_path(path, e->d_name));
      ::closedir(d);
    }
    // JSON before the text form: the richer one wins when a folder holds both.
    std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
      auto rank = [](const std::string& f) { return f.size() >= 5 && f.compare(f.size() - 5, 5, ".json") == 0 ? 0 : 1; };
      return std::make_pair(rank(a), a) < std::make_pair(rank(b), b);
    });
  } else {
    files.push_back(path);
  }
  bool any = false;
  for (const std::string& f : files) {
    std::string text;
    const std::string label = S_ISDIR(st.st_mode) ? f.substr(f.find_last_of('/') + 1) : f;
    if (read_file(f, text)) any = add_text(text, label, view, err) || any;
  }
  view.origin += (view.origin.empty() ? "captured in " : ", ") + path;
  if (!any) err << fmt::format("greslint: --state {}: no scontrol or sinfo output in it\n", path);
  return any;
}

namespace {

/// Runs argv (found on PATH) and returns its standard output; nullopt when it cannot be
/// started or exits non-zero. Standard error is dropped: scontrol's own message is
/// repeated in ours.
std::optional<std::string> run_program(const std::vector<std::string>& args) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  ::posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(out[0]);
    return std::nullopt;
  }
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, std::size_t(n));
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return text;
}

}  // namespace

bool read_live(ControllerView& view, std::ostream& err) {
  view.live = true;
  view.origin = "asked now";
  // 22.05's scontrol has no --json (it came with 23.02): the one-line text stands in.
  if (auto j = run_program({"scontrol", "show", "node", "--json"})) {
    if (add_text(*j, "scontrol show node --json", view, err)) view.have_node_records = true;
  }
  if (!view.have_node_records) {
    auto t = run_program({"scontrol", "-o", "show", "node"});
    if (!t) {
      err << "greslint: scontrol -o show node failed: is slurmctld running, and SLURM_CONF pointing at its "
             "slurm.conf? (--state FILE reads captured output instead)\n";
      return false;
    }
    view.nodes = parse_node_text(*t);
    view.have_node_records = true;
    view.sources.push_back("scontrol -o show node");
  }
  if (auto s = run_program({"sinfo", "-R", "-N", "-h", "-o", "%N|%T|%u|%H|%E"})) {
    merge_sinfo_reasons(*s, view);
    view.sources.push_back("sinfo -R");
  }
  if (auto c = run_program({"scontrol", "show", "config"})) {
    view.config = parse_show_config(*c);
    view.sources.push_back("scontrol show config");
  }
  return true;
}

}  // namespace greslint::why
