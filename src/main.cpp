// SPDX-License-Identifier: Apache-2.0
// Command-line wiring only: parse options with CLI11, then hand over to the commands.
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"greslint: lint Slurm GPU/GRES configuration before a daemon restart"};
  CLI11_PARSE(app, argc, argv);
  return 0;
}
