#!/bin/bash
# Memory per GPU on the public profile_memory=True traces: Kineto's 2021
# format (Bytes only) and a 2024 H100 trace (Total Allocated/Reserved).
# Peaks per device against Python's json (tests/oracle/memtrace_oracle.py),
# the bounded timeline, the report's two memory charts, `stats --json`'s
# memory per configuration and `trace show`'s peaks per device when the
# traces are linked to runs of the bundled CPU sweep. The H100 trace is
# found by content although its traceEvents follow a 60 KB metadata block.
test_description='memory traces: peaks per device against python json, bounded timeline, report charts, stats --json and trace show'
. "$(dirname "$0")/../test-lib.sh"

M="$PUBLIC/memtraces"
OLD="$M/kineto-resnet50-nw4-worker0.1623212756351.pt.trace.json.gz"
NEW="$M/tracelens-h100-falconsai-mem.json.gz"
S="$TMP/s.db"
ORACLE="$AMDAHL_ROOT/tests/oracle/memtrace_oracle.py"
ROWS="SELECT printf('%d|%d|%d|%d|%d|%d', m.device_type, m.device_id, m.from_totals,
 m.peak_allocated, COALESCE(m.peak_reserved, -1), m.events)
 FROM trace_memory m JOIN trace t ON t.id=m.trace_id JOIN source s ON s.id=t.source_id
 WHERE s.path LIKE"
rows() { q "$S" "$ROWS '%$1' ORDER BY m.device_type, m.device_id"; }
samples() { q "$S" "SELECT count(*) || '|' || max(allocated) FROM trace_memory_sample m JOIN trace t ON t.id=m.trace_id JOIN source s ON s.id=t.source_id WHERE s.path LIKE '%$1' AND m.device_type=1"; }
# the two runs the traces are linked to: ddp at n=1 and n=2, repeat 1
run_id() { q "$S" "SELECT ext_id FROM run WHERE name='$1' AND repeat=1"; }

test_expect_success SHARED 'setup: the CPU sweep, then each memory trace linked to a ddp run (exit 0)' '
	"$AMDAHL" --store "$S" ingest "$DATA/cpu-strong-scaling/mlruns" >/dev/null &&
	test_status 0 "$AMDAHL" --store "$S" ingest --run "$(run_id ddp-n1)" "$NEW" &&
	test_status 0 "$AMDAHL" --store "$S" ingest --run "$(run_id ddp-n2)" "$OLD"
'
test_expect_success SHARED,SQLITE3 'the H100 trace (traceEvents after its metadata block) is read as a torch trace by content' '
	test_eq torch-trace "$(q "$S" "SELECT kind FROM source WHERE path LIKE '"'"'%$(basename "$NEW")'"'"'")"
'
test_expect_success SHARED,SQLITE3,PYTHON '2024 trace: Total Allocated/Reserved peaks per device equal python json' '
	test_eq "$("$PY" "$ORACLE" "$NEW")" "$(rows "$(basename "$NEW")")"
'
test_expect_success SHARED,SQLITE3,PYTHON '2021 trace: the running sum of Bytes per device equals python json' '
	test_eq "$("$PY" "$ORACLE" "$OLD")" "$(rows "$(basename "$OLD")")"
'
test_expect_success SHARED,SQLITE3 'timeline: every sample of 572 events kept, and its largest is the peak' '
	test_eq "572|231332864" "$(samples "$(basename "$NEW")")"
'
test_expect_success SHARED,SQLITE3 'timeline of 8280 events bounded to at most 1024 samples, the peak among them' '
	got=$(samples "$(basename "$OLD")") &&
	test_true "at most 1024 samples" [ "${got%|*}" -le 1024 ] &&
	test_true "at least 512 samples" [ "${got%|*}" -ge 512 ] &&
	test_eq 2791505408 "${got#*|}"
