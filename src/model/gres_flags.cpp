// SPDX-License-Identifier: Apache-2.0
#include "model/gres_flags.hpp"

#include "util.hpp"

namespace greslint::model {
namespace {
namespace flag_bits {
constexpr std::uint32_t count_only = 1u << 0, nvidia = 1u << 1, amd = 1u << 2, intel = 1u << 3, opencl = 1u << 4,
                        one_sharing = 1u << 5, all_sharing = 1u << 6, no_gpu_env = 1u << 7, explicit_ = 1u << 8,
                        env_uuid = 1u << 9, env_default = 1u << 10;
constexpr std::uint32_t env = nvidia | amd | intel | opencl | no_gpu_env;
}  // namespace flag_bits

std::uint32_t parse_flags(std::string_view text, const VersionProfile& profile) {
  using namespace flag_bits;
  std::uint32_t f = 0;
  if (icontains(text, "CountOnly")) f |= count_only;
  if (icontains(text, "nvidia_gpu_env")) f |= nvidia;
  if (icontains(text, "amd_gpu_env")) f |= amd;
  if (icontains(text, "intel_gpu_env")) f |= intel;
  if (icontains(text, "opencl_env")) f |= opencl;
  if (icontains(text, "one_sharing")) f |= one_sharing;
  if (icontains(text, "all_sharing")) f |= all_sharing;
  if (icontains(text, "no_gpu_env")) f |= no_gpu_env;
  if (profile.has_flag("explicit") && icontains(text, "explicit")) f |= explicit_;
  if (profile.has_flag("env_uuid") && icontains(text, "env_uuid")) f |= env_uuid;
  return f;
}

}  // namespace

PreviousFlags::Check PreviousFlags::take(const std::string& name, const KeyValue* flags,
                                         const VersionProfile& profile) {
  using namespace flag_bits;
  bool defaults = true;
  if (flags) {
    std::uint32_t f = parse_flags(flags->value, profile);
    if ((f & no_gpu_env) && (f & env & ~no_gpu_env)) return Check::no_gpu_env_mixed;
    if (!(f & env) && profile.flags_without_env_take_defaults()) {
      if (iequals(name, "gpu"))
        name_ = name, word_ = nvidia | amd | intel | opencl | env_default | (f & env_uuid), remembered_ = true;
      return Check::ok;
    }
    // 22.05 remembers the env words only, and a Flags= without one (CountOnly, a sharing
    // word) takes the defaults like a line without Flags; 23.02+ remembers the whole word,
    // with the one_sharing that mps implies.
    std::uint32_t word = f & env;
    if (profile.flags_compare_whole_word()) {
      if (iequals(name, "mps") && !(f & (one_sharing | all_sharing))) f |= one_sharing;
      word = f & ~all_sharing;
    }
    if (word || profile.flags_compare_whole_word()) {
      defaults = false;
      if (remembered_ && name == name_ && word != word_) return Check::differs;
      name_ = name, word_ = word, remembered_ = true;
    }
  } else if (remembered_ && word_ && name == name_) {
    defaults = false;  // inherits them
  }
  if (defaults && iequals(name, "gpu"))
    name_ = name, word_ = nvidia | amd | intel | opencl | env_default, remembered_ = true;
  return Check::ok;
}

bool counts_only(const std::vector<GresRecord>& records, const std::string& name) {
  for (const GresRecord& r : records)
    if (iequals(r.name, name)) return icontains(r.flags, "CountOnly");
  return false;
}

}  // namespace greslint::model
