// SPDX-License-Identifier: Apache-2.0
// gres.conf's records as the model takes them, before any node is looked at.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "greslint/config.hpp"
#include "greslint/core_budget.hpp"
#include "greslint/model.hpp"
#include "greslint/report.hpp"
#include "greslint/source.hpp"
#include "greslint/version.hpp"

namespace greslint::model {

/// What the model makes of gres.conf from its text alone: nothing here depends on slurm.conf,
/// so it is made on the thread that read the file (ReadAhead), beside the node table.
struct GresRecords {
  /// Slurm's record list: every Name= record, then every NodeName= record, each in file
  /// order. Points into the file's directives.
  GresLines lines;
  std::vector<const GresLine*> global_lines;  ///< the Name= lines, which every node reads
  /// Per line, an id for what it says apart from the nodes it names (see gather_gres_records).
  GresLineIds contents;
  GresLineLists hostlists;  ///< the lines' lists of more than one plain host
  std::string autodetect;  ///< a global AutoDetect= (the last), else empty
  std::optional<KeyValue> autodetect_kv;
};

/// The records of `gres` (read into `sources`), each NodeName= line's hostlist checked
/// (kGresConfNodeNameStage, findings to `out`). `contents`: lines with equal ids give every
/// node they name the same records (their text after NodeName=..., whether they are NodeName=
/// lines, whether Slurm took all of them, how many Name= lines precede them).
/// Nothing in the result may move `gres`'s directives: the lines point into them. A large
/// file's directives are gathered in two halves at once when `cores` has a core free.
GresRecords gather_gres_records(const ConfigFile& gres, const VersionProfile& profile, const SourceManager& sources,
                                Reporter& out, CoreBudget* cores = nullptr);
/// The same, moving each directive `directives_by` file ids on (Directive::shift_file) as it
/// comes to it, before anything reads its spans (ReadAhead::Then).
GresRecords gather_gres_records(ConfigFile& gres, const VersionProfile& profile, const SourceManager& sources,
                                Reporter& out, CoreBudget* cores, std::uint16_t directives_by);

}  // namespace greslint::model
