// SPDX-License-Identifier: Apache-2.0
// GRS104 address-on-default-node: NodeAddr/NodeHostname/BcastAddr on NodeName=DEFAULT: the daemons refuse the configuration (docs/rules/GRS104.md).
#include <fmt/format.h>

#include "rules.hpp"
#include "rules/startup_words.hpp"
#include "util.hpp"

namespace greslint::rules {

const RuleInfo GRS104{"GRS104", "address-on-default-node", Severity::error, Effect::fatal, Daemon::slurmctld,
                      "NodeAddr/NodeHostname/BcastAddr on NodeName=DEFAULT: the daemons refuse the configuration"};

// read_config.c refuses per-node addresses on the DEFAULT line, which every later line
// would inherit. _parse_nodename is a record handler: the refused record fails the parse
// of slurm.conf, so slurmctld stops with the generic fatal before any plugin loads.
Outcome check_grs104(const SlurmConfView& v, Findings& out) {
  bool refused = false;
  for (const Directive* line : v.index.records("NodeName")) {
    const Directive& d = *line;
    if (!iequals(d.head().value, "DEFAULT")) continue;
    for (std::string_view forbidden : {"NodeHostname", "NodeAddr", "BcastAddr"}) {
      const KeyValue* kv = d.find(forbidden);
      if (!kv) continue;
      out.report(GRS104, kv->key_span, fmt::format("{} is not allowed on NodeName=DEFAULT", kv->spec->name))
          .slurm(fmt::format("{} not allowed with NodeName=DEFAULT", kv->spec->name))
          .help(fmt::format("move {} to the lines that name the nodes", kv->spec->name));
      refused = true;
    }
  }
  return refused ? Outcome::slurmctld_fatal_replacing(std::string(kUnableToProcess)) : Outcome::proceed();
}

}  // namespace greslint::rules