'
# cuda PEAK_ALLOCATED|PEAK_RESERVED (null when none) of the oracle's rows of a trace
cuda_peaks() { "$PY" "$ORACLE" "$1" | awk -F"|" '"'"'$1 == 1 { print $4 "|" ($5 < 0 ? "null" : $5) }'"'"'; }
test_expect_success SHARED,PYTHON 'stats --json: peak memory per GPU at n=1 and n=2 is the linked trace'"'"'s, as python json reads it' '
	"$AMDAHL" --store "$S" stats --json >"$TMP/stats.json" &&
	PT="[p for p in sweep()[\"memory\"][\"points\"] if p[\"strategy\"] == \"ddp\" and p[\"n\"] == %s][0]" &&
	FIG="(lambda p: \"%s|%s\" % (p[\"peak_allocated\"][\"median\"], p[\"peak_reserved\"][\"median\"] if p[\"peak_reserved\"][\"median\"] is not None else \"null\"))($(printf "$PT" %s))" &&
	test_eq "$(cuda_peaks "$NEW")" "$(json_get "$TMP/stats.json" "$(printf "$FIG" 1)")" &&
	test_eq "$(cuda_peaks "$OLD")" "$(json_get "$TMP/stats.json" "$(printf "$FIG" 2)")" &&
	test_eq "GPU|1|n=1: no CI|True" "$(json_get "$TMP/stats.json" "(lambda m, p: \"%s|%s|%s|%s\" % (m[\"per\"], p[\"peak_allocated\"][\"runs\"], p[\"peak_allocated\"][\"ci_why\"], m[\"running_sum\"]))(sweep()[\"memory\"], $(printf "$PT" 2))")" &&
	test_eq "ddp-n2|0|518" "$(json_get "$TMP/stats.json" "\"%s|%s|%s\" % tuple(sweep()[\"memory\"][\"timeline\"][k] for k in (\"run\", \"rank\", \"samples\"))")"
'
test_expect_success SHARED,PYTHON 'trace show --json: the peaks per device of each trace equal python json' '
	for r in "ddp-n1 $NEW" "ddp-n2 $OLD"; do
		"$AMDAHL" --store "$S" trace show "${r%% *}" --json >"$TMP/t.json" &&
		test_eq "$("$PY" "$ORACLE" "${r#* }" | cut -d"|" -f1-5)" "$(json_get "$TMP/t.json" "\"\\n\".join(\"%d|%d|%d|%d|%d\" % ({\"cpu\": 0, \"cuda\": 1}[m[\"device_type\"]], m[\"device_id\"], m[\"from_totals\"], m[\"peak_allocated\"], -1 if m[\"peak_reserved\"] is None else m[\"peak_reserved\"]) for m in d[\"traces\"][0][\"memory\"])")" || return 1
	done
'
test_expect_success SHARED 'trace show: a line per device with its peaks' '
	"$AMDAHL" --store "$S" trace show ddp-n1 >"$TMP/t.txt" &&
	test_contains "peak memory cuda:0: allocated 220.62 MiB, reserved 234.00 MiB" "$(cat "$TMP/t.txt")" &&
	"$AMDAHL" --store "$S" trace show ddp-n2 >"$TMP/t2.txt" &&
	test_contains "peak memory cuda:0: allocated 2.60 GiB (sum of allocation sizes from the trace'"'"'s start)" "$(cat "$TMP/t2.txt")"
'
test_expect_success SHARED,PDFTOTEXT 'report: peak memory per GPU and the timeline of one rank' '
	test_status 0 "$AMDAHL" --store "$S" report build -o "$TMP/rep" &&
	test_eq "memory_peak memory_timeline" "$(json_get "$TMP/rep/report.json" "\" \".join(c[\"name\"] for c in d[\"charts\"] if c[\"name\"].startswith(\"memory\"))")" &&
	pdftotext "$TMP/rep/report.pdf" "$TMP/rep.txt" &&
	test_contains "Peak memory per GPU" "$(cat "$TMP/rep.txt")" &&
	test_contains "run ddp-n2 (n = 2), rank 0" "$(cat "$TMP/rep.txt")"
'
test_expect_success SHARED,SQLITE3 're-ingesting a changed trace replaces its memory rows' '
	zcat "$NEW" | gzip -1 >"$TMP/new.json.gz" &&
	"$AMDAHL" --store "$S" ingest --run "$(run_id ddp-n1)" --format torch-trace "$TMP/new.json.gz" >/dev/null &&
	rm "$TMP/new.json.gz" && zcat "$NEW" | sed "s/\"Total Allocated\": 231332864/\"Total Allocated\": 1/" | gzip -1 >"$TMP/new.json.gz" &&
	"$AMDAHL" --store "$S" ingest --run "$(run_id ddp-n1)" --format torch-trace "$TMP/new.json.gz" >/dev/null &&
	test_eq "2|572|1" "$(q "$S" "SELECT (SELECT count(*) FROM trace_memory m JOIN trace t ON t.id=m.trace_id JOIN source s ON s.id=t.source_id WHERE s.path LIKE '"'"'%new.json.gz'"'"'), count(*), min(allocated) FROM trace_memory_sample m JOIN trace t ON t.id=m.trace_id JOIN source s ON s.id=t.source_id WHERE s.path LIKE '"'"'%new.json.gz'"'"' AND m.device_type=1")" &&
	test_eq 6 "$(q "$S" "SELECT count(*) FROM trace_memory")"
'
test_done
