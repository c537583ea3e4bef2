// SPDX-License-Identifier: Apache-2.0
// The cluster model's data: slurm.conf node lines, gres.conf lines and the records slurmd
// builds from them, with the facts greslint learned while reading them. Section numbers
// refer to slurm-semantics.md. Everything here points into the ConfigFiles it came from
// (Cluster::files keeps them alive).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "greslint/config.hpp"
#include "greslint/hostlist.hpp"

namespace greslint {

/// slurm.conf's top-level settings by key, case-insensitive; the last one written wins.
class Settings {
 public:
  void set(const KeyValue& kv);
  /// The setting, or null when slurm.conf does not give it.
  const KeyValue* find(std::string_view key) const;

 private:
  /// By lower-cased key; copies, as a setting's pair is its directive's head, made on demand.
  std::unordered_map<std::string, KeyValue> by_key_;
};

/// A node's layout after Slurm's own corrections (§3.2).
struct Topology {
  std::uint32_t boards = 1, sockets = 1, cores = 1, threads = 1, cpus = 1;
  std::uint32_t core_count() const { return sockets * cores; }
};

/// One correction Slurm makes to a NodeName topology that does not add up (§3.2), with the
/// text Slurm logs after "NodeNames=<names> ".
struct TopologyReset {
  Span at;  ///< the value it corrects; invalid: the NodeName= value
  std::string text;
};

/// A node name given again in slurm.conf (Slurm refuses it; the model keeps the first).
struct DuplicateNode {
  std::uint32_t node;      ///< the node of that name (index into Cluster::node_names)
  Span span;               ///< where it is named again
  std::uint32_t position;  ///< how many distinct nodes slurm.conf names before it
};

/// Slurm's corrections of one NodeName line's topology, in the order Slurm applies them.
/// Performance: nearly every line has none, and an empty vector in each NodeLine was 2.4 MB
/// of a slurm.conf written node by node at 100,000 nodes.
class TopologyResets {
 public:
  TopologyResets() = default;
  TopologyResets(const TopologyResets& other) : list_(copy(other)) {}
  TopologyResets& operator=(const TopologyResets& other) {
    if (this != &other) list_ = copy(other);
    return *this;
  }
  TopologyResets(TopologyResets&&) noexcept = default;
  TopologyResets& operator=(TopologyResets&&) noexcept = default;
  ~TopologyResets() = default;

  bool empty() const noexcept { return !list_; }
  void push_back(TopologyReset reset) {
    if (!list_) list_ = std::make_unique<std::vector<TopologyReset>>();
    list_->push_back(std::move(reset));
  }
  const TopologyReset* begin() const noexcept { return list_ ? list_->data() : nullptr; }
  const TopologyReset* end() const noexcept { return list_ ? list_->data() + list_->size() : nullptr; }

 private:
  static std::unique_ptr<std::vector<TopologyReset>> copy(const TopologyResets& other) {
    return other.list_ ? std::make_unique<std::vector<TopologyReset>>(*other.list_) : nullptr;
  }
  std::unique_ptr<std::vector<TopologyReset>> list_;
};

/// One slurm.conf NodeName= line that names nodes (not DEFAULT, not ALL, a valid hostlist).
/// Values and spans only, no pointers to the line's pairs: a line that repeats an earlier
/// line's text after its name takes that line's NodeLine with the spans moved (build_nodes).
/// Performance: a slurm.conf written node by node has 100,000 of them; the names are read
/// from the directive, and the members are ordered to leave no padding (184 bytes before).
struct NodeLine {
  const Directive* d = nullptr;
  TopologyResets topology_resets;
  std::string_view gres;  ///< as written (after DEFAULT inheritance)
  std::string_view state;  ///< State= (after DEFAULT inheritance)
  std::string_view reason;  ///< Reason= (after DEFAULT inheritance): what scontrol shows of a DOWN or DRAIN node
  Topology topo;
  Span gres_span;
  Span state_span;  ///< where that State= value is written; invalid when none is
  Span restricted_cores_span;  ///< where RestrictedCoresPerGPU= is written; invalid when not set
  /// RestrictedCoresPerGPU= (24.05+, after DEFAULT inheritance); 0 when not set.
  std::uint32_t restricted_cores_per_gpu = 0;
  bool cloud = false;
  /// CoreSpecCount= or CpuSpecList= is set: some cores are the node's own (node_spec_bitmap).
  bool spec_cores = false;

  /// The NodeName= value: the names as written, and where.
  std::string_view names_text() const { return d->head_value(); }
  Span names_span() const { return d->head_value_span(); }
};

/// The nodes a gres.conf NodeName= line names: a view of its GresLine. Files generated node
/// by node name one plain host per line, so such a line names the host its head's value
/// holds (a view into the file's text) instead of a Hostlist: about 200 bytes less per line,
/// 40 MB at 100,000 nodes with two lines each.
class GresLineNodes {
 public:
  GresLineNodes(std::string_view host, const Hostlist* list, bool valid) : host_(host), list_(list), valid_(valid) {}

