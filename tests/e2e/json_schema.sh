#!/bin/bash
# json_schema.sh — every `--json` output and report.json, on the bundled
# data (the CPU and H100 sweeps, an A/A baseline from a second ingest, a
# pass from the H100 repeats split in halves, a regression and an
# improvement at alpha 0.1, the 24-commit histories, py-spy files and
# traces), validated against its schema in docs/schema/ (the JSON
# contract: schema_version, intervals {lo, hi, level} or null, null for a
# missing value, p / p_holm, one verdict vocabulary) by Debian's
# python3-jsonschema; and the schemas reject the shapes they replaced.
test_description='every --json output validates against docs/schema/'
. "$(dirname "$0")/../test-lib.sh"
. "$AMDAHL_ROOT/tests/lib/histories.sh"

CPU=$DATA/cpu-strong-scaling/mlruns
GPU=$DATA/gpu-batch-sweep/mlruns
SCHEMAS=$AMDAHL_ROOT/docs/schema
RUN2=352060eb92854d39b18812809e22c265 # ddp n=2 repeat 0: traces of ranks 0 and 1
PRUN=3679a94ec2214cbe8d71215b864c78ea # an itwinai launch, py-spy linked to it below
test_lazy_prereq JSONSCHEMA '/usr/bin/python3 -c "import jsonschema"'

# valid NAME FILE... — "ok" when every FILE is valid against NAME's schema
valid() { /usr/bin/python3 "$AMDAHL_ROOT/tests/lib/json_schema_check.py" "$SCHEMAS" "$@" 2>&1; }
# out NAME STATUS ARGS... — runs amdahl ARGS, wants exit STATUS, keeps stdout in $TMP/NAME.json
out() {
	local name=$1 want=$2
	shift 2
	test_status "$want" "$AMDAHL" "$@" && printf '%s\n' "$OUT" >"$TMP/$name.json"
}

test_expect_success 'setup: the stores' '
	"$AMDAHL" --store "$TMP/cpu.db" ingest -q "$CPU" &&
	"$AMDAHL" --store "$TMP/rerun.db" ingest -q --sweep rerun "$CPU" &&
	"$AMDAHL" --store "$TMP/gpu.db" ingest -q "$DATA/gpu-batch-sweep" &&
	"$AMDAHL" --store "$TMP/all.db" ingest -q "$CPU" "$GPU" "$DATA/itwinai-layout" 2>/dev/null &&
	"$AMDAHL" --store "$TMP/all.db" ingest -q --run $PRUN "$DATA/pyspy/train-raw.txt" &&
	"$AMDAHL" --store "$TMP/all.db" ingest -q "$DATA/pyspy" 2>/dev/null &&
	"$AMDAHL_ROOT/tests/lib/split_halves.sh" "$GPU" "$TMP" &&
	"$AMDAHL" --store "$TMP/halves.db" ingest -q --sweep half-a "$TMP/a/mlruns" &&
	"$AMDAHL" --store "$TMP/halves.db" ingest -q --sweep half-b "$TMP/b/mlruns" &&
	printf "gate:\n  alpha: 0.1\n" >"$TMP/a10.yaml"
'
test_expect_success PYTHON 'setup: the histories' '
	history_mlruns "$AMDAHL_ROOT" "$TMP/hm" &&
	"$AMDAHL" --store "$TMP/h.db" ingest -q "$TMP/hm"
'

test_expect_success JSONSCHEMA 'ingest --json (added; then unchanged, linked to no run)' '
	out ingest 0 --store "$TMP/ingest.db" ingest --json "$CPU" &&
	out ingest2 0 --store "$TMP/all.db" ingest --json "$DATA/pyspy" "$DATA/profiles" &&
	test_eq ok "$(valid ingest "$TMP/ingest.json" "$TMP/ingest2.json")"
'
test_expect_success JSONSCHEMA 'runs --json, --sources, --orphans' '
	out runs 0 --store "$TMP/cpu.db" runs --json &&
	out sources 0 --store "$TMP/cpu.db" runs --sources --json &&
	out orphans 0 --store "$TMP/all.db" runs --orphans --json &&
	test_eq ok "$(valid runs "$TMP/runs.json")" &&
	test_eq ok "$(valid runs-sources "$TMP/sources.json")" &&
	test_eq ok "$(valid runs-orphans "$TMP/orphans.json")"
'
test_expect_success JSONSCHEMA 'stats --json: CPU, H100, --by, --aggregate mlperf' '
	out stats 0 --store "$TMP/cpu.db" stats --json &&
	out stats_gpu 0 --store "$TMP/gpu.db" stats --json &&
	out stats_by 0 --store "$TMP/cpu.db" stats --by strategy --json &&
	out stats_mlperf 0 --store "$TMP/cpu.db" stats --aggregate mlperf --json &&
	test_eq ok "$(valid stats "$TMP"/stats*.json)"
