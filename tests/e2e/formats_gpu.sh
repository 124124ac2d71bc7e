# formats_gpu.sh — nvidia-smi CSV logs and itwinai's
# torch_profiling_averages.csv on the real files in testdata/, checked
# with python's csv module; bad inputs give one line, exit 2, store unchanged.
test_description='nvidia-smi CSV logs and itwinai op averages against python csv; bad inputs'
. "$(dirname "$0")/../test-lib.sh"

LOG="$DATA/gpu-batch-sweep/nvidia-smi.csv"
IT="$DATA/itwinai-layout"
NVSMI="$AMDAHL_ROOT/tests/oracle/nvidia_smi_csv.py"
OPAVG="$AMDAHL_ROOT/tests/oracle/itwinai_op_averages.py"
bad_file="" bad_needle="" bad_also=""

STORE_SUMS="SELECT printf('%.6f %.6f %.6f %.6f %.6f %d %d', sum(power_w), sum(util_pct), sum(mem_util_pct), sum(mem_used_mib), sum(temp_c), min(ts_ms), max(ts_ms)) FROM gpu_sample"
NEWEST_BF16_B8="SELECT id FROM run WHERE name='bf16-b8' ORDER BY start_ms DESC LIMIT 1"
# util and power sums of the full log without its 11th sample, and of the nounits log
SUMS_BUT_11TH="SELECT printf('%.4f %.4f', sum(util_pct), sum(power_w)) FROM gpu_sample WHERE ts_ms<>(SELECT ts_ms FROM gpu_sample ORDER BY ts_ms LIMIT 1 OFFSET 10)"
SUMS_WITH_POWER="SELECT printf('%.4f %.4f', sum(util_pct), sum(power_w)) FROM gpu_sample WHERE power_w IS NOT NULL"
OPAVG_FILES_ROWS="SELECT printf('%d %d %d', (SELECT count(*) FROM source WHERE kind='itwinai-op-averages'), count(*), sum(d.s LIKE '%,%')) FROM op_average o JOIN dict d ON d.id=o.name_id"
OPAVG_SUMS="SELECT printf('%.3f %.3f %d', sum(self_cuda_us), sum(cuda_total_us), sum(calls)) FROM op_average"
OPAVG_PER_RUN="SELECT r.ext_id, count(*), printf('%.3f', sum(cuda_total_us)), group_concat(DISTINCT o.rank) FROM op_average o JOIN run r ON r.id=o.run_id GROUP BY r.ext_id ORDER BY r.ext_id"

test_expect_success 'setup: the nvidia-smi log ingests (exit 0)' '
	test_status 0 "$AMDAHL" --store "$TMP/g.db" ingest "$LOG"
'
test_expect_success SQLITE3,PYTHON 'samples: one per data row (python csv)' '
	test_eq "$("$PY" "$NVSMI" rows "$LOG")" "$(q "$TMP/g.db" "SELECT count(*) FROM gpu_sample")"
'
test_expect_success SQLITE3,PYTHON 'per-GPU sample counts (python csv)' '
	test_eq "$("$PY" "$NVSMI" per-gpu "$LOG")" "$(q "$TMP/g.db" "SELECT gpu, count(*) FROM gpu_sample GROUP BY gpu ORDER BY gpu")"
'
test_expect_success SQLITE3,PYTHON 'column sums and time range (read as UTC) equal python'\''s' '
	test_eq "$("$PY" "$NVSMI" sums "$LOG")" "$(q "$TMP/g.db" "$STORE_SUMS")"
'
# issue 36: the log redirected by Windows PowerShell (`nvidia-smi ... >
# log.csv`: UTF-16 LE with a byte-order mark, CRLF), and UTF-16 BE
# without a mark, read as the UTF-8 log (python csv's sums of it)
test_expect_success SQLITE3,PYTHON 'UTF-16 LE with BOM (PowerShell) and BE without: detected, sums equal python'\''s of the UTF-8 log' '
	"$PY" -c "import sys; t = open(sys.argv[1], encoding=\"utf-8\").read(); open(sys.argv[2], \"w\", encoding=\"utf-16-le\", newline=\"\\r\\n\").write(\"\\ufeff\" + t); open(sys.argv[3], \"wb\").write(t.encode(\"utf-16-be\"))" "$LOG" "$TMP/ps.csv" "$TMP/be.csv" &&
	test_eq "fffe" "$(head -c 2 "$TMP/ps.csv" | od -An -tx1 | tr -d " \n")" &&
	test_status 0 "$AMDAHL" --store "$TMP/u16.db" ingest "$TMP/ps.csv" &&
	test_status 0 "$AMDAHL" --store "$TMP/u16be.db" ingest "$TMP/be.csv" &&
	test_eq "nvidia-smi-csv" "$(q "$TMP/u16.db" "SELECT kind FROM source")" &&
	test_eq "$("$PY" "$NVSMI" sums "$LOG")" "$(q "$TMP/u16.db" "$STORE_SUMS")" &&
	test_eq "$("$PY" "$NVSMI" sums "$LOG")" "$(q "$TMP/u16be.db" "$STORE_SUMS")"
