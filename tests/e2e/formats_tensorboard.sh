#!/bin/bash
# formats_tensorboard.sh — TensorBoard event files (testdata/tensorboard/
# tb-sweep: a real data-parallel numpy training at 1, 2, 4 workers, 3
# repeats, laid out as PyTorch's SummaryWriter does, hparams from
# add_hparams' subfolder): runs like MLflow's, scalars and hparams
# against a Python TFRecord/protobuf reader (tests/oracle/
# tfevents_oracle.py); stats, report build and gate on the TensorBoard-
# only sweep; a run's span over its files in any order; bad inputs (bad CRCs, a record that is
# no Event) give one line, exit 2 and leave the store unchanged; a file
# cut inside its last record (a killed or running job) keeps its complete
# records and says where it was cut (tag tensorboard.incomplete).
test_description='TensorBoard event files: runs, scalars, hparams against a python reader; stats, report, gate; bad inputs'
. "$(dirname "$0")/../test-lib.sh"

D="$DATA/tensorboard/tb-sweep"
S="$TMP/t.db"
ORACLE="$AMDAHL_ROOT/tests/oracle/tfevents_oracle.py"
bad_file="" bad_needle=""
SCALARS="SELECT printf('%s|%d|%d|%d|%.9g', d.s, count(*), min(step), max(step), sum(value))
 FROM metric_point m JOIN dict d ON d.id=m.key_id GROUP BY d.s ORDER BY d.s"
POINTS='"\n".join("%d|%.9g|%d" % (p["n"], p["median"], p["runs"]) for p in d["sweeps"][0]["strategies"][0]["points"])'

test_expect_success 'setup: the sweep ingests (exit 0)' '
	test_status 0 "$AMDAHL" --store "$S" ingest "$D"
'
test_expect_success SQLITE3 'every event file is a tensorboard unit; nine runs named by their directory, sweep tb-sweep' '
	test_eq "tensorboard|18" "$(q "$S" "SELECT kind, count(*) FROM source GROUP BY kind")" &&
	test_eq "tb-sweep|9" "$(q "$S" "SELECT s.name, count(*) FROM run r JOIN sweep s ON s.id=r.sweep_id")" &&
	test_eq dp-n2-r1 "$(q "$S" "SELECT name FROM run WHERE n=2 AND repeat=1")"
'
test_expect_success SQLITE3,PYTHON 'scalars: count, steps and sum per tag equal the python reader' '
	test_eq "$(find "$D" -name "events.out.tfevents.*" | sort | xargs "$PY" "$ORACLE" scalars)" "$(q "$S" "$SCALARS")"
'
test_expect_success SQLITE3,PYTHON 'hparams of the add_hparams subfolder are the run'\''s params; strategy, n, repeat derived' '
	test_eq "$("$PY" "$ORACLE" hparams "$D"/dp-n4-r2/*/events.out.tfevents.*)" "$(q "$S" "SELECT d.s || '"'"'='"'"' || p.value FROM param p JOIN dict d ON d.id=p.key_id JOIN run r ON r.id=p.run_id WHERE r.name='"'"'dp-n4-r2'"'"' ORDER BY d.s")" &&
	test_eq "dp|4|2" "$(q "$S" "SELECT strategy, n, repeat FROM run WHERE name='"'"'dp-n4-r2'"'"'")"
'
test_expect_success SQLITE3 'wall times: the run spans its first to last event, metric times in ms' '
	test_eq 9 "$(q "$S" "SELECT count(*) FROM run WHERE start_ms > 1600000000000 AND end_ms >= start_ms")" &&
	test_eq 0 "$(q "$S" "SELECT count(*) FROM metric_point m JOIN run r ON r.id=m.run_id WHERE m.ts_ms < r.start_ms OR m.ts_ms > r.end_ms")"
'
test_expect_success PYTHON 'stats on the TensorBoard-only sweep: medians per n equal the python reader'\''s' '
	"$AMDAHL" --store "$S" stats --json >"$TMP/s.json" &&
	test_eq "$("$PY" "$ORACLE" medians epoch_time_s "$D")" "$(json_get "$TMP/s.json" "$POINTS")"
'
test_expect_success PDFTOTEXT 'report build on the TensorBoard-only sweep' '
	test_status 0 "$AMDAHL" --store "$S" report build -o "$TMP/rep" &&
	pdftotext "$TMP/rep/report.pdf" - >"$TMP/rep.txt" &&
	test_contains "tb-sweep" "$(cat "$TMP/rep.txt")" &&
	test_eq "3 3" "$(json_get "$TMP/rep/report.json" "\"%d %d\" % (len(d[\"strategies\"][0][\"points\"]), min(p[\"runs\"] for p in d[\"strategies\"][0][\"points\"]))")"
'
test_expect_success 'gate of the sweep against itself: 3 runs against 3 is insufficient data (exit 3)' '
	test_status 3 "$AMDAHL" --store "$S" gate --baseline tb-sweep --candidate tb-sweep --json &&
	test_contains "\"metric\"" "$OUT"