'
test_expect_success JSONSCHEMA 'trace show --json: a CPU and a GPU trace' '
	out trace 0 --store "$TMP/cpu.db" trace show $RUN2 --json &&
	out trace_gpu 0 --store "$TMP/gpu.db" trace show "$(ls "$GPU"/1/ | grep -v meta | head -1)" --json &&
	test_eq ok "$(valid trace "$TMP/trace.json" "$TMP/trace_gpu.json")"
'
test_expect_success JSONSCHEMA 'pyspy top (self, --library, --per-thread, a file) and trie --json' '
	out top 0 --store "$TMP/all.db" pyspy top $PRUN --json &&
	out top_lib 0 --store "$TMP/all.db" pyspy top $PRUN --library multiprocessing -n 0 --json &&
	out top_thread 0 --store "$TMP/all.db" pyspy top $PRUN --per-thread -n 5 --json &&
	out top_file 0 --store "$TMP/all.db" pyspy top "$DATA/pyspy/train.chrometrace.json" --json &&
	out trie 0 --store "$TMP/all.db" pyspy trie $PRUN --json &&
	test_eq ok "$(valid pyspy-top "$TMP"/top*.json)" &&
	test_eq ok "$(valid pyspy-trie "$TMP/trie.json")"
'
test_expect_success JSONSCHEMA 'regions --json: a run, a sweep, a file, one region across a sweep' '
	out regions 0 --store "$TMP/all.db" regions $RUN2 --json &&
	out regions_sweep 0 --store "$TMP/all.db" regions cpu-strong-scaling -n 3 --json &&
	out regions_file 0 --store "$TMP/all.db" regions "$DATA/pyspy/train-raw.txt" -n 3 --json &&
	out across 0 --store "$TMP/all.db" regions cpu-strong-scaling --region aten::mm --json &&
	test_eq ok "$(valid regions "$TMP"/regions*.json)" &&
	test_eq ok "$(valid regions-across "$TMP/across.json")"
'
test_expect_success JSONSCHEMA 'scaling --json and diff --json' '
	out scaling 0 --store "$TMP/cpu.db" scaling --json &&
	out diff 0 --store "$TMP/cpu.db" diff cpu-strong-scaling:ddp:8 cpu-strong-scaling:fsdp:8 --json &&
	test_eq ok "$(valid scaling "$TMP/scaling.json")" &&
	test_eq ok "$(valid diff "$TMP/diff.json")"
'
test_expect_success JSONSCHEMA 'explain --json (issue 34), and the schema refuses a share that is not a number' '
	out explain 0 --store "$TMP/cpu.db" explain --json &&
	test_eq ok "$(valid explain "$TMP/explain.json")" &&
	sed "s/\"share\":\([[:space:]]*\)0/\"share\":\1\"0\"/" "$TMP/explain.json" >"$TMP/explain.json.bad" &&
	! cmp -s "$TMP/explain.json" "$TMP/explain.json.bad" &&
	test_true "a string share is refused" test "$(valid explain "$TMP/explain.json.bad")" != ok
'
test_expect_success JSONSCHEMA 'compare --json: DDP vs FSDP, fp32 vs bf16, --aggregate mlperf, --by' '
	out compare 0 --store "$TMP/cpu.db" compare --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --json &&
	out compare_gpu 0 --store "$TMP/gpu.db" compare --baseline gpu-batch-sweep:fp32 --candidate gpu-batch-sweep:bf16 --json &&
	out compare_mlperf 0 --store "$TMP/cpu.db" compare --aggregate mlperf --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --json &&
	out compare_by 0 --store "$TMP/halves.db" compare --by sweep --json &&
	test_eq ok "$(valid compare "$TMP"/compare.json "$TMP"/compare_gpu.json "$TMP"/compare_mlperf.json)" &&
	test_eq ok "$(valid compare-by "$TMP/compare_by.json")"
'
test_expect_success JSONSCHEMA 'gate --json: insufficient (exit 3), A/A baseline, pass, regression, improvement' '
	out gate 3 --store "$TMP/cpu.db" gate --baseline cpu-strong-scaling:ddp --candidate cpu-strong-scaling:fsdp --json &&
	out gate_aa 3 --store "$TMP/cpu.db" gate --baseline-store "$TMP/rerun.db" --baseline rerun --candidate cpu-strong-scaling --json &&
	out gate_pass 0 --store "$TMP/halves.db" gate --baseline half-a --candidate half-b --json &&
	out gate_regr 1 --store "$TMP/cpu.db" --config "$TMP/a10.yaml" gate --baseline cpu-strong-scaling:ddp \
		--candidate cpu-strong-scaling:fsdp --n 8 --only epoch_time_s --json &&
	out gate_impr 0 --store "$TMP/cpu.db" --config "$TMP/a10.yaml" gate --baseline cpu-strong-scaling:fsdp \
		--candidate cpu-strong-scaling:ddp --n 8 --only epoch_time_s --json &&
	test_eq ok "$(valid gate "$TMP"/gate*.json)" &&
	test_eq "insufficient_data insufficient_data pass regression pass" "$(for g in gate gate_aa gate_pass gate_regr gate_impr; do json_get "$TMP/$g.json" "d[\"result\"]"; done | paste -sd" ")"
