// SPDX-License-Identifier: Apache-2.0
// DirectiveList: a file's directives in blocks that never move.
#include <algorithm>
#include <stdexcept>

#include "greslint/config.hpp"

namespace greslint {

std::size_t DirectiveList::block_of(std::size_t i) const noexcept {
  // The last block that starts at or before `i`: an empty block starts where the next one
  // does, and only the last block may be empty.
  const auto after = std::upper_bound(starts_.begin(), starts_.end(), i);
  return std::size_t(after - starts_.begin()) - 1;
}

Directive* DirectiveList::locate(std::size_t i) noexcept {
  const std::size_t b = block_of(i);
  return blocks_[b].data() + (i - starts_[b]);
}

const Directive* DirectiveList::locate(std::size_t i) const noexcept {
  const std::size_t b = block_of(i);
  return blocks_[b].data() + (i - starts_[b]);
}

const Directive& DirectiveList::at(std::size_t i) const {
  if (i >= size_) throw std::out_of_range("DirectiveList::at");
  return *locate(i);
}

DirectiveList::iterator DirectiveList::iterator_at(std::size_t i) noexcept {
  if (i >= size_) return end();
  const std::size_t b = block_of(i);
  return iterator(&blocks_, b, i - starts_[b]);
}

DirectiveList::const_iterator DirectiveList::iterator_at(std::size_t i) const noexcept {
  if (i >= size_) return end();
  const std::size_t b = block_of(i);
  return const_iterator(&blocks_, b, i - starts_[b]);
}

std::vector<Directive>& DirectiveList::add_block(std::size_t capacity) {
  if (blocks_.empty() || !blocks_.back().empty()) {
    blocks_.emplace_back();
    starts_.push_back(size_);
  }
  std::vector<Directive>& block = blocks_.back();
  // Empty, so nothing moves: the room is reserved address space until written.
  block.reserve(capacity);
  return block;
}

void DirectiveList::append(DirectiveList&& later) {
  for (std::vector<Directive>& block : later.blocks_) {
    if (block.empty()) continue;
    if (!blocks_.empty() && blocks_.back().empty()) {
      blocks_.pop_back();
      starts_.pop_back();
    }
    starts_.push_back(size_);
    size_ += block.size();
    blocks_.push_back(std::move(block));
  }
  later.blocks_.clear();
  later.starts_.clear();
  later.size_ = 0;
}

}  // namespace greslint
