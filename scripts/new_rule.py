#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Start a new rule: its file, its registry lines, its docs page and its fixture folder.

    scripts/new_rule.py GRS120 gres-on-future-node node-name-line \\
        --follows node_conf.c:expand_nodeline_info --summary "Gres= on a FUTURE node is ignored"

writes
    src/rules/grs120_gres_on_future_node.cpp   RuleInfo and a check that reports nothing yet
    src/rules/rules.hpp                        its declarations, in id order (limits rules:
                                               src/rules/limits_rules.hpp)
    src/rules/registry.cpp                     its kRules row, and its check at the end of
                                               the chosen stage list (the policy and limits
                                               lists: src/rules/registry_policy.cpp)
    docs/rules/GRS120.md, docs/rules/index.md  the page skeleton, and its index line
    tests/fixtures/GRS120/slurm.conf           a fixture to fill with the failing case

Then write the check, move its entry to where Slurm makes the check in the stage list, and
fill in the docs page and the fixture (CONTRIBUTING.md, "Adding a rule").
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Stage name on the command line -> (list in registry.cpp or registry_policy.cpp, view in src/rules/views.hpp).
STAGES = {
    "slurm-conf-records": ("kSlurmConfRecords", "SlurmConfView"),
    "slurm-conf-values": ("kSlurmConfValues", "SlurmConfView"),
    "license-init": ("kLicenseInit", "SlurmConfView"),
    "select-plugin": ("kSelectPlugin", "SelectPluginView"),
    "accounting-tres": ("kAccountingTres", "SlurmConfView"),
    "priority-init": ("kPriorityInit", "SlurmConfView"),
    "cgroup-conf": ("kCgroupConf", "CgroupConfView"),
    "read-slurm-conf": ("kReadSlurmConf", "SlurmConfView"),
    "node-table": ("kNodeTable", "NodeTableView"),
    "select-node-init": ("kSelectNodeInit", "NodeTableView"),
    "gres-conf-nodename": ("kGresConfNodeName", "GresConfLineView"),
    "gres-conf-unknown-nodes": ("kGresConfUnknownNodes", "UnknownNodesView"),
    "gres-types": ("kGresTypes", "GresTypesView"),
    "node-name-line": ("kNodeNameLine", "NodeNameLineView"),
    "node-address": ("kNodeAddress", "NodeAddressView"),
    "node-address-count": ("kNodeAddressCount", "NodeAddressView"),
    "node-names": ("kNodeNames", "NodeNameLineView"),
    "partition": ("kPartition", "PartitionView"),
    "node-gres": ("kNodeGres", "NodeGresView"),
    "gres-conf-autodetect": ("kGresConfAutoDetect", "GresLoadView"),
    "gres-record": ("kGresRecord", "GresRecordView"),
    "gres-record-after-files": ("kGresRecordAfterFiles", "GresRecordView"),
    "gres-node-records": ("kGresNodeRecords", "GresLoadView"),
    "gres-name": ("kGresName", "GresNameView"),
    "gres-plugin-load": ("kGresPluginLoad", "GresPluginView"),
    "registration-count": ("kRegistrationCount", "RegistrationView"),
    "registration-topology": ("kRegistrationTopology", "RegistrationView"),
    "registration-node": ("kRegistrationNode", "NodeRegistrationView"),
    "cluster-policy": ("kClusterPolicy", "PolicyView"),
    "gpu-partition": ("kGpuPartition", "GpuPartitionView"),
    "cluster-policy-nodes": ("kClusterPolicyNodes", "PolicyView"),
    "limits": ("kLimits", "LimitsView"),
}
# The header that declares a stage's rules and its view, where it is not rules.hpp: the
# limits rules (GRS42x) and the node-registration rules live apart so that adding one does
# not rebuild every rule.
HEADERS = {"kLimits": "src/rules/limits_rules.hpp", "kRegistrationNode": "src/rules/node_registration_rules.hpp"}
SEVERITIES = ("error", "warning", "note")
EFFECTS = ("none", "fatal", "drain", "degraded", "advice")
DAEMONS = ("none", "slurmctld", "slurmd")


def fail(message):
    sys.exit("new_rule.py: " + message)


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def write(root, path, text, new=False):
    full = os.path.join(root, path)
    if new and os.path.exists(full):
        fail(f"{path} exists already")
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def insert_sorted(lines, new_line, key_re, rid):
    """Inserts new_line before the first line whose key_re id sorts after rid, after the
    last one that sorts before it."""
    last = None
    for i, line in enumerate(lines):
        m = re.search(key_re, line)
        if not m:
            continue
        if m.group(1) == rid:
            fail(f"{rid} is registered already")
        if m.group(1) > rid:
            lines.insert(i, new_line)
            return
        last = i
    if last is None:
        fail(f"found no line matching {key_re}")
    lines.insert(last + 1, new_line)


def header_of(stage_list):
    return HEADERS.get(stage_list, "src/rules/rules.hpp")


def rule_file(a, view, header):
    include = header[len("src/"):] if header != "src/rules/rules.hpp" else "rules.hpp"
    return f"""// SPDX-License-Identifier: Apache-2.0
// {a.id} {a.name}: {a.summary} (docs/rules/{a.id}.md).
#include <fmt/format.h>

#include "{include}"

namespace greslint::rules {{

const RuleInfo {a.id}{{"{a.id}", "{a.name}", Severity::{a.severity}, Effect::{a.effect}, Daemon::{a.daemon},
                      "{a.summary}"}};

// Follows {a.follows}.
Outcome {a.fn}(const {view}& v, Findings& out) {{
  return Outcome::proceed();
}}

}}  // namespace greslint::rules
"""


