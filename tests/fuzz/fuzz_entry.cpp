// SPDX-License-Identifier: Apache-2.0
// libFuzzer entry point; GRESLINT_FUZZ_TARGET names the body in fuzz_targets.cpp.
#include "fuzz_targets.hpp"

#ifndef GRESLINT_FUZZ_TARGET
#error "define GRESLINT_FUZZ_TARGET (reader, hostlist, gres_values or pipeline)"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return greslint::fuzz::GRESLINT_FUZZ_TARGET(data, size);
}
