#!/bin/bash
# scaling.sh BUILD_DIR — speed of the region model search (`amdahl
# scaling`): bench/region_search on 10,000 synthetic regions × 5 n × 5
# repeats (the search alone, then with the bootstrap intervals), next to
# a reference measured in the same run (one plain GSL weighted
# least-squares fit per region and hypothesis), and `amdahl scaling` on
# the bundled CPU sweep. Target: the search over 10,000 regions in
# under 2 s (CPU seconds).
set -eu
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
search="$build/bench/region_search" # built by `make bench`
make -s O="$build" "$search" || exit 2
work=$(mktemp -d /tmp/amdahl-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
read -r s b ref regions <<<"$("$search" "${BENCH_REGIONS:-10000}")"
printf '%-44s %8s\n' "what ($regions regions × 5 n × 5 repeats)" "cpu s"
printf '%-44s %8.2f   (target < 2 s)\n' "model search (41 hypotheses, CV, F test)" "$s"
printf '%-44s %8.2f\n' "model search + bootstrap (1000 resamples)" "$b"
printf '%-44s %8.2f\n' "reference: one GSL fit per hypothesis" "$ref"
"$build/amdahl" --store "$work/a.db" ingest -q testdata/cpu-strong-scaling/mlruns
/usr/bin/time -f '%U %S %e %M' -o "$work/t" "$build/amdahl" --store "$work/a.db" scaling --json >"$work/out"
awk -v r="$(grep -c '"kind"' "$work/out")" '{printf "%-44s %8.2f   (wall %.2f s, RSS %.0f MB)\n", "amdahl scaling, CPU sweep (" r " region models)", $1 + $2, $3, $4 / 1024}' "$work/t"