def add_declarations(root, a, view, header):
    lines = read(root, header).split("\n")
    decl = f"extern const RuleInfo {a.id};  // {a.name}\nOutcome {a.fn}(const {view}&, Findings&);"
    insert_sorted(lines, decl, r"^extern const RuleInfo (GRS\d{3});", a.id)
    write(root, header, "\n".join(lines))


# The files that hold stage lists: the configuration's steps, then the cluster's policy and
# the QOS and association limits.
REGISTRY_LIST_FILES = ("src/rules/registry.cpp", "src/rules/registry_policy.cpp")


def add_registry_lines(root, a, stage_list):
    lines = read(root, "src/rules/registry.cpp").split("\n")
    insert_sorted(lines, f'    {{"{a.id}", &{a.id}}},', r'^\s*\{"(GRS\d{3})", &GRS\d{3}\},', a.id)
    write(root, "src/rules/registry.cpp", "\n".join(lines))
    for path in REGISTRY_LIST_FILES:
        lines = read(root, path).split("\n")
        start = next((i for i, l in enumerate(lines) if re.match(rf"^constexpr Check<\w+> {stage_list}\[\] = \{{", l)),
                     None)
        if start is None:
            continue
        end = next(i for i in range(start, len(lines)) if lines[i].startswith("};"))
        lines.insert(end, f'    {{&{a.id}, {a.fn}, "{a.follows}"}},')
        write(root, path, "\n".join(lines))
        return
    fail(f"no stage list {stage_list} in {' or '.join(REGISTRY_LIST_FILES)}")


def docs_page(a):
    return f"""# {a.id} {a.name}
Severity: {a.severity} · Effect: {a.effect} ({a.daemon}) · Files: slurm.conf · Slurm versions: all modelled (22.05–26.05)

Summary: {a.summary}.

## What it does

## Why it matters

## Example

## Fix

## When to suppress

Put `# greslint: disable={a.id}` on the line above the offending line, or
`# greslint: disable-file={a.id}` anywhere in the file.

## References

- `{a.follows}`
"""


def add_index_line(root, a):
    lines = read(root, "docs/rules/index.md").split("\n")
    insert_sorted(lines, f"| [{a.id}]({a.id}.md) | {a.name} | {a.severity} | {a.summary} |",
                  r"^\| \[(GRS\d{3})\]", a.id)
    write(root, "docs/rules/index.md", "\n".join(lines))


def fixture(a):
    return f"""# {a.id} {a.name}: {a.summary}.
ClusterName=demo
SlurmctldHost=head01
GresTypes=gpu
SelectType=select/cons_tres
TaskPlugin=task/affinity,task/cgroup
ProctrackType=proctrack/cgroup
NodeName=gpu[01-02] Sockets=2 CoresPerSocket=16 ThreadsPerCore=2 Gres=gpu:1
PartitionName=gpu Nodes=gpu[01-02] Default=YES
"""


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("id", help="GRSnnn, not yet taken")
    p.add_argument("name", help="kebab-case name, stable once released")
    p.add_argument("stage", choices=sorted(STAGES), help="the step of Slurm's processing the check follows")
    p.add_argument("--follows", required=True, help='the Slurm function the check follows, "file.c:function"')
    p.add_argument("--summary", required=True, help="one line: what is wrong and what Slurm does")
    p.add_argument("--severity", choices=SEVERITIES, default="error")
    p.add_argument("--effect", choices=EFFECTS, default="fatal")
    p.add_argument("--daemon", choices=DAEMONS, default="slurmctld")
    p.add_argument("--root", default=ROOT, help="the repository to write into (default: this one)")
    a = p.parse_args()
    if not re.fullmatch(r"GRS\d{3}", a.id):
        fail("the id is GRS and three digits")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", a.name):
        fail("the name is kebab-case")
    if not re.fullmatch(r"[\w/.]+\.c:\w+", a.follows):
        fail('--follows is "file.c:function"')
    a.summary = a.summary.rstrip(".")
    if '"' in a.summary or "\\" in a.summary:
        fail("the summary holds no quotes or backslashes")
    a.fn = "check_" + a.id.lower()
    stage_list, view = STAGES[a.stage]
    stem = a.id.lower() + "_" + a.name.replace("-", "_")
    root = a.root
    header = header_of(stage_list)
    for h in sorted({"src/rules/rules.hpp", *HEADERS.values()}):
        if re.search(rf"^extern const RuleInfo {a.id};", read(root, h), re.M):
            fail(f"{a.id} is registered already")
    write(root, f"src/rules/{stem}.cpp", rule_file(a, view, header), new=True)
    add_declarations(root, a, view, header)
    add_registry_lines(root, a, stage_list)
    write(root, f"docs/rules/{a.id}.md", docs_page(a), new=True)
    add_index_line(root, a)
    write(root, f"tests/fixtures/{a.id}/slurm.conf", fixture(a), new=True)
    print(f"wrote src/rules/{stem}.cpp, docs/rules/{a.id}.md, tests/fixtures/{a.id}/slurm.conf;"
          f" registered {a.id} in {stage_list}")


if __name__ == "__main__":
    main()