'
test_expect_success SQLITE3,PYTHON 'UTF-16 with an unpaired surrogate: exit 2 naming the byte, store unchanged' '
	"$PY" -c "import sys; b = open(sys.argv[1], \"rb\").read(); open(sys.argv[2], \"wb\").write(b[:600] + b\"\\x00\\xdc\" + b[600:])" "$TMP/ps.csv" "$TMP/bad16.csv" &&
	test_status 2 "$AMDAHL" --store "$TMP/bad16.db" ingest --format nvidia-smi-csv "$TMP/bad16.csv" &&
	test_contains "bad16.csv: byte 600: not UTF-16" "$ERR"
'
test_expect_success SQLITE3 'no run given: samples of no run' '
	test_eq 0 "$(q "$TMP/g.db" "SELECT count(run_id) FROM gpu_sample")"
'

test_expect_success 'setup: the gpu sweep, then the nvidia-smi log with --run (exit 0)' '
	"$AMDAHL" --store "$TMP/r.db" ingest "$DATA/gpu-batch-sweep/mlruns" >/dev/null &&
	test_status 0 "$AMDAHL" --store "$TMP/r.db" ingest --run bf16-b8 "$LOG"
'
test_expect_success SQLITE3 '--run links every sample to the newest run of that name' '
	test_eq "$(q "$TMP/r.db" "$NEWEST_BF16_B8")" "$(q "$TMP/r.db" "SELECT group_concat(DISTINCT run_id) FROM gpu_sample")"
'

test_expect_success 'setup: the gzipped nvidia-smi log ingests (exit 0)' '
	gzip -c "$LOG" >"$TMP/nvidia-smi.csv.gz" &&
	test_status 0 "$AMDAHL" --store "$TMP/gz.db" ingest "$TMP/nvidia-smi.csv.gz"
'
test_expect_success SQLITE3 'gzipped log: the same samples' '
	test_eq "$(q "$TMP/g.db" "SELECT count(*), sum(power_w) FROM gpu_sample")" \
		"$(q "$TMP/gz.db" "SELECT count(*), sum(power_w) FROM gpu_sample")"
'

# nounits form, columns in another order and a subset, [N/A] values
test_expect_success PYTHON 'setup: a nounits log, reordered columns, [N/A], ingests (exit 0)' '
	"$PY" "$AMDAHL_ROOT/tests/lib/nvsmi_nounits.py" "$LOG" "$TMP/nounits.csv" &&
	test_status 0 "$AMDAHL" --store "$TMP/n.db" ingest "$TMP/nounits.csv"
'
test_expect_success SQLITE3,PYTHON '[N/A] power stored as missing' '
	test_eq "1|357" "$(q "$TMP/n.db" "SELECT count(*)-count(power_w), count(power_w) FROM gpu_sample")"
'
test_expect_success SQLITE3,PYTHON 'columns found by name in another order' '
	test_eq "$(q "$TMP/g.db" "$SUMS_BUT_11TH")" "$(q "$TMP/n.db" "$SUMS_WITH_POWER")"
'
test_expect_success SQLITE3,PYTHON 'absent columns stay missing' '
	test_eq 0 "$(q "$TMP/n.db" "SELECT count(temp_c) FROM gpu_sample")"
'

# what users really have: a shell loop's log (the header before every
# sample), a UTF-8 BOM, power in kW and memory in GiB; each read into the
# samples python's csv reads (its own unit conversion), loop and BOM
# giving exactly the sums of the plain log
VARIANTS="$AMDAHL_ROOT/tests/lib/nvsmi_variants.py"
for v in loop bom units; do
	test_expect_success PYTHON "setup: the log as a $v variant ingests (exit 0)" '
		"$PY" "$VARIANTS" '$v' "$LOG" "$TMP/'$v'.csv" &&
		test_status 0 "$AMDAHL" --store "$TMP/'$v'.db" ingest "$TMP/'$v'.csv"
	'
	test_expect_success SQLITE3,PYTHON "$v variant: samples and column sums equal python's" '
		test_eq "$("$PY" "$NVSMI" rows "$TMP/'$v'.csv")" "$(q "$TMP/'$v'.db" "SELECT count(*) FROM gpu_sample")" &&
		test_eq "$("$PY" "$NVSMI" sums "$TMP/'$v'.csv")" "$(q "$TMP/'$v'.db" "$STORE_SUMS")"
	'
