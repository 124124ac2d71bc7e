# formats_gpu.sh — nvidia-smi CSV logs and itwinai's
# torch_profiling_averages.csv on the real files in testdata/, checked
# with python's csv module; bad inputs give one line, exit 2, store unchanged.
. tests/e2e/lib.sh
A() { "$AMDAHL" --store "$@"; }
LOG="$DATA/gpu-batch-sweep/nvidia-smi.csv"
PY=/usr/bin/python3

status "nvidia-smi log ingests" 0 A "$TMP/g.db" ingest "$LOG"
eq "samples: one per data row (python csv)" \
  "$($PY -c "import csv,sys; print(sum(1 for r in list(csv.reader(open(sys.argv[1])))[1:] if r))" "$LOG")" \
  "$(q "$TMP/g.db" 'SELECT count(*) FROM gpu_sample')"
eq "per-GPU sample counts (python csv)" \
  "$($PY -c "
import csv,sys,collections
rows=list(csv.reader(open(sys.argv[1]),skipinitialspace=True)); i=rows[0].index('index')
c=collections.Counter(int(r[i]) for r in rows[1:] if r)
print('\n'.join('%d|%d'%(g,c[g]) for g in sorted(c)))" "$LOG")" \
  "$(q "$TMP/g.db" 'SELECT gpu, count(*) FROM gpu_sample GROUP BY gpu ORDER BY gpu')"
