// SPDX-License-Identifier: Apache-2.0
// Catch2's main lives alone so the test files compile quickly.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