done
test_expect_success SQLITE3,PYTHON 'loop and BOM variants: the same samples as the plain log' '
	test_eq "$("$PY" "$NVSMI" sums "$LOG")" "$(q "$TMP/loop.db" "$STORE_SUMS")" &&
	test_eq "$("$PY" "$NVSMI" sums "$LOG")" "$(q "$TMP/bom.db" "$STORE_SUMS")"
'
test_expect_success SQLITE3 'kW and GiB converted: power and memory sums within rounding of the plain log' '
	test_near "$(q "$TMP/g.db" "SELECT sum(power_w)")" "$(q "$TMP/units.db" "SELECT sum(power_w)")" 1e-6 &&
	test_near "$(q "$TMP/g.db" "SELECT sum(mem_used_mib)")" "$(q "$TMP/units.db" "SELECT sum(mem_used_mib)")" 2
'
# a log without times (--interval 0.2: sample k at k × 200 ms) and one
# without a header (--query gives it)
QUERY="timestamp,index,name,utilization.gpu,utilization.memory,power.draw,memory.used,temperature.gpu"
VALUE_SUMS="SELECT printf('%.6f %.6f %.6f %.6f %.6f', sum(power_w), sum(util_pct), sum(mem_util_pct), sum(mem_used_mib), sum(temp_c)) FROM gpu_sample"
TIMES="SELECT printf('%d %d', min(ts_ms), max(ts_ms)) FROM gpu_sample"
LOG_SAMPLE_TIMES='import csv, sys; r = list(csv.reader(open(sys.argv[1]), skipinitialspace=True)); print(len({x[0] for x in r[1:] if x}))'
test_expect_success PYTHON 'setup: the log without its timestamp column and without its header' '
	"$PY" "$VARIANTS" notime "$LOG" "$TMP/notime.csv" &&
	"$PY" "$VARIANTS" noheader "$LOG" "$TMP/noheader.csv"
