# limits.sh — absurd sizes end with a clear error (file and limit named,
# exit 2) in bounded memory and time: a 100 MB metric line, a 100 MB
# param value, a gzip bomb (1 GiB of zeros in ~1 MB, made here) read as
# a metric file, a param, a meta.yaml and a named file, and YAML nested
# 1e6 deep in meta.yaml and in amdahl.yaml. Memory: peak RSS under
# MAX_RSS_MB, and (plain builds) an address-space limit of 1 GiB.
. "$(dirname "$0")/lib.sh"

MAX_RSS_MB=150
asan=0
ldd "$AMDAHL" 2>/dev/null | grep -q libasan && asan=1
if [ $asan = 1 ]; then
  MAX_RSS_MB=400   # ASan's shadow and quarantine; it cannot run under ulimit -v
  echo "# ASan build: peak RSS bound $MAX_RSS_MB MB, no address-space limit"
fi

# bounded DESC NEEDLE ARGS...: runs amdahl ARGS with a 120 s timeout,
# 1 GiB of address space (plain builds), and checks exit 2, one error
# line containing NEEDLE, and the peak RSS.
bounded() {
  local desc=$1 needle=$2; shift 2
  local res
  res=$(python3 - "$asan" "$TMP/err" "$AMDAHL" "$@" <<'PY'
import resource, subprocess, sys, time
asan, errpath, cmd = sys.argv[1] == "1", sys.argv[2], sys.argv[3:]
def limit():
    if not asan:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
t = time.time()
with open(errpath, "wb") as err:
    try:
        rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=err,
                            preexec_fn=limit, timeout=120).returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024,
      round(time.time() - t, 1))
PY
)
  local rc rss secs
  read -r rc rss secs <<<"$res"
  ERR=$(cat "$TMP/err")
  eq "$desc: exit 2" 2 "$rc"
  eq "$desc: one error line" 1 "$(printf '%s\n' "$ERR" | grep -c .)"
  contains "$desc: the error names file and limit" "$needle" "$ERR"
  if [ "$rss" -lt "$MAX_RSS_MB" ]; then pass "$desc: peak RSS ${rss} MB < $MAX_RSS_MB MB (${secs} s)"
  else fail "$desc: peak RSS under $MAX_RSS_MB MB" "was ${rss} MB"; fi
}

src=$(ls -d "$DATA"/cpu-strong-scaling/mlruns/4/*/ | head -1); src=${src%/}
rid=$(basename "$src")
fresh_run() {
  mkdir -p "$TMP/$1/mlruns/4"
  cp "$DATA/cpu-strong-scaling/mlruns/4/meta.yaml" "$TMP/$1/mlruns/4/"
  cp -r "$src" "$TMP/$1/mlruns/4/"
  rm -rf "$TMP/$1/mlruns/4/$rid/artifacts"  # its traces are units of their own
  echo "$TMP/$1/mlruns/4/$rid"
}
S=$TMP/s.db

run=$(fresh_run longline)
mf=$(find "$run/metrics" -type f | sort | head -1)
{ printf '1700000000000 '; head -c 100000000 /dev/zero | tr '\0' '7'; printf ' 1\n'; } >"$mf"
bounded "100 MB metric line" "$mf: line 1: longer than the limit of 4096 bytes" \
  --store "$S" ingest "$run"

run=$(fresh_run bigparam)
pf=$(find "$run/params" -type f | sort | head -1)
head -c 100000000 /dev/zero | tr '\0' 'x' >"$pf"
bounded "100 MB param value" "$pf: larger than the limit of 1048576 bytes" \
  --store "$S" ingest "$run"

# 1 GiB of zeros, gzipped (about 1 MB), made here rather than committed
python3 - "$TMP/bomb.gz" <<'PY'
import sys, zlib
c = zlib.compressobj(9, zlib.DEFLATED, 31)
z = bytes(1 << 24)
with open(sys.argv[1], "wb") as f:
    for _ in range(64):
        f.write(c.compress(z))
    f.write(c.flush())
PY
bsize=$(stat -c %s "$TMP/bomb.gz")
if [ "$bsize" -lt 2000000 ]; then pass "gzip bomb is small: $bsize bytes"
else fail "gzip bomb under 2 MB" "$bsize bytes"; fi
eq "gzip bomb expands to 1 GiB" 1073741824 "$(gzip -dc "$TMP/bomb.gz" | wc -c)"

run=$(fresh_run bombmetric)
mf=$(find "$run/metrics" -type f | sort | head -1)
cp "$TMP/bomb.gz" "$mf"
bounded "gzip bomb as a metric file" "$mf: line 1: longer than the limit of 4096 bytes" \
  --store "$S" ingest "$run"

run=$(fresh_run bombparam)
pf=$(find "$run/params" -type f | sort | head -1)
cp "$TMP/bomb.gz" "$pf"
bounded "gzip bomb as a param" "$pf: larger than the limit of 1048576 bytes once decompressed" \
  --store "$S" ingest "$run"

run=$(fresh_run bombmeta)
cp "$TMP/bomb.gz" "$run/meta.yaml"
bounded "gzip bomb as meta.yaml" "$run/meta.yaml: larger than the limit of 1048576 bytes once decompressed" \
  --store "$S" ingest "$run"

bounded "gzip bomb named on the command line" "$TMP/bomb.gz: not a format amdahl reads" \
  --store "$S" ingest "$TMP/bomb.gz"

# YAML nested a million levels deep (flow style: 1e6 bytes)
run=$(fresh_run deepmeta)
python3 -c 'import sys; sys.stdout.write("run_id: " + "[" * 1000000 + "\n")' >"$run/meta.yaml"
bounded "meta.yaml nested 1e6 deep" "$run/meta.yaml: line 1: nested too deeply" \
  --store "$S" ingest "$run"
python3 -c 'import sys; sys.stdout.write("gate: " + "{a: " * 250000 + "\n")' >"$TMP/deep.yaml"
bounded "amdahl.yaml nested 250000 deep (1e6 bytes)" "$TMP/deep.yaml: line 1: nested too deeply" \
  --store "$S" --config "$TMP/deep.yaml" ingest "$DATA/cpu-strong-scaling/mlruns"
python3 -c 'import sys; sys.stdout.write("- " * 500000 + "x\n")' >"$TMP/deepblock.yaml"
bounded "amdahl.yaml block sequence nested 500000 deep" "$TMP/deepblock.yaml: line 1: nested too deeply" \
  --store "$S" --config "$TMP/deepblock.yaml" ingest "$DATA/cpu-strong-scaling/mlruns"

# A profiler trace claiming a 400 MB string (1.8 MB gzipped, made here):
# the streaming reader stops at 64 MiB instead of buffering it whole.
python3 - "$TMP/bigstr.pt.trace.json.gz" <<'PY'
import gzip, sys
with gzip.open(sys.argv[1], "wb", compresslevel=1) as f:
    f.write(b'{"schemaVersion":1,"deviceProperties":[],"traceEvents":[{"ph":"X","name":"')
    for _ in range(400):
        f.write(b"a" * (1 << 20))
    f.write(b'","ts":1,"dur":2,"pid":1,"tid":1}]}')
PY
bounded "a trace with a 400 MB string" "bigstr.pt.trace.json.gz: byte 67108938: a JSON string or number longer than 64 MiB" \
  --store "$S" ingest "$TMP/bigstr.pt.trace.json.gz"

eq "no store was left behind by any of these" absent "$(store_digest "$S")"
