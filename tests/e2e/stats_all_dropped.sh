#!/bin/bash
# stats_all_dropped.sh — a run whose every epoch the rules drop (here 60:
# the warm-up and 59 NaN) is left out saying which epochs went, all of
# them: `stats --json` and report.json carry the whole list (a 255-byte
# buffer cut it mid-word, "…, epoch 13 (NaN), epoch ", before), the
# text line and an error line the first ones and how many more, their
# parentheses closed. The expected texts are written here from the
# metric file itself.
test_description='a run left out with every epoch dropped: the whole reason in JSON, its start in text'
. "$(dirname "$0")/../test-lib.sh"
RUN=35b98d95cb2449f9a3df172d0213ebd2 # ddp-n2 repeat 2 of cpu-strong-scaling

# its epoch_time_s made 60 epochs of NaN at the real first timestamp, 1 s apart
test_expect_success 'setup: cpu-strong-scaling with one run of 60 NaN epochs' '
	cp -r "$DATA/cpu-strong-scaling/mlruns/4" "$TMP/sw" &&
	f="$TMP/sw/$RUN/metrics/epoch_time_s" &&
	t0=$(head -1 "$f" | cut -d" " -f1) &&
	for i in $(seq 0 59); do echo "$((t0 + 1000 * i)) nan $i"; done >"$f.new" && mv "$f.new" "$f" &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" ingest "$TMP/sw"
'
want_json() {
	"$PY" -c "
import sys
f = sys.argv[1]
steps = [int(l.split()[2]) for l in open(f)]
print(\"no epoch left after the rules (%s)\" % \", \".join(\"epoch %d (%s)\" % (s, \"warm-up\" if s == 0 else \"NaN\") for s in steps))" "$TMP/sw/$RUN/metrics/epoch_time_s"
}
test_expect_success 'stats --json: the run left out with every one of its 60 epochs named' '
	test_status 0 "$AMDAHL" --store "$TMP/s.db" stats --json &&
	test_eq "$(want_json)" "$(json_get "$TMP/out" "first(sweep()[\"excluded\"], id=\"$RUN\")[\"excluded\"]")"
'
test_expect_success 'report.json: the same whole reason under left_out' '
	test_status 0 "$AMDAHL" --store "$TMP/s.db" report build -o "$TMP/rep" &&
	test_eq "$(want_json)" "$(json_get "$TMP/rep/report.json" "first(d[\"left_out\"], id=\"$RUN\")[\"why\"]")"
'
test_expect_success 'stats text: the first 20 epochs, "and 40 more" and the parenthesis closed' '
	test_status 0 "$AMDAHL" --store "$TMP/s.db" stats &&
	want=$("$PY" -c "
print(\"no epoch left after the rules (epoch 0 (warm-up), %s and 40 more)\" % \", \".join(\"epoch %d (NaN)\" % s for s in range(1, 20)))") &&
	test_eq 1 "$(grep -c "^left out: .*$RUN" "$TMP/out")" &&
	test_eq "$want" "$(grep "^left out: .*$RUN" "$TMP/out" | sed "s/^left out: [^:]*: //")"
'
test_done