'
test_expect_success SQLITE3 'no timestamp column and no --interval: exit 2, says to give --interval, store unchanged' '
	before=$(store_digest "$TMP/nt.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/nt.db" ingest "$TMP/notime.csv"
	test_contains "notime.csv: line 1: no column '\''timestamp'\'' in the header (for a log without times give --interval SECONDS)" "$ERR"
	test_eq "$before" "$(store_digest "$TMP/nt.db")"
'
test_expect_success SQLITE3,PYTHON 'no timestamp column, --interval 0.2: the same values, sample k at k × 200 ms' '
	test_status 0 "$AMDAHL" --store "$TMP/nt.db" ingest --interval 0.2 "$TMP/notime.csv" &&
	test_eq "$(q "$TMP/g.db" "$VALUE_SUMS")" "$(q "$TMP/nt.db" "$VALUE_SUMS")" &&
	test_eq "0 $((($("$PY" -c "$LOG_SAMPLE_TIMES" "$LOG") - 1) * 200))" "$(q "$TMP/nt.db" "$TIMES")"
'
test_expect_success SQLITE3 'no header: detected, refused without --query saying so, store unchanged' '
	before=$(store_digest "$TMP/nh.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/nh.db" ingest "$TMP/noheader.csv"
	test_contains "noheader.csv: line 1: a sample, not a header" "$ERR"
	test_contains "give its --query-gpu list with --query" "$ERR"
	test_eq "$before" "$(store_digest "$TMP/nh.db")"
'
test_expect_success SQLITE3,PYTHON 'no header, --query: every sample, the plain log'\''s sums and times' '
	test_status 0 "$AMDAHL" --store "$TMP/nh.db" ingest --query "$QUERY" "$TMP/noheader.csv" &&
	test_eq nvidia-smi-csv "$(q "$TMP/nh.db" "SELECT kind FROM source")" &&
	test_eq "$("$PY" "$NVSMI" sums "$LOG")" "$(q "$TMP/nh.db" "$STORE_SUMS")"
'

# itwinai torch_profiling_averages.csv under each run's artifacts
test_expect_success 'setup: the itwinai layout ingests (exit 0)' '
	test_status 0 "$AMDAHL" --store "$TMP/i.db" ingest "$IT"
'
test_expect_success SQLITE3,PYTHON 'op averages: files, rows and quoted names with commas (python csv)' '
	test_eq "$("$PY" "$OPAVG" "$IT" | sed -n 1p)" "$(q "$TMP/i.db" "$OPAVG_FILES_ROWS")"
'
test_expect_success SQLITE3,PYTHON 'op averages: sums of times and calls' '
	test_eq "$("$PY" "$OPAVG" "$IT" | sed -n 2p)" "$(q "$TMP/i.db" "$OPAVG_SUMS")"
'
test_expect_success SQLITE3,PYTHON 'op averages: each file linked to the run whose artifacts hold it' '
	test_eq "$("$PY" "$OPAVG" "$IT" | sed -n "3,\$p")" "$(q "$TMP/i.db" "$OPAVG_PER_RUN")"
'
test_expect_success SQLITE3 'an itwinai csv with a UTF-8 BOM: detected by content, the same rows' '
	f=$(find "$IT" -name torch_profiling_averages.csv | sort | head -1) &&
	{ printf "\357\273\277"; cat "$f"; } >"$TMP/bom-averages.csv" &&
	"$AMDAHL" --store "$TMP/b.db" ingest "$f" >/dev/null &&
	test_status 0 "$AMDAHL" --store "$TMP/bb.db" ingest "$TMP/bom-averages.csv" &&
	test_eq itwinai-op-averages "$(q "$TMP/bb.db" "SELECT kind FROM source")" &&
	test_eq "$(q "$TMP/b.db" "$OPAVG_SUMS")" "$(q "$TMP/bb.db" "$OPAVG_SUMS")"
'

# bad inputs
make_bad_inputs() {
	local f
	sed '7s/75\.[0-9]* W/seventy W/' "$LOG" >"$TMP/word.csv" &&
	head -c $(($(wc -c <"$LOG") - 25)) "$LOG" >"$TMP/cut.csv" &&
	sed '1s/^timestamp,/time,/' "$LOG" >"$TMP/nots.csv" &&
	sed '5s/2026\/11\/22 11:/2026-13-45 11:/' "$LOG" >"$TMP/date.csv" &&
	f=$(find "$IT" -name torch_profiling_averages.csv | sort | head -1) &&
	sed '1s/,calls,/,count,/' "$f" >"$TMP/itw.csv" &&
	awk -F, 'NR==4{$6="many"}1' OFS=, "$f" >"$TMP/itw2.csv" &&
	head -c 3000 "$TMP/nvidia-smi.csv.gz" >"$TMP/cut.csv.gz" &&
	"$PY" "$AMDAHL_ROOT/tests/lib/nvsmi_variants.py" badunit "$LOG" "$TMP/kj.csv"
}
# bad_input FILE NEEDLE: ingesting FILE into g.db exits 2 with one error
# line containing NEEDLE, and g.db is unchanged
bad_input() {
	local before
	before=$(store_digest "$TMP/g.db")
	test_status 2 "$AMDAHL" --store "$TMP/g.db" ingest "$1"
	test_contains "$2" "$ERR"
	test_eq 1 "$(printf "%s\n" "$ERR" | grep -c .)"
	test_eq "$before" "$(store_digest "$TMP/g.db")"
}
# bad TITLE FILE NEEDLE [ALSO]: the case of one bad input (ALSO: another
# text the error must hold)
bad() {
	bad_file=$2 bad_needle=$3 bad_also=${4:-}
	test_expect_success SQLITE3 "$1: exit 2, one error line naming the place, store unchanged${4:+; says \"$4\"}" '
		bad_input "$bad_file" "$bad_needle"
		[ -z "$bad_also" ] || test_contains "$bad_also" "$ERR"
	'
}
test_expect_success 'setup: the log and an itwinai csv, broken eight ways' '
	make_bad_inputs
'
bad "nvidia-smi non-numeric power" "$TMP/word.csv" "word.csv: line 7: column 'power.draw [W]': 'seventy W' is not a number"
bad "truncated nvidia-smi log" "$TMP/cut.csv" "cut.csv: line 359: "
bad "nvidia-smi log without a timestamp column" "$TMP/nots.csv" "nots.csv: line 1: no column 'timestamp'"
bad "nvidia-smi bad timestamp" "$TMP/date.csv" "date.csv: line 5: column 'timestamp'"
bad "nvidia-smi power in an unknown unit" "$TMP/kj.csv" "kj.csv: line 8: column 'power.draw [W]': unknown unit 'kJ'"
bad "itwinai csv without calls" "$TMP/itw.csv" "itw.csv: line 1: no column 'calls'"
bad "itwinai csv non-numeric calls" "$TMP/itw2.csv" "itw2.csv: line 4: column 'calls': 'many'"
bad "truncated gzipped log" "$TMP/cut.csv.gz" "cut.csv.gz: line " "gzip data ends early"

test_done
