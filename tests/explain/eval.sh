#!/bin/bash
# eval.sh — `make eval-explain`: the ground-truth rates of `amdahl
# explain` over many seeds (issue 34): SEEDS straggler sweeps and SEEDS
# balanced ones from tests/explain/gen_sweep.py, each as CPU/gloo and as
# CUDA/NCCL-like traces, and SEEDS straggler sweeps with a sub-group's
# all-reduce (--subgroup, process groups) and as Nsight Systems exports
# (--nsys), each checked by
# check_truth.py (every share within 20% of its true size, E, the
# identities); prints the rates and fails when a share misses in more
# than 5% of sweeps, the straggler is named at every n >= 2 in fewer than
# 95% of straggler sweeps, or a balanced sweep names a straggler more
# than 5% of the time; the balanced sweeps are written with --serial-op
# and their compute_growth regions checked by check_regions.py, and
# every sweep's stats "straggler ms" by check_spread.py (both must hold in
# every sweep). Usage: tests/explain/eval.sh BUILD [SEEDS]
set -u
build=${1:-build}
seeds=${2:-100}
root=$(cd "$(dirname "$0")/../.." && pwd)
amdahl="$root/$build/amdahl"
py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/amdahl-eval-explain.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
named=0 shares_bad=0 false_named=0 balanced_bad=0 regions_bad=0 spread_bad=0
for kind in straggler balanced gpu-straggler gpu-balanced subgroup-straggler nsys-straggler; do
	for s in $(seq 1 "$seeds"); do
		d="$tmp/$kind-$s"
		strag=last gpu= serial=
		case "$kind" in *balanced) strag=none serial=--serial-op ;; esac
		case "$kind" in gpu-*) gpu=--gpu ;; subgroup-*) gpu=--subgroup ;; nsys-*) gpu=--nsys ;; esac
		"$py" "$root/tests/explain/gen_sweep.py" "$d" --seed $((1000 + s)) --straggler "$strag" $gpu $serial &&
		"$amdahl" --store "$d.db" ingest -q "$d/mlruns" &&
		"$amdahl" --store "$d.db" explain --json >"$d.json" || { echo "seed $s: failed to run" >&2; exit 1; }
		line=$("$py" "$root/tests/explain/check_truth.py" "$d/truth.json" "$d.json")
		case "$line" in *" ok") ;; *) case "$kind" in *balanced) balanced_bad=$((balanced_bad + 1)) ;; *) shares_bad=$((shares_bad + 1)) ;; esac; echo "$kind seed $s: $line" ;; esac
		if [ "$kind" = nsys-straggler ]; then # one process at n = 1: no trace, the base is n = 2
			case "$line" in "named=2:1 4:3 8:7 "*) named=$((named + 1)) ;; esac
		elif [ "$kind" != "${kind%straggler}" ]; then
			case "$line" in "named=1:- 2:1 4:3 8:7 "*) named=$((named + 1)) ;; esac
		else
			case "$line" in "named=1:- 2:- 4:- 8:- "*) ;; *) false_named=$((false_named + 1)) ;; esac
		fi
		if [ -n "$serial" ] && ! line=$("$py" "$root/tests/explain/check_regions.py" "$d/truth.json" "$d.json"); then
			regions_bad=$((regions_bad + 1))
			echo "$kind seed $s regions: $line"
		fi
		if ! "$amdahl" --store "$d.db" stats --json >"$d.stats.json" ||
		   ! line=$("$py" "$root/tests/explain/check_spread.py" "$d/truth.json" "$d.stats.json"); then
			spread_bad=$((spread_bad + 1))
			echo "$kind seed $s straggler ms: $line"
		fi
		rm -rf "$d" "$d.db" "$d.stats.json"
	done
done
total=$((2 * seeds)) stotal=$((4 * seeds))
echo "straggler sweeps (CPU, GPU, CPU with a sub-group, Nsight exports): straggler named at every n in $named of $stotal (want >= 95%); a share off in $shares_bad"
echo "balanced sweeps (CPU and GPU): a straggler named in $false_named of $total (want <= 5%); a share off in $balanced_bad"
echo "compute_growth regions off in $regions_bad of $total balanced sweeps; stats' straggler ms off in $spread_bad of $((6 * seeds)) sweeps (want 0)"
[ "$regions_bad" -eq 0 ] && [ "$spread_bad" -eq 0 ] || exit 1
awk -v n="$named" -v f="$false_named" -v a="$shares_bad" -v b="$balanced_bad" -v s="$total" -v t="$stotal" \
	'BEGIN { exit !(n >= 0.95 * t && f <= 0.05 * s && a <= 0.05 * t && b <= 0.05 * s) }'
