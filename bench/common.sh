# common.sh — sourced first by the bench scripts: stop on errors, BUILD_DIR
# from $1 (build), run from the repository root ($root), /usr/bin/time
# present, and a scratch directory $work in /tmp removed on exit.
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (Debian package 'time'); make deps"; exit 2; }
work=$(mktemp -d /tmp/amdahl-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
