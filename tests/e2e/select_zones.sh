#!/bin/bash
# select_zones.sh — since/until in a selector take ISO 8601 times with a
# zone offset (Z, +HH:MM, +HHMM, +HH, and negative ones), the same reader
# the MLflow CSV export's times go through (lib/core/isotime.c; issue 36,
# item 10): on the bundled CPU sweep, one instant written in every zone
# form selects the same runs as its UTC form, and as many as python counts
# from the runs' start times (sqlite3) against python's datetime reading
# of the same text.
test_description='selectors: since/until with ISO 8601 zone offsets = the UTC instant (python datetime)'
. "$(dirname "$0")/../test-lib.sh"

CPU="$DATA/cpu-strong-scaling/mlruns"
S="$TMP/z.db"
CUT=""
# python's reading of an ISO 8601 time (fromisoformat; +HHMM and +HH
# completed to +HH:MM first, as older pythons want) as epoch ms
PY_MS='import datetime as dt, re, sys
s = re.sub(r"([+-]\d\d)(\d\d)$", r"\1:\2", re.sub(r"([+-]\d\d)$", r"\1:00", sys.argv[1].replace("Z", "+00:00")))
print(round(dt.datetime.fromisoformat(s).timestamp() * 1000))'
# the instant CUT (epoch s) written at a zone offset of $1 minutes, with
# the offset written by $2 (strftime-like: colon, nocolon, hours, z)
at_zone() {
	"$PY" -c 'import datetime as dt, sys
cut, off, form = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
t = dt.datetime.fromtimestamp(cut, dt.timezone(dt.timedelta(minutes=off)))
h, m = divmod(abs(off), 60)
sign = "-" if off < 0 else "+"
z = {"colon": "%s%02d:%02d" % (sign, h, m), "nocolon": "%s%02d%02d" % (sign, h, m),
     "hours": "%s%02d" % (sign, h), "z": "Z"}[form]
print(t.strftime("%Y-%m-%dT%H:%M:%S") + z)' "$CUT" "$1" "$2"
}
count() { "$AMDAHL" --store "$S" runs --sweep "$1" --json | json_get - 'len(d["runs"])'; }

test_expect_success SQLITE3 'setup: the CPU sweep; a cut between two runs'\'' starts' '
	"$AMDAHL" --store "$S" ingest -q "$CPU" &&
	CUT=$(q "$S" "SELECT (start_ms / 1000) + 1 FROM run WHERE start_ms IS NOT NULL ORDER BY start_ms LIMIT 1 OFFSET 12") &&
	test -n "$CUT"
'
for z in "330 colon" "330 nocolon" "-420 hours" "-420 colon" "0 z" "60 hours" "-570 nocolon"; do
	set -- $z
	test_expect_success SQLITE3,PYTHON "since and until at offset $1 min ($2): = the UTC form = python" '
		t=$(at_zone '"$1"' '"$2"') &&
		ms=$("$PY" -c "$PY_MS" "$t") &&
		test_eq "$((CUT * 1000))" "$ms" &&
		utc=$(date -u -d "@$CUT" +%Y-%m-%dT%H:%M:%S) &&
		want_since=$(q "$S" "SELECT count(*) FROM run WHERE start_ms >= $ms") &&
		want_until=$(q "$S" "SELECT count(*) FROM run WHERE start_ms < $ms") &&
		test_eq "$want_since" "$(count "since=$t")" &&
		test_eq "$want_since" "$(count "since=$utc")" &&
		test_eq "$want_until" "$(count "until=$t")"
	'
done
test_expect_success 'a zone out of range (+24:00, +0575) or cut (+5) is not a date: exit 2, the forms named' '
	for bad in "2026-11-22T11:44:00+24:00" "2026-11-22T11:44:00+0575" "2026-11-22T11:44:00+5"; do
		test_status 2 "$AMDAHL" --store "$S" runs --sweep "since=$bad" &&
		test_contains "is not a date YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM|+HHMM|+HH]" "$ERR" || return 1
	done
'

test_done
