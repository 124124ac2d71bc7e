#!/bin/bash
# build_deb.sh — `make deb`: the Debian package built by Debian's tools
# from a copy of the tree's files (tracked and new, not ignored) in
# OUT/src/amdahl-VERSION, so dpkg-buildpackage writes its output (one
# folder up) into OUT and not beside the working tree. Prints the paths
# of the three packages (amdahl, libamdahl0, libamdahl-dev); lintian's findings, when lintian is installed, go to OUT/lintian.txt.
# Usage: tests/lib/build_deb.sh OUT
set -eu
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
version=$(dpkg-parsechangelog -l "$root/debian/changelog" -S Version)
src=$out/src/amdahl-$version
rm -rf "$out" && mkdir -p "$src"
out=$(cd "$out" && pwd); src=$out/src/amdahl-$version
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 -I{} sh -c '[ -e "{}" ] && echo "{}"' |
	tar -cf - -T -) | tar -xf - -C "$src"
(cd "$src" && nice dpkg-buildpackage -b -us -uc -j2) >"$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log" >&2; exit 1; }
mv "$out"/src/*_"$version"_*.deb "$out/"
debs=$(ls "$out"/*_"$version"_*.deb)
if command -v lintian >/dev/null; then
	lintian --no-tag-display-limit $debs >"$out/lintian.txt" 2>&1 || true
fi
echo "$debs"
