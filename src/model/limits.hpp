// SPDX-License-Identifier: Apache-2.0
// greslint's own stops (docs/robustness.md): the model turns hostlists into names, and one
// token can name 2^31 hosts (Slurm's int), a line can hold many such tokens, a file many
// lines. No real cluster comes near either limit.
#pragma once

#include <cstdint>
#include <string>

#include "greslint/source.hpp"

namespace greslint::model {

constexpr std::uint64_t kMaxNodes = std::uint64_t(1) << 20;          ///< slurm.conf nodes
constexpr std::uint64_t kMaxExpandedNames = std::uint64_t(1) << 24;  ///< names made from hostlists, one run

/// Thrown past those limits; analyze() turns it into one finding at `span` (none when the
/// message is empty: the reader has reported a file it stopped reading).
struct LimitExceeded {
  Span span;
  std::string message;
};

}  // namespace greslint::model
