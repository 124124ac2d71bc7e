# traces.sh — every public PyTorch profiler trace (HTA's test traces:
# NCCL, gloo CPU-only, AMD MI250, no rank, rank 0 of 16; param's 8 DLRM
# ranks) ingested; rank, world size and event count, and then every
# stored number, against tests/oracle/trace_oracle.py.
. "$AMDAHL_ROOT/tests/e2e/lib.sh"
. "$AMDAHL_ROOT/tests/oracle/trace_dump.sh"
ORACLE="/usr/bin/python3 $AMDAHL_ROOT/tests/oracle/trace_oracle.py"
DB="$TMP/c.db"
DIR="$PUBLIC/traces"
files=$(find "$DIR" -name '*.json.gz' | sort)
status "ingest every public trace" 0 "$AMDAHL" --store "$DB" ingest "$DIR"
eq "one trace per file" "$(printf '%s\n' "$files" | wc -l)" "$(q "$DB" 'SELECT count(*) FROM trace')"
for f in $files; do
  real=$(realpath "$f")
  $ORACLE "$f" >"$TMP/o.txt"
  dump_trace "$DB" "$real" >"$TMP/s.txt"
  read -r _ orank oworld oevents _ <"$TMP/o.txt"
  eq "$(basename "$f"): rank, world size, events" "$orank $oworld $oevents" \
    "$(head -1 "$TMP/s.txt" | cut -d' ' -f2-4)"
  eq "$(basename "$f"): every stored number equals the oracle's" "" "$(diff "$TMP/s.txt" "$TMP/o.txt" | head -5)"
done
eq "param DLRM: ranks 0..7 of 8 over nccl" "0 1 2 3 4 5 6 7|8|nccl" \
  "$(q "$DB" "SELECT group_concat(rank, ' ') || '|' || max(world_size) || '|' || max(backend) FROM (SELECT t.* FROM trace t JOIN source s ON s.id=t.source_id WHERE s.path LIKE '%param-dlrm-8ranks%' ORDER BY rank)")"
eq "gloo CPU-only trace: rank 34 of 300, no GPU" "34|300|0" \
  "$(q "$DB" "SELECT rank, world_size, has_gpu FROM trace t JOIN source s ON s.id=t.source_id WHERE s.path LIKE '%cpu-only-gloo%'")"
eq "the trace without a rank: stored with none" "" \
  "$(q "$DB" "SELECT rank FROM trace t JOIN source s ON s.id=t.source_id WHERE s.path LIKE '%rank-not-found%'")"