# sums of each column, and the first and last timestamps (read as UTC)
oracle=$($PY -c "
import csv,sys,datetime
rows=list(csv.reader(open(sys.argv[1]),skipinitialspace=True)); h=[x.split(' [')[0] for x in rows[0]]
col=lambda n:[float(r[h.index(n)].split()[0]) for r in rows[1:] if r]
ts=[round(datetime.datetime.strptime(r[0],'%Y/%m/%d %H:%M:%S.%f').replace(tzinfo=datetime.timezone.utc).timestamp()*1000) for r in rows[1:] if r]
print('%.6f %.6f %.6f %.6f %.6f %d %d'%(sum(col('power.draw')),sum(col('utilization.gpu')),sum(col('utilization.memory')),sum(col('memory.used')),sum(col('temperature.gpu')),min(ts),max(ts)))" "$LOG")
eq "column sums and time range equal python's" "$oracle" \
  "$(q "$TMP/g.db" "SELECT printf('%.6f %.6f %.6f %.6f %.6f %d %d', sum(power_w), sum(util_pct), sum(mem_util_pct), sum(mem_used_mib), sum(temp_c), min(ts_ms), max(ts_ms)) FROM gpu_sample")"
eq "no run given: samples of no run" 0 "$(q "$TMP/g.db" 'SELECT count(run_id) FROM gpu_sample')"

A "$TMP/r.db" ingest "$DATA/gpu-batch-sweep/mlruns" >/dev/null
status "nvidia-smi log with --run" 0 A "$TMP/r.db" ingest --run bf16-b8 "$LOG"
eq "--run links every sample to the newest run of that name" \
  "$(q "$TMP/r.db" "SELECT id FROM run WHERE name='bf16-b8' ORDER BY start_ms DESC LIMIT 1")" \
  "$(q "$TMP/r.db" 'SELECT group_concat(DISTINCT run_id) FROM gpu_sample')"

gzip -c "$LOG" >"$TMP/nvidia-smi.csv.gz"
status "gzipped nvidia-smi log" 0 A "$TMP/gz.db" ingest "$TMP/nvidia-smi.csv.gz"
eq "gzipped log: the same samples" "$(q "$TMP/g.db" 'SELECT count(*), sum(power_w) FROM gpu_sample')" \
  "$(q "$TMP/gz.db" 'SELECT count(*), sum(power_w) FROM gpu_sample')"

# nounits form, columns in another order and a subset, [N/A] values
$PY - "$LOG" "$TMP/nounits.csv" <<'PYEOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1]), skipinitialspace=True))
h = rows[0]
order = [h.index("power.draw [W]"), h.index("timestamp"), h.index("index"), h.index("utilization.gpu [%]")]
with open(sys.argv[2], "w") as f:
    f.write(", ".join(h[i] for i in order) + "\n")
    for n, r in enumerate(rows[1:]):
        vals = [r[i].split()[0] if i != h.index("timestamp") else r[i] for i in order]
        if n == 10:
            vals[0] = "[N/A]"
        f.write(", ".join(vals) + "\n")
PYEOF
status "nounits log, reordered columns, [N/A]" 0 A "$TMP/n.db" ingest "$TMP/nounits.csv"
eq "[N/A] power stored as missing" "1|357" "$(q "$TMP/n.db" 'SELECT count(*)-count(power_w), count(power_w) FROM gpu_sample')"
eq "columns found by name in another order" \
  "$(q "$TMP/g.db" "SELECT printf('%.4f %.4f', sum(util_pct), sum(power_w)) FROM gpu_sample WHERE ts_ms<>(SELECT ts_ms FROM gpu_sample ORDER BY ts_ms LIMIT 1 OFFSET 10)")" \
  "$(q "$TMP/n.db" "SELECT printf('%.4f %.4f', sum(util_pct), sum(power_w)) FROM gpu_sample WHERE power_w IS NOT NULL")"
eq "absent columns stay missing" 0 "$(q "$TMP/n.db" 'SELECT count(temp_c) FROM gpu_sample')"

# itwinai torch_profiling_averages.csv under each run's artifacts
IT="$DATA/itwinai-layout"
status "itwinai layout ingests" 0 A "$TMP/i.db" ingest "$IT"
pyit=$($PY -c "
import csv,glob,sys
fs=sorted(glob.glob(sys.argv[1]+'/**/torch_profiling_averages.csv',recursive=True))
rows=[(f.split('/')[-4],r) for f in fs for r in csv.DictReader(open(f))]
print(len(fs), len(rows), sum(1 for _,r in rows if ',' in r['name']))
print('%.3f %.3f %d'%(sum(float(r['self_cuda_time_total']) for _,r in rows), sum(float(r['cuda_time_total']) for _,r in rows), sum(int(r['calls']) for _,r in rows)))
for run in sorted({k for k,_ in rows}):
  rs=[r for k,r in rows if k==run]; print('%s|%d|%.3f|%s'%(run,len(rs),sum(float(r['cuda_time_total']) for r in rs),','.join(sorted({r['global_rank'] for r in rs}))))
" "$IT")
eq "op averages: files, rows and quoted names with commas (python csv)" "$(printf '%s\n' "$pyit" | sed -n 1p)" \
  "$(q "$TMP/i.db" "SELECT printf('%d %d %d', (SELECT count(*) FROM source WHERE kind='itwinai-op-averages'), count(*), sum(d.s LIKE '%,%')) FROM op_average o JOIN dict d ON d.id=o.name_id")"
eq "op averages: sums of times and calls" "$(printf '%s\n' "$pyit" | sed -n 2p)" \
  "$(q "$TMP/i.db" "SELECT printf('%.3f %.3f %d', sum(self_cuda_us), sum(cuda_total_us), sum(calls)) FROM op_average")"
eq "op averages: each file linked to the run whose artifacts hold it" "$(printf '%s\n' "$pyit" | sed -n '3,$p')" \
  "$(q "$TMP/i.db" "SELECT r.ext_id, count(*), printf('%.3f', sum(cuda_total_us)), group_concat(DISTINCT o.rank) FROM op_average o JOIN run r ON r.id=o.run_id GROUP BY r.ext_id ORDER BY r.ext_id")"

# bad inputs
bad() { # DESC FILE EXPECTED_TEXT
  local before; before=$(store_digest "$TMP/g.db")
  status "$1: exit 2" 2 A "$TMP/g.db" ingest "$2"
  contains "$1: error names the place" "$3" "$ERR"
  eq "$1: one line" 1 "$(printf '%s\n' "$ERR" | grep -c .)"
  eq "$1: store unchanged" "$before" "$(store_digest "$TMP/g.db")"
}
sed '7s/75\.[0-9]* W/seventy W/' "$LOG" >"$TMP/word.csv"
bad "nvidia-smi non-numeric power" "$TMP/word.csv" "word.csv: line 7: column 'power.draw [W]': 'seventy W' is not a number"
head -c $(( $(wc -c <"$LOG") - 25 )) "$LOG" >"$TMP/cut.csv"
bad "truncated nvidia-smi log" "$TMP/cut.csv" "cut.csv: line 359: "
sed '1s/^timestamp,/time,/' "$LOG" >"$TMP/nots.csv"
bad "nvidia-smi log without a timestamp column" "$TMP/nots.csv" "nots.csv: line 1: no column 'timestamp'"
sed '5s/2026\/11\/22 11:/2026-13-45 11:/' "$LOG" >"$TMP/date.csv"
bad "nvidia-smi bad timestamp" "$TMP/date.csv" "date.csv: line 5: column 'timestamp'"
f=$(find "$IT" -name torch_profiling_averages.csv | sort | head -1)
sed '1s/,calls,/,count,/' "$f" >"$TMP/itw.csv"
bad "itwinai csv without calls" "$TMP/itw.csv" "itw.csv: line 1: no column 'calls'"
awk -F, 'NR==4{$6="many"}1' OFS=, "$f" >"$TMP/itw2.csv"
bad "itwinai csv non-numeric calls" "$TMP/itw2.csv" "itw2.csv: line 4: column 'calls': 'many'"
head -c 3000 "$TMP/nvidia-smi.csv.gz" >"$TMP/cut.csv.gz"
bad "truncated gzipped log" "$TMP/cut.csv.gz" "cut.csv.gz: line "
contains "truncated gzipped log: says so" "gzip data ends early" "$ERR"
