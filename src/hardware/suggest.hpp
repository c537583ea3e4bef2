// SPDX-License-Identifier: Apache-2.0
// node-check --suggest: the slurm.conf NodeName line and the gres.conf lines that describe a
// node's hardware as Slurm sees it.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "greslint/hardware.hpp"

namespace greslint::node_check {

struct Suggestion {
  std::string node;
  std::string node_line;                ///< slurm.conf (GresTypes=gpu)
  std::vector<std::string> node_notes;  ///< about the NodeName line
  std::vector<std::string> gres_notes;  ///< before the gres.conf lines
  std::vector<std::string> gres_lines;
  std::vector<std::string> closing_notes;  ///< after them
};

Suggestion make_suggestion(const std::string& node, const HardwareInventory& hw, const VersionProfile& profile);
/// As text: comments and lines to paste.
void write_suggestion(const Suggestion& s, const VersionProfile& profile, std::ostream& out);
/// --format json: {"schema", "slurm_version", "nodes": [{"node", "slurm_conf", "gres_conf", "notes"}]}.
void write_suggestions_json(const std::vector<Suggestion>& all, const VersionProfile& profile, std::ostream& out);

}  // namespace greslint::node_check
