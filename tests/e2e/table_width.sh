#!/bin/bash
# table_width.sh — `regions` and `scaling` tables fit the width they are
# read at (issue 36, item 10): CUDA kernel names of 100s of characters
# (real ones, from testdata/gpu-batch-sweep's H100 traces) are shortened
# in the table — head and tail around "…" — so the table fits COLUMNS
# when it is set, the terminal's width on a terminal (a pty made by
# script(1), its size set by stty), and 100 columns in a pipe; --json
# keeps every whole name. tests/lib/table_fit.py compares each row's
# name cell with the JSON's name in the same place.
test_description='regions and scaling tables fit the terminal, a pipe or COLUMNS; --json keeps whole names'
. "$(dirname "$0")/../test-lib.sh"

GPU="$DATA/gpu-batch-sweep/mlruns"
FIT="$AMDAHL_ROOT/tests/lib/table_fit.py"
G="$TMP/g.db"
RUN=""
# regions of the run, printed with COLUMNS $1 ("" for none) into $2
regions_at() {
	if [ -n "$1" ]; then
		COLUMNS=$1 "$AMDAHL" --store "$G" regions "$RUN" --kind kernel -n 0 >"$2"
	else
		env -u COLUMNS "$AMDAHL" --store "$G" regions "$RUN" --kind kernel -n 0 >"$2"
	fi
}
# "ROWS SHORTENED WIDEST NAMEW" of a table and its JSON
fit() { "$PY" "$FIT" "$@"; }

test_expect_success 'setup: one GPU run of the H100 sweep and its trace' '
	RUN=$(ls "$GPU"/*/ | grep -v meta.yaml | head -1) &&
	test_status 0 "$AMDAHL" --store "$G" ingest "$GPU"/*/"$RUN" &&
	"$AMDAHL" --store "$G" regions "$RUN" --kind kernel -n 0 --json >"$TMP/r.json"
'
test_expect_success PYTHON 'the kernel names are long: the longest over 300 characters' '
	test_eq True "$(json_get "$TMP/r.json" "max(len(r[\"name\"]) for r in d[\"regions\"]) > 300")"
'
test_expect_success PYTHON 'in a pipe: 100 columns, long names shortened to head…tail of the JSON'\''s whole names' '
	regions_at "" "$TMP/pipe.txt" &&
	read -r rows short widest namew <<<"$(fit "$TMP/pipe.txt" "$TMP/r.json" regions)" &&
	test_eq "$(json_get "$TMP/r.json" "len(d[\"regions\"])")" "$rows" &&
	test_eq True "$([ "$short" -gt 0 ] && echo True)" &&
	test_eq 100 "$widest"
'
test_expect_success PYTHON 'COLUMNS=160: 160 columns, more of each name' '
	regions_at 160 "$TMP/wide.txt" &&
	read -r rows short widest namew <<<"$(fit "$TMP/wide.txt" "$TMP/r.json" regions)" &&
	test_eq 160 "$widest" &&
	read -r _ _ _ narrow <<<"$(fit "$TMP/pipe.txt" "$TMP/r.json" regions)" &&
	test_eq $((narrow + 60)) "$namew"
'
test_expect_success PYTHON,PTY 'on a terminal of 110 columns (COLUMNS unset): 110 columns' '
	env -u COLUMNS script -qec "stty cols 110 rows 50; \"$AMDAHL\" --store \"$G\" regions \"$RUN\" --kind kernel -n 0" /dev/null |
		tr -d "\r" >"$TMP/tty.txt" &&
	read -r rows short widest namew <<<"$(fit "$TMP/tty.txt" "$TMP/r.json" regions)" &&
	test_eq 110 "$widest" &&
	test_eq "$(json_get "$TMP/r.json" "len(d[\"regions\"])")" "$rows"
'
test_expect_success PYTHON 'COLUMNS=20, narrower than the other columns: the name keeps 30 columns, nothing cut elsewhere' '
	regions_at 20 "$TMP/narrow.txt" &&
	read -r rows short widest namew <<<"$(fit "$TMP/narrow.txt" "$TMP/r.json" regions)" &&
	test_eq 30 "$namew"
'
test_expect_success PYTHON 'names that fit are left whole: a CPU run'\''s op regions, no "…"' '
	test_status 0 "$AMDAHL" --store "$TMP/c.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	"$AMDAHL" --store "$TMP/c.db" regions ddp-n8 -n 10 >"$TMP/c.txt" &&
	"$AMDAHL" --store "$TMP/c.db" regions ddp-n8 -n 10 --json >"$TMP/c.json" &&
	read -r rows short widest namew <<<"$(fit "$TMP/c.txt" "$TMP/c.json" regions)" &&
	test_eq "10 0" "$rows $short"
'

# scaling: the CPU sweep with aten::convolution_backward renamed in every
# trace to the longest kernel name of the H100 trace above (a region name
# as long as real CUDA kernels' names)
test_expect_success PYTHON 'setup: the CPU sweep with one op named like a long CUDA kernel' '
	cp -r "$DATA/cpu-strong-scaling/mlruns" "$TMP/long" &&
	name=$(json_get "$TMP/r.json" "max((r[\"name\"] for r in d[\"regions\"]), key=len)") &&
	"$PY" -c "
import gzip, json, sys
name = sys.argv[1]
for f in sys.argv[2:]:
    d = json.load(gzip.open(f))
    for e in d[\"traceEvents\"]:
        if e.get(\"name\") == \"aten::convolution_backward\":
            e[\"name\"] = name
    with gzip.open(f, \"wt\") as out:
        json.dump(d, out)
" "$name" $(find "$TMP/long" -name "*.pt.trace.json.gz") &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" ingest -q "$TMP/long" &&
	"$AMDAHL" --store "$TMP/s.db" scaling -n 5 --json >"$TMP/s.json"
'
test_expect_success PYTHON 'scaling in a pipe: the long region (top 5 of ddp) shortened to head…tail, every other name whole' '
	env -u COLUMNS "$AMDAHL" --store "$TMP/s.db" scaling -n 5 >"$TMP/s.txt" &&
	read -r rows short widest namew <<<"$(fit "$TMP/s.txt" "$TMP/s.json" scaling)" &&
	test_eq "10 1" "$rows $short" &&
	test_eq 30 "$namew"
'
test_expect_success PYTHON 'scaling with COLUMNS=250: 250 columns' '
	COLUMNS=250 "$AMDAHL" --store "$TMP/s.db" scaling -n 5 >"$TMP/s250.txt" &&
	read -r rows short widest namew <<<"$(fit "$TMP/s250.txt" "$TMP/s.json" scaling)" &&
	test_eq "10 1 250" "$rows $short $widest"
'
test_expect_success PYTHON 'scaling --json keeps the whole name' '
	test_eq True "$(json_get "$TMP/s.json" "any(len(r[\"name\"]) > 300 for r in d[\"regions\"])")"
'

test_done
