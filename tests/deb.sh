#!/bin/bash
# deb.sh — `make test-deb`: the package `make deb` built into OUT, checked
# with dpkg's own tools: its control (Depends computed by dpkg-shlibdeps
# from the libraries the binary links), its files (binary, extension,
# templates, a page per command in amdahl; the library with its soname in
# libamdahl0; headers, amdahl.pc and the -dev packages it needs in
# libamdahl-dev); then unpacked into a scratch root (dpkg-deb -x) and used
# from another directory: ingest and report build on the bundled sweep,
# and a C program built with the package's amdahl.pc reads the store.
# tests/deb_chroot.sh installs them with apt-get in a minimal Debian chroot.
# Not part of `make test` (it builds the tree again: minutes on 2 cores).
# Usage: tests/deb.sh OUT
set -u
out=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/amdahl-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # DESC CMD...
	local d=$1; shift
	if "$@" >"$tmp/last" 2>&1; then echo "ok - $d"; pass=$((pass + 1))
	else echo "not ok - $d"; sed 's/^/#   /' "$tmp/last" | head -10; fail=$((fail + 1)); fi
}
deb=$(ls "$out"/amdahl_*.deb 2>/dev/null | head -1)
lib=$(ls "$out"/libamdahl0_*.deb 2>/dev/null | head -1)
dev=$(ls "$out"/libamdahl-dev_*.deb 2>/dev/null | head -1)
check "make deb built amdahl, libamdahl0 and libamdahl-dev" test -f "$deb" -a -f "$lib" -a -f "$dev"
[ -f "$deb" ] && [ -f "$lib" ] && [ -f "$dev" ] || { echo "0 passed, 1 failed"; exit 1; }
multi=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
depends=$(dpkg-deb -f "$deb" Depends)
# libcurl4: named by debian/control (amdahl loads it with dlopen, where
# dpkg-shlibdeps cannot see it); libcairo2: amdahl-report links it
for l in libsqlite3-0 libcairo2 libcjson1 libyajl2 libgsl27 libcurl4 libyaml-0-2 fonts-dejavu-core; do
	check "amdahl's Depends names $l (dpkg-shlibdeps)" grep -q "$l" <<<"$depends"
done
holds() { # PACKAGE FILE...: the package's file list has each FILE
	local p=$1; shift
	dpkg-deb -c "$p" | awk '{print $6}' | sed 's|^\./|/|' >"$tmp/files"
	for f in "$@"; do grep -qxF "$f" "$tmp/files" || { echo "$f not in $p"; return 1; }; done
}
check "amdahl holds the command, its drawing half, extension, templates, pages and copyright" holds "$deb" /usr/bin/amdahl \
	/usr/libexec/amdahl/amdahl-report \
	/usr/lib/$multi/amdahl/amdahl_metric.so /usr/share/amdahl/templates/summary.md \
	/usr/share/man/man1/amdahl-gate.1.gz /usr/share/man/man5/amdahl.yaml.5.gz /usr/share/doc/amdahl/copyright
check "libamdahl0 holds the shared library under its soname" holds "$lib" /usr/lib/$multi/libamdahl.so.0
check "libamdahl-dev holds headers, static library, the .so link and amdahl.pc" holds "$dev" \
	/usr/include/amdahl/amdahl.h /usr/lib/$multi/libamdahl.a /usr/lib/$multi/libamdahl.so \
	/usr/lib/$multi/pkgconfig/amdahl.pc
check "the command stands alone: it links the library in, and does not depend on libamdahl0" \
	bash -c "! grep -q libamdahl0 <<<'$depends'"
r=$tmp/root
for p in "$deb" "$lib" "$dev"; do dpkg-deb -x "$p" "$r"; done
check "the library's soname is libamdahl.so.0" sh -c \
	"readelf -d '$r/usr/lib/$multi/libamdahl.so.0' | grep -q 'SONAME.*\[libamdahl.so.0\]'"
# pkg-config resolves Requires.private on every call, so every module amdahl.pc
# names must come with libamdahl-dev: the package that holds its .pc on this
# machine is in libamdahl-dev's Depends.
devdeps=$(dpkg-deb -f "$dev" Depends)
mods=$(sed -n 's/^Requires\(\.private\)\?: *//p' "$r/usr/lib/$multi/pkgconfig/amdahl.pc" | tr ' ,' '\n\n' | sed '/^$/d')
for m in $mods; do
	pkg=$(dpkg -S "$(pkg-config --path "$m")" 2>/dev/null | cut -d: -f1 | head -1)
	check "libamdahl-dev's Depends names ${pkg:-?} (amdahl.pc requires $m)" bash -c \
		"[ -n '$pkg' ] && tr ',|' '\n\n' <<<'$devdeps' | sed 's/ *(.*//; s/^ *//; s/ *$//' | grep -qx '$pkg'"
done
mkdir -p "$tmp/work" && cd "$tmp/work" || exit 1
env -u AMDAHL_TEMPLATES "$r/usr/bin/amdahl" --store s.db ingest -q "$root/testdata/cpu-strong-scaling/mlruns" >/dev/null
check "the packaged binary builds the report from another directory" \
	env -u AMDAHL_TEMPLATES "$r/usr/bin/amdahl" --store s.db report build -o rep
check "report.pdf written" test -s rep/report.pdf
mkdir -p "$tmp/pc" && sed "s|^prefix=/usr\$|prefix=$r/usr|" "$r/usr/lib/$multi/pkgconfig/amdahl.pc" >"$tmp/pc/amdahl.pc"
check "a C program builds with the package's amdahl.pc (its prefix moved to the scratch root)" \
	env PKG_CONFIG_PATH="$tmp/pc" sh -c 'cc -std=c11 -Wall -Werror -o rs "$0" $(pkg-config --cflags --libs amdahl)' \
	"$root/tests/fixtures/install/read_store.c"
check "... and reads the store" sh -c "LD_LIBRARY_PATH='$r/usr/lib/$multi' ./rs s.db | grep -qx 'cpu-strong-scaling [0-9]*'"
if [ -f "$out/lintian.txt" ]; then
	echo "# lintian: $(grep -c '^E:' "$out/lintian.txt") errors, $(grep -c '^W:' "$out/lintian.txt") warnings ($out/lintian.txt)"
	check "lintian reports no error" sh -c "! grep -q '^E:' '$out/lintian.txt'"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
