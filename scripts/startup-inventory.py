#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""List the fatal() and error() calls Slurm's daemons reach at start-up, per release.

Reads a clone of SchedMD/slurm (the `fetch` mirror or any clone with the release tags) and
prints, for each start-up function greslint models, every fatal/error message format with the
releases that have it, in source order.  docs/startup-checks.md was built from this output and
then annotated by hand (condition, effect, greslint status); run it again after a new release to
see which rows appear or disappear:

    scripts/startup-inventory.py /work/.mirror/SchedMD+slurm/repo > /tmp/inventory.tsv

Only message texts (facts about the program's output) are extracted; no code is copied.
"""
import re
import subprocess
import sys

TAGS = ["slurm-22-05-8-1", "slurm-23-02-8-1", "slurm-23-11-11-1", "slurm-24-05-8-1",
        "slurm-24-11-7-1", "slurm-25-05-8-1", "slurm-25-11-7-1", "slurm-26-05-3-1"]
RELEASES = ["22.05", "23.02", "23.11", "24.05", "24.11", "25.05", "25.11", "26.05"]

# (stage, files tried in order (the file moved between releases), functions; None = all)
SOURCES = [
    ("slurm.conf records", ["src/common/read_config.c"],
     {"_parse_nodename", "_parse_partitionname", "_parse_slurmctld_host", "_push_to_hashtbls",
      "_validate_conf_nodeset_vs_nodenames"}),
    ("slurm.conf values", ["src/common/read_config.c"],
     {"_validate_and_set_defaults", "_load_slurmctld_host", "_validate_accounting_storage_enforce",
      "_validate_bcast_exclude", "_parse_select_type_param", "_health_node_state",
      "_parse_slurmctld_params", "_defunct_option", "slurm_conf_init", "_internal_reinit"}),
    ("select/linear parameters", ["src/interfaces/select.c", "src/common/select.c"], {"select_g_init"}),
    ("slurmctld main", ["src/slurmctld/controller.c"], {"main", "_init_tres", "_verify_clustername"}),
    ("GRES plugins", ["src/interfaces/gres.c", "src/common/gres.c"], {"gres_init", "_add_gres_context"}),
    ("cgroup.conf", ["src/interfaces/cgroup.c", "src/common/cgroup.c"],
     {"_read_slurm_cgroup_conf", "_defunct_option"}),
    ("nodes", ["src/common/node_conf.c"],
     {"expand_nodeline_info", "_check_callback", "create_node_record_at", "build_all_nodeline_info"}),
    ("partitions", ["src/slurmctld/read_config.c"],
     {"read_slurm_conf", "_build_all_partitionline_info", "_build_single_partitionline_info",
      "_build_bitmaps_pre_select", "_build_part_bitmaps", "_handle_downnodes_line",
      "_test_cgroup_plugin_use"}),
    ("select node init", ["src/plugins/select/cons_common/cons_common.c",
                          "src/plugins/select/cons_tres/select_cons_tres.c"], {"select_p_node_init"}),
]

CALL = re.compile(r'\b(fatal|error)\s*\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)')
# Slurm's style puts a function's opening brace on a line of its own.
FUNC = re.compile(r"^(?:static |extern )?[A-Za-z_][\w \*]*?\b(\w+)\((?:[^;{}])*?\)\s*\n\{", re.M)


def show(repo, tag, path):
    p = subprocess.run(["git", "-C", repo, "show", f"{tag}:{path}"], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


def messages(text, functions):
    """(function, kind, message) of every fatal/error call with a literal format, in file order."""
    starts = [(m.start(), m.group(1)) for m in FUNC.finditer(text)]
    out = []
    for m in CALL.finditer(text):
        fn = next((name for pos, name in reversed(starts) if pos < m.start()), "?")
        if functions and fn not in functions:
            continue
        msg = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)))
        out.append((fn, m.group(1), msg))
    return out


def span(indexes):
    if indexes == list(range(indexes[0], indexes[-1] + 1)):
        last = "+" if indexes[-1] == len(RELEASES) - 1 else "–" + RELEASES[indexes[-1]]
        return RELEASES[indexes[0]] + last
    return ",".join(RELEASES[i] for i in indexes)


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/SchedMD+slurm/repo"
    for stage, paths, functions in SOURCES:
        seen = {}
        for i, tag in enumerate(TAGS):
            text = next((t for t in (show(repo, tag, p) for p in paths) if t), None)
            if not text:
                continue
            for key in messages(text, functions):
                seen.setdefault(key, []).append(i)
        for (fn, kind, msg), rel in seen.items():
            print(f"{stage}\t{fn}\t{kind}\t{span(sorted(set(rel)))}\t{msg}")


if __name__ == "__main__":
    main()
