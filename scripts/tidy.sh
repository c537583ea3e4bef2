#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# clang-tidy over greslint's sources with the repository's .clang-tidy; exits non-zero on
# any finding. CI runs it (.ci/run); docs/ci.md.
#
# Usage: scripts/tidy.sh [--all | --write-base] [BUILD_DIR]   (a built tree:
#        compile_commands.json and ninja's header dependencies; default build)
#
# By default it checks the translation units whose result can differ from the last full run
# that passed, the commit named in .ci/tidy-base: every src/*.cpp that changed since then or
# includes a file that changed (ninja -t deps, so headers count), committed or not. Tidy's
# answer for a file depends only on the file, what it includes and the compile flags, so
# the others would give the same (empty) answer again; a full run takes ~370 s of the 2-core
# machine, which CI cannot spare. Everything is checked with --all, when .clang-tidy or this
# script changed, when the compile flags differ from the base's (a digest of the distinct
# command lines of src/, recorded with the base), or when the base is not an ancestor of
# HEAD. --write-base runs everything on a clean tree and, when it passes, records HEAD and
# the flags' digest in .ci/tidy-base (commit that file).
set -euo pipefail
cd "$(dirname "$0")/.."
all=false write_base=false
case "${1:-}" in
  --all) all=true; shift ;;
  --write-base) all=true; write_base=true; shift ;;
esac
build=${1:-build}
mapfile -t sources < <(git ls-files 'src/*.cpp')

# Tidy reads the build's compile commands without the precompiled header (GRESLINT_PCH):
# GCC's cannot be loaded by clang, and each source must compile from its own includes.
# In a unity build (GRESLINT_UNITY_BUILD, what scripts/test.sh builds) a batch's command
# compiles CMake's generated file that includes its sources: each source gets that command
# of its own, which is the command the build without batches would have given it.
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
python3 - "$build/compile_commands.json" >"$db/compile_commands.json" <<'PY'
import json, re, shlex, sys

def batch_sources(path):
    return re.findall(r'^#include "(.*)"$', open(path).read(), re.M)

def per_source(entry, args):
    """A batch's entry as one entry per source it includes; any other entry as it is."""
    if not re.search(r"/Unity/unity_[0-9]+_cxx\.cxx$", entry["file"]):
        return [(entry, args)]
    split = []
    for source in batch_sources(entry["file"]):
        own = [source if a == entry["file"] else a for a in args]
        split.append((dict(entry, file=source), own))
    return split

entries = []
for original in json.load(open(sys.argv[1])):
    args = shlex.split(original.pop("command")) if "command" in original else original["arguments"]
    for entry, args in per_source(original, args):
        kept, i = [], 0
        while i < len(args):
            arg, rest = args[i], args[i + 1:i + 4]
            if arg == "-Winvalid-pch":
                i += 1
            elif arg == "-include" and rest and "cmake_pch" in rest[0]:
                i += 2  # GCC: -include .../cmake_pch.hxx
            elif arg == "-Xclang" and len(rest) == 3 and rest[0] in ("-include", "-include-pch") and "cmake_pch" in rest[2]:
                i += 4  # clang: -Xclang -include-pch -Xclang .../cmake_pch.hxx.pch (and -include)
            else:
                kept.append(arg)
                i += 1
        entry["arguments"] = kept
        entries.append(entry)
json.dump(entries, sys.stdout, indent=1)
PY

# The distinct compile command lines of src/ (output and source paths dropped, the checkout's
# path made relative): what CMake's flags give tidy.
flags_digest() {
  python3 - "$db/compile_commands.json" "$PWD" <<'PY'
import hashlib, json, sys
root = sys.argv[2]
lines = set()
for entry in json.load(open(sys.argv[1])):
    if not entry["file"].startswith(root + "/src/"):
        continue
    args = entry["arguments"]  # the filtered database above writes arguments only
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg in ("-o", "-c"):
            skip = True
        else:
            kept.append(arg.replace(root, "."))
    lines.add(" ".join(kept))
print(hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest())
PY
}
flags=$(flags_digest)

