// SPDX-License-Identifier: Apache-2.0
#include "limits/limits_check.hpp"

#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "rules/limits_rules.hpp"

namespace greslint::limits {

bool load_limits(SourceManager& sources, const std::vector<std::string>& paths, LimitsDb& db, std::ostream& err) {
  for (const std::string& path : paths) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
      err << fmt::format("greslint: cannot read limits file {}\n", path);
      return false;
    }
    std::ostringstream s;
    s << f.rdbuf();
    const FileId file = sources.add(path, s.str());
    if (auto e = read_limits(sources, file, db)) {
      const LineCol lc = sources.line_col(file, e->span.begin);
      err << fmt::format("greslint: {}:{}:{}: {}\n", path, lc.line, lc.column, e->message);
      return false;
    }
  }
  return true;
}

void check_limits(const Cluster& cluster, const Pool& pool, SlurmVersion version, const LimitsDb& db, Reporter& out) {
  const VersionProfile profile(version);
  const rules::LimitsView view{profile, db, pool};
  model::Findings findings(out);
  for (const auto& check : rules::kLimitsStage) check.run(view, findings);
  findings.flush(cluster);
}

}  // namespace greslint::limits
