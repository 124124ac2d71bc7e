# limits.sh — absurd sizes end with a clear error (file and limit named,
# exit 2) in bounded memory and time: a 100 MB metric line, a 100 MB
# param value, a gzip bomb (1 GiB of zeros in ~1 MB, made here) read as
# a metric file, a param, a meta.yaml and a named file, and YAML nested
# 1e6 deep in meta.yaml and in amdahl.yaml. Memory: peak RSS under
# MAX_RSS_MB, and (plain builds) an address-space limit of 1 GiB.
test_description='absurd sizes: a clear error (exit 2, file and limit named) in bounded memory and time'
. "$(dirname "$0")/../test-lib.sh"
. "$AMDAHL_ROOT/tests/lib/ingest.sh"

MAX_RSS_MB=150
asan=0
ldd "$AMDAHL" 2>/dev/null | grep -q libasan && asan=1
if [ $asan = 1 ]; then
	MAX_RSS_MB=400 # ASan's shadow and quarantine; it cannot run under ulimit -v
	echo "# ASan build: peak RSS bound $MAX_RSS_MB MB, no address-space limit"
fi
S=$TMP/s.db
run="" mf="" pf="" bsize=""

# bomb.py OUT: 1 GiB of zeros, gzipped (about 1 MB), made here rather than committed
BOMB='import sys, zlib
c = zlib.compressobj(9, zlib.DEFLATED, 31)
z = bytes(1 << 24)
with open(sys.argv[1], "wb") as f:
    for _ in range(64):
        f.write(c.compress(z))
    f.write(c.flush())'
# a profiler trace claiming a 400 MB string (1.8 MB gzipped, made here)
BIGSTR='import gzip, sys
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(b"{\"schemaVersion\":1,\"deviceProperties\":[],\"traceEvents\":[{\"ph\":\"X\",\"name\":\"")
    for _ in range(400):
        f.write(b"a" * (1 << 20))
    f.write(b"\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1}]}")'
# YAML nested deep: flow style in meta.yaml (1e6 levels) and amdahl.yaml
# (250000 levels, 1e6 bytes), and a block sequence (500000 levels)
DEEP_META='import sys; sys.stdout.write("run_id: " + "[" * 1000000 + "\n")'
DEEP_FLOW='import sys; sys.stdout.write("gate: " + "{a: " * 250000 + "\n")'
DEEP_BLOCK='import sys; sys.stdout.write("- " * 500000 + "x\n")'

test_expect_success PYTHON '100 MB metric line: exit 2, one error line naming file and limit, bounded RSS' '
	run=$(fresh_run longline) &&
	mf=$(find "$run/metrics" -type f | sort | head -1) &&
	{ printf "1700000000000 "; head -c 100000000 /dev/zero | tr "\0" 7; printf " 1\n"; } >"$mf" &&
	bounded "$mf: line 1: longer than the limit of 4096 bytes" --store "$S" ingest "$run"
'
test_expect_success PYTHON '100 MB param value: exit 2, one error line naming file and limit, bounded RSS' '
	run=$(fresh_run bigparam) &&
	pf=$(find "$run/params" -type f | sort | head -1) &&
	head -c 100000000 /dev/zero | tr "\0" x >"$pf" &&
	bounded "$pf: larger than the limit of 1048576 bytes" --store "$S" ingest "$run"
'

# One limit on a param or tag value for every reader (issue 40 item 7,
# AMD_VALUE_MAX in lib/ingest/ingest.h): mlflow.db, an MLflow CSV export
# and an MLPerf log refuse a value over 1 MiB as the file store does,
# naming the file, the place, the param and the limit.
test_expect_success PYTHON,SQLITE3 'setup: mlflow.db and runs.csv of the CPU sweep (tests/fixtures/mlflow_forms.py)' '
	"$PY" "$AMDAHL_ROOT/tests/fixtures/mlflow_forms.py" "$DATA/cpu-strong-scaling/mlruns" "$TMP/forms" >/dev/null
