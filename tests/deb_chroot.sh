#!/bin/bash
# deb_chroot.sh — `make test-deb-chroot CHROOT=DIR`: the packages `make deb`
# built, installed as a new user would on a fresh Debian 12 — `apt-get
# install ./amdahl_*.deb ./libamdahl0_*.deb ./libamdahl-dev_*.deb` inside
# the chroot at DIR, which resolves its
# Depends from Debian's archive — then used there: `amdahl --version`,
# ingest and `report build` on the bundled CPU sweep from another
# directory, `amdahl help gate` without man installed (its --help), the
# SQLite extension the README's `.load` recipe names, and a C program
# built with `pkg-config --cflags --libs amdahl` against the installed
# library reading the store. Prints "ok"/"not ok" lines and "N passed,
# N failed"; exits 1 on a failure. The packages are purged at the end, so
# the chroot is as it was for the next call.
#
# The chroot is the one ../shared/tools/fresh-debian.sh makes (debootstrap
# --variant=minbase bookworm, then build-essential, git and
# ca-certificates, Debian's sources copied in); this script does not make
# one (debootstrap costs minutes of CPU). It mounts /proc and /dev into
# it as fresh-debian.sh does, and unmounts what it mounted. Needs root.
# Usage: tests/deb_chroot.sh CHROOT_DIR [DEB_DIR]   (DEB_DIR: build/deb)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: tests/deb_chroot.sh CHROOT_DIR [DEB]" >&2; exit 2; }
chr=$(realpath "$1")
debdir=${2:-$root/build/deb}
deb=$(ls "$debdir"/amdahl_*.deb 2>/dev/null | head -1)
lib=$(ls "$debdir"/libamdahl0_*.deb 2>/dev/null | head -1)
dev=$(ls "$debdir"/libamdahl-dev_*.deb 2>/dev/null | head -1)
[ "$(id -u)" = 0 ] || { echo "deb_chroot.sh: needs root (chroot, mount)" >&2; exit 2; }
[ -x "$chr/usr/bin/apt-get" ] || {
	echo "deb_chroot.sh: $chr is no Debian chroot (make one with ../shared/tools/fresh-debian.sh)" >&2; exit 2; }
[ -f "$deb" ] && [ -f "$lib" ] && [ -f "$dev" ] ||
	{ echo "deb_chroot.sh: no amdahl, libamdahl0 and libamdahl-dev packages in '$debdir'; run 'make deb' first" >&2; exit 2; }

mounted=()
for m in proc dev; do
	if ! mountpoint -q "$chr/$m"; then
		if [ $m = proc ]; then mount -t proc proc "$chr/proc"; else mount --bind /dev "$chr/dev"; fi &&
			mounted+=("$chr/$m")
	fi
done
work=/tmp/amdahl-deb-chroot
cleanup() {
	chroot "$chr" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq amdahl libamdahl0 libamdahl-dev >/dev/null 2>&1
	rm -rf "${chr:?}$work"
	for m in "${mounted[@]}"; do umount "$m"; done
}
trap cleanup EXIT
rm -rf "${chr:?}$work" && mkdir -p "$chr$work/data" || exit 1
cp "$deb" "$lib" "$dev" "$chr$work/" && cp -r "$root/testdata/cpu-strong-scaling/mlruns" "$chr$work/data/" &&
	cp "$root/tests/fixtures/install/read_store.c" "$chr$work/" || exit 1
names="./$(basename "$deb") ./$(basename "$lib") ./$(basename "$dev")"

pass=0 fail=0
check() { # DESC SHELL-COMMAND (run inside the chroot, in $work)
	if chroot "$chr" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		bash -c "cd $work && $2" >"$chr$work/last" 2>&1; then
		echo "ok - $1"; pass=$((pass + 1))
	else
		echo "not ok - $1"; sed 's/^/#   /' "$chr$work/last" | tail -10; fail=$((fail + 1))
	fi
}
check "apt-get install $names resolves their Depends from Debian and installs" \
	"apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $names"
check "amdahl --version" "amdahl --version | grep -q '^amdahl '"
check "ingest of the bundled CPU sweep" "amdahl --store s.db ingest -q data/mlruns"
check "report build from another directory finds the installed templates" \
	"mkdir -p elsewhere && cd elsewhere && amdahl --store ../s.db report build -o rep >/dev/null && test -s rep/report.pdf && test -s rep/summary.md"
check "stats and gate run" "amdahl --store s.db stats >/dev/null && amdahl --store s.db gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --on-insufficient pass >/dev/null; test \$? -le 1"
check "amdahl help gate (no man in a minimal chroot: its --help)" "amdahl help gate | grep -q '^usage: amdahl gate'"
check "the SQLite extension is where the package puts it" \
	"test -f /usr/lib/\$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)/amdahl/amdahl_metric.so"
check "a C program builds with pkg-config --cflags --libs amdahl" \
	"command -v pkg-config >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pkg-config >/dev/null; cc -std=c11 -Wall -Werror -o rs read_store.c \$(pkg-config --cflags --libs amdahl)"
check "... and reads the store with the installed libamdahl.so.0" "./rs s.db | grep -qx 'cpu-strong-scaling [0-9]*'"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
