# ingest_errors.sh — bad inputs: each gives one error line naming the
# file (and the line where there is one), exit 2, and leaves the store
# as it was — or, when there was no store, no store at all.
. "$(dirname "$0")/lib.sh"

S=$TMP/store.db
status "a good sweep first" 0 "$AMDAHL" --store "$S" ingest "$DATA/dataloader-workers/mlruns"
src=$(ls -d "$DATA"/cpu-strong-scaling/mlruns/4/*/ | head -1)
src=${src%/}
rid=$(basename "$src")

# fresh_run NAME: a copy of one real run at $TMP/NAME/mlruns/4/<rid>; prints its path
fresh_run() {
  mkdir -p "$TMP/$1/mlruns/4"
  cp "$DATA/cpu-strong-scaling/mlruns/4/meta.yaml" "$TMP/$1/mlruns/4/"
  cp -r "$src" "$TMP/$1/mlruns/4/"
  rm -rf "$TMP/$1/mlruns/4/$(basename "$src")/artifacts"  # traces are units of their own
  echo "$TMP/$1/mlruns/4/$rid"
}

# bad DESC NEEDLE PATH: ingest PATH into the existing store and into a new one
bad() {
  local desc=$1 needle=$2 path=$3 before
  before=$(store_digest "$S")
  status "$desc: exit 2" 2 "$AMDAHL" --store "$S" ingest "$path"
  eq "$desc: one error line" 1 "$(printf '%s\n' "$ERR" | grep -c .)"
  contains "$desc: the error names the place" "$needle" "$ERR"
  eq "$desc: store unchanged" "$before" "$(store_digest "$S")"
  rm -f "$TMP/new.db"
  status "$desc: exit 2 on a new store" 2 "$AMDAHL" --store "$TMP/new.db" ingest "$path"
  eq "$desc: no store left behind" "absent absent absent" \
    "$(for s in "" -wal -shm; do [ -e "$TMP/new.db$s" ] && echo present || echo absent; done | xargs)"
}

run=$(fresh_run truncated)
mf=$(find "$run/metrics" -type f | sort | head -1)
n=$(($(awk 'NF' "$mf" | wc -l) + 1))
printf '%s' "$(head -1 "$mf" | cut -c1-9)" >>"$mf"   # a last line cut short
bad "truncated metrics line" "$mf: line $n: expected 'timestamp value step', got 1 field" "$run"

run=$(fresh_run nonnumeric)
mf=$(find "$run/metrics" -type f | sort | head -1)
sed -i '2s/^\([0-9]*\) [^ ]*/\1 fast/' "$mf"
bad "non-numeric value" "$mf: line 2: value 'fast' is not a number" "$run"

run=$(fresh_run yaml)
printf 'artifact_uri: x\nrun_id: [unclosed\nstatus: 3\n' >"$run/meta.yaml"
bad "broken meta.yaml" "$run/meta.yaml: line 3 column" "$run"

run=$(fresh_run nometa)
printf 'status: 3\nrun_name: x\n' >"$run/meta.yaml"
bad "meta.yaml without a run id" "$run/meta.yaml: line 1: no run_id" "$run"

bad "missing path" "$TMP/no-such-dir: No such file or directory" "$TMP/no-such-dir"

run=$(fresh_run dangling)
ln -s "$TMP/nowhere" "$run/metrics/ghost"
bad "dangling symlink among the metric files" "$run/metrics/ghost: No such file or directory" "$run"

run=$(fresh_run fifo)
mkfifo "$run/params/pipe"
bad "a FIFO among the params (must not hang)" "$run/params/pipe: not a regular file" "$run"

mkfifo "$TMP/named.fifo"
bad "a FIFO named on the command line" "$TMP/named.fifo: not a regular file or directory" "$TMP/named.fifo"

run=$(fresh_run unreadable)
chmod 000 "$run/params/$(ls "$run/params" | head -1)"
if [ "$(id -u)" = 0 ]; then
  # root reads a mode-000 file: the ingest must then simply succeed
  status "mode 000 param as root: readable, ingests" 0 "$AMDAHL" --store "$TMP/root.db" ingest "$run"
  echo "# running as root: mode 000 does not stop reads; the dangling symlink and FIFO cases above are the unreadable entries"
else
  bad "unreadable param file" "$run/params/$(ls "$run/params" | head -1): Permission denied" "$run"
fi

printf 'just some notes\n' >"$TMP/notes.txt"
bad "a file that is no format" "$TMP/notes.txt: not a format amdahl reads" "$TMP/notes.txt"

# a good run next to a bad one: the good one is kept, the bad one is not
mkdir -p "$TMP/mixed/mlruns/4"
cp -r "$TMP/nonnumeric/mlruns/4/$rid" "$TMP/mixed/mlruns/4/"
good=$(ls -d "$DATA"/cpu-strong-scaling/mlruns/4/*/ | sed -n 2p); good=${good%/}
cp -r "$good" "$TMP/mixed/mlruns/4/"
status "mixed good and bad: exit 2" 2 "$AMDAHL" --store "$TMP/mixed.db" ingest "$TMP/mixed/mlruns"
eq "mixed: the good run is stored, the bad one is not" "$(basename "$good")" \
  "$(q "$TMP/mixed.db" 'SELECT ext_id FROM run')"
eq "mixed: no points of the bad run" \
  "$(find "$good/metrics" -type f -exec cat {} + | awk 'NF' | wc -l)" \
  "$(q "$TMP/mixed.db" 'SELECT count(*) FROM metric_point')"

# a --store that is not a store: an error naming it, and the file untouched
printf 'my notes\n' >"$TMP/notes.db"
status "a store that is not SQLite: exit 2" 2 "$AMDAHL" --store "$TMP/notes.db" ingest "$DATA/dataloader-workers/mlruns"
contains "a store that is not SQLite: named" "$TMP/notes.db: file is not a database" "$ERR"
eq "a store that is not SQLite: left as it was" "my notes" "$(cat "$TMP/notes.db")"
status "a store in a missing directory: exit 2" 2 "$AMDAHL" --store "$TMP/nodir/s.db" ingest "$DATA/dataloader-workers/mlruns"
contains "a store in a missing directory: named" "$TMP/nodir/s.db" "$ERR"