'
test_expect_success SQLITE3,PYTHON 'a run of two event files spans all of them (min of starts, max of ends) ingested in either order' '
	R="$D/dp-n2-r0" && main=$(ls "$R"/events.out.tfevents.*) && sub=$(ls "$R"/*/events.out.tfevents.*) &&
	want=$("$PY" "$ORACLE" span "$main" "$sub") &&
	test_true "the files span different times" [ "$("$PY" "$ORACLE" span "$main")" != "$want" ] &&
	test_true "the files span different times" [ "$("$PY" "$ORACLE" span "$sub")" != "$want" ] &&
	SPAN="SELECT start_ms || '"'"'|'"'"' || end_ms FROM run WHERE name='"'"'dp-n2-r0'"'"'" &&
	"$AMDAHL" --store "$TMP/ab.db" ingest "$main" >/dev/null && "$AMDAHL" --store "$TMP/ab.db" ingest "$sub" >/dev/null &&
	"$AMDAHL" --store "$TMP/ba.db" ingest "$sub" >/dev/null && "$AMDAHL" --store "$TMP/ba.db" ingest "$main" >/dev/null &&
	test_eq "$want" "$(q "$TMP/ab.db" "$SPAN")" &&
	test_eq "$want" "$(q "$TMP/ba.db" "$SPAN")" &&
	test_eq "$want" "$(q "$S" "$SPAN")"
'
test_expect_success 'the same files again add nothing' '
	"$AMDAHL" --store "$S" ingest "$D" >"$TMP/again.txt" &&
	test_contains "0 added, 0 replaced, 18 unchanged" "$(cat "$TMP/again.txt")"
'

bad() {
	bad_file=$2 bad_needle=$3
	test_expect_success SQLITE3 "$1: exit 2, one error line naming the record, store unchanged" '
		test_bad_ingest "$S" "$bad_file" "${bad_needle/@/$(cat "$TMP/second")}"
	'
}
test_expect_success PYTHON 'setup: an event file broken five ways' '
	f=$(find "$D/dp-n1-r0" -maxdepth 1 -name "events.out.tfevents.*") &&
	"$PY" - "$f" "$TMP" <<-\EOF
	import struct, sys
	raw = bytearray(open(sys.argv[1], "rb").read())
	tmp = sys.argv[2]
	(n0,) = struct.unpack_from("<Q", raw, 0)
	second = 16 + n0                      # the second record starts here
	open(tmp + "/second", "w").write(str(second))
	def put(name, b):
	    open(tmp + "/" + name, "wb").write(bytes(b))
	b = bytearray(raw); b[second + 12 + 3] ^= 0xFF; put("datacrc.tfevents", b)
	b = bytearray(raw); b[second] ^= 0x01; put("lencrc.tfevents", b)
	put("cut.tfevents", raw[:second + 20])
	# a record whose CRCs are right but whose data is no Event protobuf
	POLY = 0x82F63B78
	def crc(d):
	    c = 0xFFFFFFFF
	    for x in d:
	        c ^= x
	        for _ in range(8):
	            c = (c >> 1) ^ POLY if c & 1 else c >> 1
	    c ^= 0xFFFFFFFF
	    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF
	junk = b"\x0f\xff\xff"
	n = struct.pack("<Q", len(junk))
	put("junk.tfevents", raw[:second] + n + struct.pack("<I", crc(n)) + junk + struct.pack("<I", crc(junk)))
	big = struct.pack("<Q", 1 << 40)
	put("huge.tfevents", raw[:second] + big + struct.pack("<I", crc(big)))
	EOF
'
bad "a data CRC that does not match" "$TMP/datacrc.tfevents" "datacrc.tfevents: record 2 (byte @): data CRC mismatch"
bad "a length CRC that does not match" "$TMP/lencrc.tfevents" "lencrc.tfevents: record 2 (byte @): length CRC mismatch"
bad "a record that is not an Event" "$TMP/junk.tfevents" "junk.tfevents: record 2 (byte @): not an Event protobuf"
bad "a record claiming a terabyte" "$TMP/huge.tfevents" "huge.tfevents: record 2 (byte @): 1099511627776 bytes, over the limit"

# issue 36: a torn last record (the job killed mid-write) keeps every
# complete record; the grown file, ingested again, replaces it
test_expect_success PYTHON 'setup: a real event file cut 7 bytes into its last record, and cut after its 2nd record header' '
	f=$(find "$D/dp-n2-r0" -maxdepth 1 -name "events.out.tfevents.*") &&
	mkdir -p "$TMP/torn/dp-n2-r0" "$TMP/whole/dp-n2-r0" &&
	"$PY" - "$f" "$TMP" <<-\EOF
	import struct, sys
	raw = open(sys.argv[1], "rb").read()
	starts, at = [], 0
	while at < len(raw):                  # the records, by their lengths
	    starts.append(at)
	    (n,) = struct.unpack_from("<Q", raw, at)
	    at += 16 + n
	last = starts[-1]
	name = sys.argv[1].rsplit("/", 1)[1]
	open(sys.argv[2] + "/torn/dp-n2-r0/" + name, "wb").write(raw[:last + 7])
	open(sys.argv[2] + "/whole/dp-n2-r0/" + name, "wb").write(raw[:last])
	open(sys.argv[2] + "/torn_at", "w").write("%d %d\n" % (len(starts), last))
	open(sys.argv[2] + "/cut.tfevents", "wb").write(raw[:starts[1] + 20])
	EOF
'
test_expect_success SQLITE3,PYTHON 'torn last record: ingested (exit 0), scalars = python on the complete records, tag names record and byte' '
	test_status 0 "$AMDAHL" --store "$TMP/torn.db" ingest "$TMP/torn" &&
	test_eq "$("$PY" "$ORACLE" scalars "$TMP"/whole/dp-n2-r0/events.out.tfevents.*)" "$(q "$TMP/torn.db" "$SCALARS")" &&
	read -r nrec last <"$TMP/torn_at" &&
	test_eq "$(basename "$TMP"/torn/dp-n2-r0/events.out.tfevents.*): record $nrec (byte $last) is cut short; the $((nrec - 1)) complete records before it were read" \
		"$(q "$TMP/torn.db" "SELECT t.value FROM tag t JOIN dict d ON d.id=t.key_id WHERE d.s='"'"'tensorboard.incomplete'"'"'")"
'
TORN_WARNING=""
test_expect_success 'torn last record: one warning line on stderr naming the file, the record and its byte' '
	read -r nrec last <"$TMP/torn_at" &&
	f=$(ls "$TMP"/torn/dp-n2-r0/events.out.tfevents.*) &&
	TORN_WARNING="$f: record $nrec (byte $last) is cut short; the $((nrec - 1)) complete records before it were read" &&
	test_eq "amdahl ingest: warning: $TORN_WARNING" "$ERR"
'
test_expect_success PYTHON 'torn last record: ingest --json lists that warning on its unit, none on the others' '
	"$AMDAHL" --store "$TMP/tornj.db" ingest --json "$TMP/torn" >"$TMP/torn.json" &&
	test_eq "1" "$(json_get "$TMP/torn.json" "sum(len(u[\"warnings\"]) for u in d[\"units\"])")" &&
	test_eq "$TORN_WARNING" "$(json_get "$TMP/torn.json" "[w for u in d[\"units\"] for w in u[\"warnings\"]][0]")"
'
test_expect_success SQLITE3,PYTHON 'the grown file ingested again replaces it: all scalars, no incomplete tag' '
	cp "$(find "$D/dp-n2-r0" -maxdepth 1 -name "events.out.tfevents.*")" "$TMP/torn/dp-n2-r0/" &&
	"$AMDAHL" --store "$TMP/torn.db" ingest "$TMP/torn" >"$TMP/grown.txt" &&
	test_contains "0 added, 1 replaced" "$(cat "$TMP/grown.txt")" &&
	test_eq "$("$PY" "$ORACLE" scalars "$D"/dp-n2-r0/events.out.tfevents.*)" "$(q "$TMP/torn.db" "$SCALARS")" &&
	test_eq 0 "$(q "$TMP/torn.db" "SELECT count(*) FROM tag t JOIN dict d ON d.id=t.key_id WHERE d.s='"'"'tensorboard.incomplete'"'"'")"
'
test_expect_success SQLITE3 'cut 4 bytes into the 2nd record'"'"'s data: the first record kept, exit 0' '
	test_status 0 "$AMDAHL" --store "$TMP/cut.db" ingest "$TMP/cut.tfevents" &&
	test_contains "cut.tfevents: record 2 (byte $(cat "$TMP/second")) is cut short" "$(q "$TMP/cut.db" "SELECT t.value FROM tag t JOIN dict d ON d.id=t.key_id WHERE d.s='"'"'tensorboard.incomplete'"'"'")"
'

test_expect_success SQLITE3 '--run with a TensorBoard file (a run of its own): refused, exit 2, store unchanged' '
	before=$(store_digest "$S") &&
	test_status 2 "$AMDAHL" --store "$S" ingest --run dp-n2-r0 "$D/dp-n2-r0" &&
	test_contains "--run names the run of profiler files; this tensorboard file is a run of its own" "$ERR" &&
	test_eq "$before" "$(store_digest "$S")"
'
test_expect_success SQLITE3 'an empty file, and one cut inside its first record: exit 2, nothing added' '
	: >"$TMP/empty.tfevents" &&
	head -c 9 "$TMP/cut.tfevents" >"$TMP/first.tfevents" &&
	test_status 2 "$AMDAHL" --store "$TMP/e.db" ingest --format tensorboard "$TMP/empty.tfevents" &&
	test_contains "empty.tfevents: byte 0: an empty file (no record)" "$ERR" &&
	test_contains "0 added" "$OUT" &&
	test_status 2 "$AMDAHL" --store "$TMP/e.db" ingest --format tensorboard "$TMP/first.tfevents" &&
	test_contains "first.tfevents: record 1 (byte 0) is cut short: no complete record" "$ERR"
'

test_done