if $write_base && { ! git diff --quiet HEAD -- src include || [ -n "$(git ls-files --others --exclude-standard src include)" ]; }; then
  echo "tidy: --write-base records HEAD, so src/ and include/ must have no uncommitted changes" >&2
  exit 2
fi

base=
if [ -e .ci/tidy-base ]; then base=$(grep -m 1 -E '^[0-9a-f]{40}$' .ci/tidy-base || true); fi
if ! $all && { [ -z "$base" ] || ! git merge-base --is-ancestor "$base" HEAD 2>/dev/null; }; then
  echo "tidy: .ci/tidy-base is not an ancestor of HEAD: checking everything"
  all=true
fi
if ! $all; then
  changed=$( { git diff --name-only "$base" HEAD; git diff --name-only HEAD; git ls-files --others --exclude-standard; } | sort -u)
  if grep -qE '^\.clang-tidy$|^scripts/tidy\.sh$' <<<"$changed"; then
    echo "tidy: the checks changed since $base: checking everything"
    all=true
  elif ! grep -qx "flags $flags" .ci/tidy-base; then
    echo "tidy: the compile flags differ from those of the run at $base: checking everything"
    all=true
  fi
fi

if $all; then
  files=("${sources[@]}")
else
  # ninja -t deps: "OBJECT: #deps N, ..." then one indented path per line, the source first.
  # A unity batch's object lists the headers of all its sources together: a changed header
  # there picks every source of the batch (a few more than need it, never fewer); a changed
  # source picks itself.
  mapfile -t files < <(ninja -C "$build" -t deps | python3 -c '
import re, sys
root, hit = sys.argv[1], set(filter(None, sys.argv[2].split("\n")))
picked, sources, first = set(), [], False
for line in sys.stdin:
    if not line.startswith(" "):
        first = True
        continue
    path = line.strip()
    if first:
        first = False
        if re.search(r"/Unity/unity_[0-9]+_cxx[.]cxx$", path):
            sources = re.findall(r"^#include \"(.*)\"$", open(path).read(), re.M)
        else:
            sources = [path]
        sources = [s[len(root):] if s.startswith(root) else s for s in sources]
        picked.update(hit.intersection(sources))
        continue
    if path.startswith(root):
        path = path[len(root):]
    if path in hit:
        picked.update([path] if path in sources else sources)
for source in sorted(picked):
    print(source)
' "$PWD/" "$changed")
  declare -A tracked=()
  for s in "${sources[@]}"; do tracked[$s]=1; done
  # greslint_core's sources see the headers of its precompiled header through that header
  # alone: ninja lists them as its deps, not theirs. A change to one of them can change
  # every source's result (a type every file uses), so then every source is picked.
  if grep -q 'greslint_core\.dir/cmake_pch' <<<"${files[*]:-}"; then files=("${sources[@]}"); fi
  # Only greslint's own sources (tests and fuzz targets are not tidied); a new source that
  # ninja has not built yet is picked up from the list of changed files.
  picked=()
  for f in "${files[@]}" $(grep -E '^src/.*\.cpp$' <<<"$changed" || true); do
    if [ -n "${tracked[$f]:-}" ]; then picked+=("$f"); fi
  done
  mapfile -t files < <(printf '%s\n' "${picked[@]}" | sort -u | sed '/^$/d')
  echo "tidy: ${#files[@]} of ${#sources[@]} translation units can differ from the full run at $base"
  if [ "${#files[@]}" -eq 0 ]; then exit 0; fi
fi
# keys.cpp's tables are std::arrays of 270 rows: past clang's default fold depth of 256.
run-clang-tidy-14 -p "$db" -quiet -extra-arg=-fbracket-depth=1024 "${files[@]/#/$PWD/}"
if $write_base; then
  printf '%s\nflags %s\n' "$(git rev-parse HEAD)" "$flags" >.ci/tidy-base
  echo "tidy: .ci/tidy-base now names $(git rev-parse --short HEAD); commit it"
fi
