# common.sh — sourced first by the bench scripts: stop on errors, BUILD_DIR
# from $1 (build), run from the repository root ($root), /usr/bin/time
# present, a scratch directory $work in /tmp removed on exit, and median.
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (Debian package 'time'); make deps"; exit 2; }
work=$(mktemp -d /tmp/amdahl-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

# median COLUMN FILE: the median of FILE's COLUMN (of an even count, the
# lower of the two middle values).
median() { awk -v c="$1" '{print $c}' "$2" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