  explicit operator bool() const noexcept { return valid_; }
  std::uint64_t size() const noexcept { return list_ ? list_->size() : valid_ ? 1 : 0; }
  /// fn(const std::string& host) for each name, in Slurm's order.
  template <class Fn>
  void for_each(Fn&& fn) const {
    if (list_) {
      list_->for_each([&](const std::string& host, const HostRange&) { fn(host); });
    } else if (valid_) {
      const std::string host(host_);
      fn(host);
    }
  }

 private:
  std::string_view host_;
  const Hostlist* list_;
  bool valid_;
};

/// An allocator whose elements made without a value are left as they are (default-
/// initialised): a vector of a trivial type resized to its largest size touches no page until
/// its elements are written. Performance: the two threads that gather gres.conf's records
/// write them straight into one vector, each into its own range (model/gres_records.cpp).
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>& /*other*/) noexcept {}  // NOLINT(google-explicit-constructor): as std::allocator's
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// One gres.conf record line (Name= or NodeName=), before it is applied to a node. A file
/// written one line per GPU has 800,000 of them at 100,000 nodes: 16 bytes each, not 56.
/// Trivial, so that a GresLines made to its size is not written through: make one with `{}`.
struct GresLine {
  const Directive* d;
  std::uint32_t file_order;
  /// A NodeName= list other than one plain host (a plain host is the head's own value): 1 +
  /// its index among the lists the lines share (GresLineLists), 0 for none. An index, not a
  /// pointer: the per-node lines that have none were 8 bytes each.
  std::uint32_t hostlist : 29;
  bool node_scoped : 1;  ///< NodeName= record (else a global Name= record)
  bool nodes_valid : 1;  ///< false: an invalid hostlist, or a Name= line; matches nothing (C19)
  /// The line names one plain host, the one the line before it (a NodeName= line too) names
  /// alone. Performance: a file written one line per GPU names each node on eight lines
  /// running, and matching its lines to nodes read each line's directive for the name: a
  /// cache miss per line, most of matching 800,000 of them.
  bool same_host_as_previous : 1;
};
static_assert(std::is_trivially_default_constructible_v<GresLine>, "GresLines are sized before they are written");

/// gres.conf's record lines, and an id per line (what the line says: GresRecords::contents).
using GresLines = std::vector<GresLine, DefaultInitAllocator<GresLine>>;
using GresLineIds = std::vector<std::uint32_t, DefaultInitAllocator<std::uint32_t>>;

/// The hostlists of the gres.conf lines that name more than one plain host (GresLine::hostlist).
using GresLineLists = std::deque<Hostlist>;

inline GresLineNodes nodes_of(const GresLine& line, const GresLineLists& lists) {
  return GresLineNodes(line.d->head_value(), line.hostlist ? &lists[line.hostlist - 1] : nullptr, line.nodes_valid);
}

/// The keys of one gres.conf record line as slurmd's parser takes them (§5.1): Cores=, else
/// the older CPUs=; of File= and Files=, the one written later; the last of a key repeated.
struct GresLineKeys {
  /// Name= (a Name= line's head, which a directive makes on demand, hence a copy); none: the
  /// line has none.
  std::optional<KeyValue> name;
  const KeyValue* type = nullptr;
  const KeyValue* cores = nullptr;  ///< Cores= or CPUs=
  const KeyValue* file = nullptr;   ///< File= or Files=
  const KeyValue* multiple_files = nullptr;
  const KeyValue* autodetect = nullptr;
};
GresLineKeys keys_of(const GresLine& line);

/// One gres.conf record as slurmd holds it for one node (§5), or one slurmd makes up to
/// fill a slurm.conf count (then `line` is null and `origin` is the Gres= value).
struct GresRecord {
  const GresLine* line = nullptr;
  std::string name;
  std::optional<std::string> type;
  std::uint64_t count = 0;
  std::optional<std::string> files;  ///< File= or MultipleFiles= string
  std::vector<std::string> paths;
  bool multiple_files = false;
  std::optional<std::string> cores;
  std::optional<std::vector<std::uint32_t>> core_bits;  ///< nullopt: Cores= Slurm cannot read
  std::optional<std::string> links;
  std::string flags;
  Span origin;
  /// Where `key` is written on the record's line (its head value when absent).
  Span span_of(std::string_view key) const {
    if (!line) return origin;
    if (const KeyValue* kv = line->d->find(key)) return kv->value_span;
    return line->d->head().value_span;
  }
};

}  // namespace greslint
