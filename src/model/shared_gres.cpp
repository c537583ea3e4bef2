// SPDX-License-Identifier: Apache-2.0
#include "model/shared_gres.hpp"

#include <algorithm>
#include <deque>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace greslint::model {
namespace {

/// One record per device file, each of count 1 (_build_sharing_list). Records not spelt
/// exactly "gpu", and GPUs without File=, are not sharing devices: they stay as they are.
std::vector<GresRecord> take_sharing(std::vector<GresRecord>& gpu, bool split_multiple_files) {
  std::vector<GresRecord> sharing, rest;
  for (GresRecord& r : gpu) {
    if (r.name != "gpu" || !r.files) {
      rest.push_back(std::move(r));
    } else if (r.multiple_files && !split_multiple_files) {
      sharing.push_back(std::move(r));
    } else {
      // The paths move out first: a copy of the whole list per device is quadratic.
      std::vector<std::string> paths = std::move(r.paths);
      r.paths.clear();
      for (std::string& path : paths) {
        GresRecord one = r;
        one.count = 1;
        one.files = path;
        one.paths = {std::move(path)};
        sharing.push_back(std::move(one));
      }
    }
  }
  gpu = std::move(rest);
  return sharing;
}

/// The shared records, one per device file with Count/files each (the remainder is lost),
/// or the single File-less record (_build_shared_list). Records not spelt exactly like the
/// plugin stay where they are.
std::vector<GresRecord> take_shared(std::vector<GresRecord>& shared, std::string_view name, std::string& fatal) {
  std::vector<GresRecord> out, rest;
  bool fileless = false, with_file = false;
  for (GresRecord& r : shared) {
    if (r.name != name) {
      rest.push_back(std::move(r));
      continue;
    }
    if (!r.files) {
      if (fileless) fatal = "_build_shared_list: bad configuration, multiple configurations without \"File\"";
      else if (with_file) fatal = "_build_shared_list: multiple configurations with and without \"File\"";
      if (!fatal.empty()) break;
      fileless = true;
      out.push_back(std::move(r));
      continue;
    }
    if (fileless) {
      fatal = "gres/shared: multiple configurations with and without \"File\"";
      break;
    }
    with_file = true;
    const std::uint64_t per_file = r.count / r.paths.size();
    std::vector<std::string> paths = std::move(r.paths);
    r.paths.clear();
    for (std::string& path : paths) {
      GresRecord one = r;
      one.count = per_file;
      one.files = path;
      one.paths = {std::move(path)};
      out.push_back(std::move(one));
    }
  }
  shared = std::move(rest);
  return out;
}

/// A shared record on one sharing device: the device's file, type and cores; it points at
/// the shared line it came from, or (a count of 0 made up for the device) at the device.
GresRecord on_device(const GresRecord& device, std::string_view name, std::uint64_t count, const GresRecord* from) {
  GresRecord r;
  r.line = from ? from->line : nullptr;
  r.origin = from ? from->origin : device.span_of("File");
  r.name = std::string(name);
  r.type = device.type;
  r.count = count;
  r.files = device.files;
  r.paths = device.paths;
  r.multiple_files = device.multiple_files;
  r.cores = device.cores;
  r.core_bits = device.core_bits;
  return r;
}

}  // namespace

ShareOutcome share_devices(std::vector<GresRecord>& gpu, std::vector<GresRecord>& shared,
                           std::string_view shared_name, bool split_multiple_files) {
  ShareOutcome outcome;
  std::vector<GresRecord> sharing = take_sharing(gpu, split_multiple_files);
  std::vector<GresRecord> pieces = take_shared(shared, shared_name, outcome.fatal);
  if (!outcome.fatal.empty()) return outcome;
  if (sharing.empty() && !pieces.empty()) {
    outcome.fatal = "failed to merge SHARED and SHARING configuration";
    outcome.no_sharing = true;
    return outcome;
  }
  std::vector<GresRecord> placed;
  if (pieces.size() == 1 && !pieces.front().files) {
    // A File-less count is spread evenly, the later devices taking the remainder.
    std::uint64_t left = pieces.front().count;
    std::size_t devices = sharing.size();
    for (const GresRecord& device : sharing) {
      const std::uint64_t count = left / devices--;
      left -= count;
      placed.push_back(on_device(device, shared_name, count, &pieces.front()));
    }
  } else {
    // Each device takes the first piece with its exact file name, or gets a count of 0.
    // Pieces are looked up by file: a node can have tens of thousands of them.
    std::unordered_map<std::string_view, std::deque<std::size_t>> by_file;
    for (std::size_t i = 0; i < pieces.size(); ++i) by_file[*pieces[i].files].push_back(i);
    std::vector<bool> taken(pieces.size(), false);
    std::unordered_set<std::string_view> device_files;
    for (const GresRecord& device : sharing) {
      device_files.insert(*device.files);
      auto it = by_file.find(*device.files);
      if (it == by_file.end() || it->second.empty()) {
        placed.push_back(on_device(device, shared_name, 0, nullptr));
        continue;
      }
      const GresRecord& piece = pieces[it->second.front()];
      taken[it->second.front()] = true;
      it->second.pop_front();
      GresRecord r = on_device(device, shared_name, piece.count, &piece);
      r.flags = piece.flags;
      r.links = piece.links;
      if (!device.cores) r.cores = piece.cores, r.core_bits = piece.core_bits;
      placed.push_back(std::move(r));
    }
    for (std::size_t i = 0; i < pieces.size(); ++i)
      if (!taken[i]) outcome.discarded.push_back({pieces[i], *pieces[i].files, device_files.count(*pieces[i].files) > 0});
  }
  for (GresRecord& device : sharing) gpu.push_back(std::move(device));
  for (GresRecord& r : placed) shared.push_back(std::move(r));
  return outcome;
}

std::uint64_t shared_total(const std::vector<GresRecord>& records) {
  std::uint64_t total = 0;
  for (const GresRecord& r : records)
    if (is_shared_name(r.name)) total += r.count;
  return total;
}

}  // namespace greslint::model
