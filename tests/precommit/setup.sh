# SPDX-License-Identifier: Apache-2.0
# What both pre-commit hook tests share, sourced with their arguments (GRESLINT_BINARY
# SOURCE_DIR): greslint and greslint-pre-commit on PATH in a scratch HOME, git that commits
# without a configured identity, fail(), and the hook repository: a git copy of the hook
# definition at $hooks, its commit in $rev. The caller's scratch directory is $work.
set -euo pipefail
greslint=$1
src=$2
command -v pre-commit >/dev/null || { echo "pre-commit is not installed (scripts/install-deps.sh --test installs Debian's)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$work/bin"
mkdir -p "$bin"
ln -s "$greslint" "$bin/greslint"
ln -s "$src/scripts/greslint-pre-commit" "$bin/greslint-pre-commit"
export PATH="$bin:$PATH" HOME="$work/home" PRE_COMMIT_HOME="$work/cache" XDG_CACHE_HOME="$work/xdg"
mkdir -p "$HOME"
git() { command git -c user.email=t@t -c user.name=t -c init.defaultBranch=main "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

hooks="$work/hooks"
mkdir -p "$hooks"
cp "$src/.pre-commit-hooks.yaml" "$hooks/"
git -C "$hooks" init -q
git -C "$hooks" add .
git -C "$hooks" commit -qm hooks
rev=$(git -C "$hooks" rev-parse HEAD)