'
test_expect_success JSONSCHEMA 'history --json and gate --history --json' '
	out history 0 --store "$TMP/h.db" history --by tag.git_commit --sweep nightly --json &&
	out history_aa 0 --store "$TMP/h.db" history --by tag.git_commit --sweep aa --json &&
	out gate_history 3 --store "$TMP/h.db" gate --history 5 --by tag.git_commit --sweep nightly --json &&
	test_eq ok "$(valid history "$TMP/history.json" "$TMP/history_aa.json")" &&
	test_eq ok "$(valid gate-history "$TMP/gate_history.json")"
'
test_expect_success JSONSCHEMA 'report build --json and report.json: plain, H100, --baseline, --history' '
	out rep 0 --store "$TMP/cpu.db" report build -o "$TMP/rep" --json &&
	out rep_gpu 0 --store "$TMP/gpu.db" report build -o "$TMP/rep_gpu" --json &&
	out rep_cmp 0 --store "$TMP/cpu.db" report build -o "$TMP/rep_cmp" --baseline-store "$TMP/rerun.db" --baseline rerun --json &&
	out rep_hist 0 --store "$TMP/h.db" report build --sweep nightly --history epoch_time_s --by tag.git_commit -o "$TMP/rep_hist" --json &&
	test_eq ok "$(valid report-build "$TMP"/rep*.json)" &&
	test_eq ok "$(valid report "$TMP"/rep/report.json "$TMP"/rep_gpu/report.json "$TMP"/rep_cmp/report.json "$TMP"/rep_hist/report.json)"
'
test_expect_success JSONSCHEMA 'every document opens with "schema_version": 1' '
	for f in "$TMP"/*.json "$TMP"/rep*/report.json; do
		head -2 "$f" | tail -1 | grep -q "^	\"schema_version\":	1,$" || echo "$f"
	done >"$TMP/unversioned" &&
	test_eq "" "$(cat "$TMP/unversioned")"
'

test_expect_success NUMPY 'every --json output and report.json: no inverted interval, no value outside its own interval (issue 33)' '
	"$PY" "$AMDAHL_ROOT/tests/lib/interval_walk.py" "$TMP"/*.json "$TMP"/rep*/report.json >"$TMP/walk" ;
	cat "$TMP/walk" >&2 &&
	test_contains "ok " "$(head -1 "$TMP/walk")"
'

# The schemas are strict: each of the old shapes fails.
# broken NAME FILE PYTHON — FILE changed by PYTHON (d is the document),
# validated against NAME; the first line of what is wrong
broken() {
	/usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $3; json.dump(d, open(sys.argv[2], \"w\"))" "$2" "$TMP/broken.json" &&
	valid "$1" "$TMP/broken.json" | head -1
}
test_expect_success JSONSCHEMA 'the schemas refuse the shapes they replaced' '
	test_contains "schema_version" "$(broken stats "$TMP/stats.json" "del d[\"schema_version\"]")" &&
	test_contains "valid" "$(broken stats "$TMP/stats.json" "d[\"sweeps\"][0][\"strategies\"][0][\"points\"][0][\"ci\"][\"valid\"]=True")" &&
	test_contains "is not valid" "$(broken compare "$TMP/compare.json" "d[\"rows\"][0][\"ci\"]=[1, 2]")" &&
	test_contains "p_holm" "$(broken compare "$TMP/compare.json" "d[\"rows\"][0][\"p_adjusted\"]=d[\"rows\"][0].pop(\"p_holm\")")" &&
	test_contains "insufficient data" "$(broken gate "$TMP/gate.json" "d[\"rows\"][0][\"verdict\"]=\"insufficient data\"")" &&
	test_contains "INSUFFICIENT DATA" "$(broken gate "$TMP/gate.json" "d[\"result\"]=\"INSUFFICIENT DATA\"")" &&
	test_contains "note" "$(broken compare "$TMP/compare.json" "del d[\"rows\"][0][\"note\"]")" &&
	test_contains "lo" "$(broken diff "$TMP/diff.json" "d[\"regions\"][0][\"lo\"]=0")" &&
	test_contains "level" "$(broken history "$TMP/history.json" "del d[\"groups\"][0][\"ci\"][\"level\"]")"
'
test_done
