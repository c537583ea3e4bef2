// SPDX-License-Identifier: Apache-2.0
#include "slurm_lists.hpp"

#include <algorithm>

#include "greslint/hostlist.hpp"
#include "util.hpp"

namespace greslint {

namespace {

// The default TRES of read_config.c (DEFAULT_ACCOUNTING_TRES, the same in 22.05-26.05).
constexpr std::string_view kDefaultTres = "cpu,mem,energy,node,billing,fs/disk,vmem,pages";

void add_to_list(std::vector<std::string>& list, std::string name) {
  for (char& c : name) c = to_lower(c);
  list.erase(std::remove(list.begin(), list.end(), name), list.end());
  list.push_back(std::move(name));
}

bool has_name(const std::vector<std::string>& list, std::string_view name) {
  return std::any_of(list.begin(), list.end(), [&](const std::string& s) { return iequals(s, name); });
}

std::string join_commas(const std::vector<std::string>& list) {
  std::string out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out += ',';
    out += list[i];
  }
  return out;
}

}  // namespace

void slurm_addto_char_list(std::vector<std::string>& list, std::string_view names, const VersionProfile& profile) {
  std::string s(names.substr(0, std::min(names.find('\0'), names.size())));
  std::size_t i = 0;
  char quote = '\0';
  if (!s.empty() && (s[0] == '"' || s[0] == '\'')) quote = s[i++];
  std::size_t start = i;
  const std::size_t count_before = list.size();
  bool after_bracket = false;  // a "]" ended the last name: the next comma only moves on
  bool in_bracket = false;     // commas inside "[...]" do not split
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (quote != '\0' && c == quote) break;
    if (c == '"' || c == '\'') {
      s[i] = '`';
    } else if (c == '[') {
      in_bracket = true;
    } else if (c == ',' && !in_bracket) {
      if (after_bracket) {
        after_bracket = false;
      } else {
        if (i + 1 == s.size()) break;  // a trailing comma is ignored
        if (i != start) add_to_list(list, s.substr(start, i - start));
      }
      start = i + 1;
    } else if (c == ']') {
      after_bracket = true;
      in_bracket = false;
      const std::string ranged = s.substr(start, i + 1 - start);
      HostlistResult hosts = parse_hostlist(ranged, Span{}, profile);
      if (hosts.ok() && hosts.list->size() > 0) {
        for (std::string& host : hosts.list->expand()) add_to_list(list, std::move(host));
        start = i + 1;
      }
    }
  }
  // Slurm adds what is left, and an empty name when nothing at all was added.
  if (list.size() == count_before || i > start) add_to_list(list, s.substr(start, i - start));
}

std::vector<std::string> accounting_tres_list(std::optional<std::string_view> configured, const VersionProfile& profile) {
  std::vector<std::string> tres;
  if (!configured) {
    slurm_addto_char_list(tres, kDefaultTres, profile);
    return tres;
  }
  std::string text;
  if (profile.version() < kSlurm2311) {
    text = std::string(*configured) + "," + std::string(kDefaultTres);
  } else {
    std::vector<std::string> merged;
    slurm_addto_char_list(merged, kDefaultTres, profile);
    slurm_addto_char_list(merged, *configured, profile);
    if (has_name(merged, "gres/gpu")) slurm_addto_char_list(merged, "gres/gpumem,gres/gpuutil", profile);
    // slurm_char_list_to_xstr sorts the list (strcmp order) before it joins it.
    std::sort(merged.begin(), merged.end());
    text = join_commas(merged);
  }
  slurm_addto_char_list(tres, text, profile);
  return tres;
}

bool is_known_tres_type(std::string_view tres) {
  for (std::string_view plain : {"cpu", "mem", "energy", "node", "billing", "vmem", "pages"})
    if (iequals(tres, plain)) return true;
  for (std::string_view named : {"bb/", "gres/", "license/", "fs/", "ic/"})
    if (tres.size() >= named.size() && iequals(tres.substr(0, named.size()), named)) return true;
  return false;
}

}  // namespace greslint