'
test_expect_success PYTHON,SQLITE3 'a 3 MB param value in mlflow.db: exit 2, file, run, param and limit named, bounded RSS' '
	cp "$TMP/forms/mlflow.db" "$TMP/bigparam.db" &&
	kv=$(sqlite3 "$TMP/bigparam.db" "SELECT run_uuid || \" \" || key FROM params ORDER BY rowid LIMIT 1") &&
	sqlite3 "$TMP/bigparam.db" "UPDATE params SET value = printf(\"%.*c\", 3000000, \"x\") WHERE rowid = (SELECT min(rowid) FROM params)" &&
	bounded "$TMP/bigparam.db: run ${kv% *}: param '"'"'${kv#* }'"'"': a value of 3000000 bytes, over the limit of 1048576 bytes" --store "$S" ingest "$TMP/bigparam.db"
'
test_expect_success PYTHON 'a 2 MB param in an MLflow CSV export: exit 2, file, line, param and limit named' '
	"$PY" -c "import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
i = rows[0].index(\"params.backend\")
rows[1][i] = \"y\" * 2000000
csv.writer(open(sys.argv[2], \"w\", newline=\"\")).writerows(rows)" "$TMP/forms/runs.csv" "$TMP/bigparam.csv" &&
	bounded "$TMP/bigparam.csv: line 2: param '"'"'backend'"'"': a value of 2000000 bytes, over the limit of 1048576 bytes" --store "$S" ingest "$TMP/bigparam.csv"
'
test_expect_success PYTHON 'a 2 MB submission_benchmark in an MLPerf log: exit 2, file, param and limit named' '
	"$PY" -c "import sys
s = open(sys.argv[1]).read()
open(sys.argv[2], \"w\").write(s.replace(chr(34) + \"tiny_mlp\" + chr(34), chr(34) + \"z\" * 2000000 + chr(34), 1))" "$DATA/mllog/result_0.txt" "$TMP/bigparam_mllog.txt" &&
	bounded "$TMP/bigparam_mllog.txt: param '"'"'submission_benchmark'"'"': a value of 2000000 bytes, over the limit of 1048576 bytes" --store "$S" ingest "$TMP/bigparam_mllog.txt"
'

test_expect_success PYTHON 'setup: a gzip bomb, 1 GiB of zeros' '
	"$PY" -c "$BOMB" "$TMP/bomb.gz" &&
	bsize=$(stat -c %s "$TMP/bomb.gz")
'
test_expect_success PYTHON 'gzip bomb is under 2 MB and expands to 1 GiB' '
	test_true "gzip bomb is small: $bsize bytes < 2000000" [ "${bsize:-99999999}" -lt 2000000 ]
	test_eq 1073741824 "$(gzip -dc "$TMP/bomb.gz" | wc -c)"
'
test_expect_success PYTHON 'gzip bomb as a metric file: exit 2, one error line naming file and limit, bounded RSS' '
	run=$(fresh_run bombmetric) &&
	mf=$(find "$run/metrics" -type f | sort | head -1) &&
	cp "$TMP/bomb.gz" "$mf" &&
	bounded "$mf: line 1: longer than the limit of 4096 bytes" --store "$S" ingest "$run"
'
test_expect_success PYTHON 'gzip bomb as a param: exit 2, one error line naming file and limit, bounded RSS' '
	run=$(fresh_run bombparam) &&
	pf=$(find "$run/params" -type f | sort | head -1) &&
	cp "$TMP/bomb.gz" "$pf" &&
	bounded "$pf: larger than the limit of 1048576 bytes once decompressed" --store "$S" ingest "$run"
'
test_expect_success PYTHON 'gzip bomb as meta.yaml: exit 2, one error line naming file and limit, bounded RSS' '
	run=$(fresh_run bombmeta) &&
	cp "$TMP/bomb.gz" "$run/meta.yaml" &&
	bounded "$run/meta.yaml: larger than the limit of 1048576 bytes once decompressed" --store "$S" ingest "$run"
'
test_expect_success PYTHON 'gzip bomb named on the command line: exit 2, one error line naming it, bounded RSS' '
	bounded "$TMP/bomb.gz: not a format amdahl reads" --store "$S" ingest "$TMP/bomb.gz"
'

test_expect_success PYTHON 'meta.yaml nested 1e6 deep: exit 2, one error line naming file and limit, bounded RSS' '
	run=$(fresh_run deepmeta) &&
	"$PY" -c "$DEEP_META" >"$run/meta.yaml" &&
	bounded "$run/meta.yaml: line 1: nested too deeply" --store "$S" ingest "$run"
'
test_expect_success PYTHON 'amdahl.yaml nested 250000 deep (1e6 bytes): exit 2, one error line naming file and limit, bounded RSS' '
	"$PY" -c "$DEEP_FLOW" >"$TMP/deep.yaml" &&
	bounded "$TMP/deep.yaml: line 1: nested too deeply" \
		--store "$S" --config "$TMP/deep.yaml" ingest "$DATA/cpu-strong-scaling/mlruns"
'
test_expect_success PYTHON 'amdahl.yaml block sequence nested 500000 deep: exit 2, one error line naming file and limit, bounded RSS' '
	"$PY" -c "$DEEP_BLOCK" >"$TMP/deepblock.yaml" &&
	bounded "$TMP/deepblock.yaml: line 1: nested too deeply" \
		--store "$S" --config "$TMP/deepblock.yaml" ingest "$DATA/cpu-strong-scaling/mlruns"
'

# the streaming reader stops at 1 MiB instead of buffering the string whole
test_expect_success PYTHON 'a trace with a 400 MB string: exit 2, one error line naming the byte and limit, bounded RSS' '
	"$PY" -c "$BIGSTR" "$TMP/bigstr.pt.trace.json.gz" &&
	bounded "bigstr.pt.trace.json.gz: byte 1048650: a JSON string longer than 1 MiB" \
		--store "$S" ingest "$TMP/bigstr.pt.trace.json.gz"
'

test_expect_success 'no store was left behind by any of these' '
	test_eq absent "$(store_digest "$S")"
'

test_done
