#!/usr/bin/env bash
# Builds the .deb with CPack, unpacks it into a scratch root and runs the packaged binary.
# Usage: test_deb.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work/out" >/dev/null)
deb=$(ls "$work"/out/greslint_*.deb)
info=$(dpkg-deb --info "$deb")
dpkg-deb -x "$deb" "$work/root"
# The default build links greslint statically (GRESLINT_STATIC_RUNTIME): the package then
# needs no library. A dynamic build must declare what it links (CPACK_DEBIAN_PACKAGE_SHLIBDEPS).
if file "$work/root/usr/bin/greslint" | grep -q "statically linked"; then
  if grep -q "Depends:.*lib" <<<"$info"; then echo "$info"; echo "FAIL: a static binary with library dependencies"; exit 1; fi
else
  grep -q "Depends:.*libfmt" <<<"$info" || { echo "$info"; echo "FAIL: no shared-library dependencies"; exit 1; }
fi
for f in usr/bin/greslint usr/bin/greslint-pre-commit usr/bin/greslint-collect-gpu-inventory usr/share/man/man1/greslint.1 usr/share/doc/greslint/rules/GRS301.md \
         usr/share/bash-completion/completions/greslint usr/share/zsh/site-functions/_greslint; do
  [ -e "$work/root/$f" ] || { echo "FAIL: $f is not in the package"; exit 1; }
done
"$work/root/usr/bin/greslint" --version | grep -q "^greslint "
set +e
"$work/root/usr/bin/greslint" "$src/examples/broken" --slurm-version 22.05 --color never > "$work/out.txt"
rc=$?
set -e
[ "$rc" -eq 1 ] || { echo "FAIL: packaged greslint exited $rc on examples/broken"; exit 1; }
grep -q "GRS301 count-lower-than-configured" "$work/out.txt"
echo "package $(basename "$deb") installs and runs"
