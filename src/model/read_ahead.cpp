// SPDX-License-Identifier: Apache-2.0
#include "model/read_ahead.hpp"

#include <system_error>
#include <utility>

namespace greslint::model {

ReadAhead::ReadAhead(const SourceManager& sources, Read read)
    : read_(std::move(read)), sources_(sources.continuation()) {
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error&) {
    run();  // no thread to be had (a process limit): the same read, on this thread
  }
}

ReadAhead::~ReadAhead() {
  if (thread_.joinable()) thread_.join();
}

void ReadAhead::run() noexcept {
  try {
    file_ = read_(sources_, out_);
  } catch (...) {
    error_ = std::current_exception();
  }
}

std::optional<ConfigFile> ReadAhead::finish(SourceManager& sources, Reporter& out) {
  if (thread_.joinable()) thread_.join();
  if (!sources.adopt(std::move(sources_))) return std::nullopt;
  out.absorb(std::move(out_));
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return std::move(file_);
}

}  // namespace greslint::model
