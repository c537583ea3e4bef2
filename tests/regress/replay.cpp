// SPDX-License-Identifier: Apache-2.0
// Replays every saved fuzz input (tests/regress/<target>/*) through the fuzz target bodies of
// tests/fuzz/fuzz_targets.cpp, in the normal build and without libFuzzer: a crasher that comes
// back fails here (and under tests/../scripts/sanitize.sh, with ASan+UBSan watching).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_targets.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s tests/regress\n", argv[0]);
    return 2;
  }
  std::size_t replayed = 0;
  for (const char* name : {"reader", "hostlist", "gres_values", "pipeline", "limits"}) {
    const fs::path dir = fs::path(argv[1]) / name;
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> inputs;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') inputs.push_back(entry.path());
    std::sort(inputs.begin(), inputs.end());
    const greslint::fuzz::Target target = greslint::fuzz::find_target(name);
    for (const fs::path& input : inputs) {
      std::ifstream in(input, std::ios::binary);
      const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const auto start = std::chrono::steady_clock::now();
      target(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
      const auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      std::printf("ok %s/%s (%zu bytes, %.1f ms)\n", name, input.filename().c_str(), data.size(), ms);
      std::fflush(stdout);
      ++replayed;
    }
  }
  std::printf("%zu inputs replayed\n", replayed);
  return replayed > 0 ? 0 : 1;
}
