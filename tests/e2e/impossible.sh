#!/bin/bash
# impossible.sh — impossible values stay out of the statistics (issue 20
# item 8): a real run of the bundled CPU sweep, copied and edited, with
# negative, zero and infinite epoch times is left out epoch by epoch with
# a note naming the run and the epoch, and stats --json matches the
# numpy/scipy oracle (tests/oracle/stats_oracle.py, same rule) on the
# values left; epoch times near 1e308 give a finite median equal to the
# exact (rational) median, where (a + b) / 2 overflows to inf.
test_description='impossible values are left out, medians never overflow'
. "$(dirname "$0")/../test-lib.sh"
ORACLE="$AMDAHL_ROOT/tests/oracle/stats_oracle.py"
COMPARE="$AMDAHL_ROOT/tests/oracle/compare_stats.py"
. "$AMDAHL_ROOT/tests/oracle/compare_oracle.sh" # compare_oracle

# copy_with_run NAME DIR — copies the CPU sweep to DIR; the first run
# named NAME (a finished ddp run) is in $RUN, its epoch times in $ET
copy_with_run() {
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$2" &&
	RUN=$(dirname "$(dirname "$(grep -lx "$1" "$2"/*/*/tags/mlflow.runName | head -1)")") &&
	ET="$RUN/metrics/epoch_time_s" && test -s "$ET"
}
# add_epochs FILE V... — appends epochs 3, 4, ... with values V, each a
# second after the file's last timestamp
add_epochs() {
	local f=$1 ts step=3
	shift
	ts=$(tail -1 "$f" | cut -d" " -f1)
	for v in "$@"; do
		ts=$((ts + 1000))
		echo "$ts $v $step" >>"$f"
		step=$((step + 1))
	done
}

BAD="$TMP/bad" RUN= ET=
test_expect_success 'setup: ddp-n2 with epoch 1 negative and epochs 3..7 = 0, 1.2, -inf, inf, 1.3' '
	copy_with_run ddp-n2 "$BAD" &&
	awk "\$3 == 1 { \$2 = -\$2 } 1" "$ET" >"$ET.new" && mv "$ET.new" "$ET" &&
	add_epochs "$ET" 0 1.2 -inf inf 1.3 &&
	test_status 0 "$AMDAHL" --store "$TMP/bad.db" ingest "$BAD"
'
test_expect_success 'stats --json: the impossible epochs are left out, each noted with its run and epoch' '
	test_status 0 "$AMDAHL" --store "$TMP/bad.db" stats --json &&
	cp "$TMP/out" "$TMP/bad.json"
	ID=$(basename "$RUN")
	NOTE=$(json_get "$TMP/bad.json" "[r for s in d[\"sweeps\"] for st in s[\"strategies\"] for p in st[\"points\"] for r in p[\"run_values\"] if r[\"id\"] == \"$ID\"][0][\"excluded\"]")
	test_contains "epoch 1 (impossible epoch_time_s: -" "$NOTE"
	test_contains "epoch 3 (impossible epoch_time_s: 0)" "$NOTE"
	test_contains "epoch 5 (impossible epoch_time_s: -inf)" "$NOTE"
	test_contains "epoch 6 (impossible epoch_time_s: inf)" "$NOTE"
	test_not_contains "epoch 4 (" "$NOTE"
'
test_expect_success 'no negative value reaches a median, a CV or a serial fraction' '
	test_eq "[]" "$(json_get "$TMP/bad.json" "[p[\"n\"] for s in d[\"sweeps\"] for st in s[\"strategies\"] for p in st[\"points\"] if not p[\"median\"] > 0 or not p[\"min\"] > 0]")"
'
test_expect_success NUMPY,SCIPY 'stats --json matches the oracle on the values left' '
	"$PY" "$ORACLE" "$BAD" >"$TMP/bad.oracle.json" &&
	compare_oracle "$TMP/bad.json" "$TMP/bad.oracle.json"
'

HUGE="$TMP/huge"
test_expect_success 'setup: ddp-n2 with epochs 1..6 near 1e308 (epoch 2 profiled: four kept, the middle two summing past DBL_MAX)' '
	copy_with_run ddp-n2 "$HUGE" &&
	awk "\$3 == 1 { \$2 = 1.7e308 } \$3 == 2 { \$2 = 1.6e308 } 1" "$ET" >"$ET.new" &&
	mv "$ET.new" "$ET" &&
	add_epochs "$ET" 1.5e308 1.1e308 1.3e308 &&
	test_status 0 "$AMDAHL" --store "$TMP/huge.db" ingest "$HUGE"
'
test_expect_success NUMPY,SCIPY 'the run value near 1e308 is finite and the exact median of its kept epochs (Python fractions)' '
	test_status 0 "$AMDAHL" --store "$TMP/huge.db" stats --json &&
	cp "$TMP/out" "$TMP/huge.json"
	ID=$(basename "$RUN")
	NOTE=$(json_get "$TMP/huge.json" "[r for s in d[\"sweeps\"] for st in s[\"strategies\"] for p in st[\"points\"] for r in p[\"run_values\"] if r[\"id\"] == \"$ID\"][0][\"excluded\"]")
	test_eq "epoch 0 (warm-up), epoch 2 (profiled)" "$NOTE"
	WANT=$("$PY" -c "from fractions import Fraction as F; import statistics; print(repr(float(statistics.median([F(1.7e308), F(1.5e308), F(1.1e308), F(1.3e308)]))))")
	GOT=$(json_get "$TMP/huge.json" "repr([r for s in d[\"sweeps\"] for st in s[\"strategies\"] for p in st[\"points\"] for r in p[\"run_values\"] if r[\"id\"] == \"$ID\"][0][\"value\"])")
	test_contains "e+308" "$GOT"
	test_eq "$WANT" "$GOT"
'

EN="$TMP/energy"
test_expect_success 'setup: ddp-n2 with a gpu_energy_J counter of 100, 40 and -500 J (epochs 0..2)' '
	copy_with_run ddp-n2 "$EN" &&
	awk "{ print \$1, (\$3 == 0 ? 100 : \$3 == 1 ? 40 : -500), \$3 }" "$ET" >"$RUN/metrics/gpu_energy_J" &&
	test_status 0 "$AMDAHL" --store "$TMP/energy.db" ingest "$EN"
'
test_expect_success 'the negative energy is left out of the run energy (100 + 40 J)' '
	test_status 0 "$AMDAHL" --store "$TMP/energy.db" stats --json
	ID=$(basename "$RUN")
	test_near 140 "$(json_get "$TMP/out" "[r for s in d[\"sweeps\"] for st in s[\"strategies\"] for p in st[\"points\"] for r in p[\"run_values\"] if r[\"id\"] == \"$ID\"][0][\"energy_run_j\"]")" 1e-9
'
test_done
