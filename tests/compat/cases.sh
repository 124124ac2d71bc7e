# cases.sh — what tests/compat/outputs.sh compares, sourced by it: the
# ingests that make the stores (each itself a compared output) and every
# read command on them. `t KIND NAME [VAR=VALUE...] -- ARGS` runs `amdahl
# ARGS` on both sides; `save PATH` keeps each side's stdout of the last
# case as a file; `f KIND NAME PATH` and `fdir NAME DIR` compare files the
# commands wrote. `always=1 t ...`: a case whose files later cases read,
# run whatever -p says. Ingests use -j 1: ids follow the ingest order.
# shellcheck shell=bash

# run ids of the bundled CPU sweep (MLflow ids, fixed by testdata/)
DDP1_R1=282d71b5f16744c69d76d15137741ccb
DDP1_R2=f10850af06a54e7e8a1643765d78b461
DDP2_R1=4133361891e5456e88f478fab3e64aa4
DDP2_R2=35b98d95cb2449f9a3df172d0213ebd2
DDP4_R1=4702227e39104ce1aabab82ead44325c
DDP4_R2=ddb95b4bad444b48a95f4b90f5a2d33a
DDP8_R1=9f108273227146e797b738dd050a1d99
FSDP8=308e74e2e53c41adb92c6e48dcb6847b
CPU=$DATA/cpu-strong-scaling/mlruns
GPU=$DATA/gpu-batch-sweep
CPU_SWEEP=cpu-strong-scaling

# ---- the program itself ----
t text "version" -- --version
t text "help" -- --help
t text "no command" --
t text "not a command" -- nosuch
for c in ingest runs stats trace pyspy report compare gate mail regions scaling diff history push pull sql link; do
	t text "$c --help" -- "$c" --help
done
t text "ingest --formats" -- ingest --formats

# ---- one store per bundled sweep ----
# NAME:DIR:SWEEP — the store, what it ingests, the sweep its reads name
SWEEPS="cpu:cpu-strong-scaling:cpu-strong-scaling
gpu:gpu-batch-sweep:gpu-batch-sweep
dl:dataloader-workers:dataloader-workers
itwinai:itwinai-layout:mnist-scaling
mlflow1:mlflow1-projects:mlflow1-projects
mllog:mllog:mlperf-tiny_mlp
tb:tensorboard:tb-sweep
profiles:profiles:
pyspy:pyspy:
fuzz:fuzz-regressions:"
while IFS=: read -r st dir sweep; do
	S=(--store "$st.db")
	t text "$st/ingest" -- "${S[@]}" ingest -j 1 "$DATA/$dir"
	t text "$st/ingest again (unchanged)" -- "${S[@]}" ingest -j 1 "$DATA/$dir"
	[ "$st" = fuzz ] && continue # every file refused: no store to read
	t text "$st/runs" -- "${S[@]}" runs
	t json "$st/runs --json" -- "${S[@]}" runs --json
	t text "$st/runs --sources" -- "${S[@]}" runs --sources
	t json "$st/runs --sources --json" -- "${S[@]}" runs --sources --json
	t text "$st/runs --orphans" -- "${S[@]}" runs --orphans
	t json "$st/runs --orphans --json" -- "${S[@]}" runs --orphans --json
	t text "$st/stats" -- "${S[@]}" stats
	t json "$st/stats --json" -- "${S[@]}" stats --json
	t text "$st/scaling" -- "${S[@]}" scaling
	t json "$st/scaling --json" -- "${S[@]}" scaling --json
	[ -n "$sweep" ] || continue
	t text "$st/runs --sweep" -- "${S[@]}" runs --sweep "$sweep"
	t text "$st/stats --keep-first --keep-profiled" -- "${S[@]}" stats --sweep "$sweep" --keep-first --keep-profiled
	t json "$st/stats --aggregate mlperf --json" -- "${S[@]}" stats --sweep "$sweep" --aggregate mlperf --json
	t text "$st/regions SWEEP" -- "${S[@]}" regions "$sweep"
	t json "$st/regions SWEEP -n 0 --json" -- "${S[@]}" regions "$sweep" -n 0 --json
	always=1 t text "$st/report build" -- "${S[@]}" report build --sweep "$sweep" -o "rep-$st"
	fdir "$st/report" "rep-$st"
done <<<"$SWEEPS"

# ---- the CPU sweep: every read command and its options ----
S=(--store cpu.db)
t text "cpu/stats --by strategy" -- "${S[@]}" stats --by strategy
t json "cpu/stats --by strategy --json" -- "${S[@]}" stats --by strategy --json
t text "cpu/stats --metric throughput" -- "${S[@]}" stats --metric throughput_samples_per_s
t text "cpu/stats --mad-k 2 --resamples 2000 --seed 7" -- "${S[@]}" stats --mad-k 2 --resamples 2000 --seed 7
t text "cpu/stats selector" -- "${S[@]}" stats --sweep "strategy=ddp,n>=2"
t text "cpu/stats bad selector key" -- "${S[@]}" stats --sweep "strategi=ddp"
t text "cpu/stats bad selector value" -- "${S[@]}" stats --sweep "status=DONE"
t text "cpu/stats bad date" -- "${S[@]}" stats --sweep "since=2026-13-40"
t text "cpu/stats no such sweep" -- "${S[@]}" stats --sweep nosuch
t text "cpu/stats no such metric" -- "${S[@]}" stats --metric nosuch
t text "cpu/stats bad option" -- "${S[@]}" stats --nosuch
t text "cpu/scaling --strategy ddp" -- "${S[@]}" scaling --strategy ddp
t text "cpu/scaling --kind collective -n 0" -- "${S[@]}" scaling --kind collective -n 0
t text "cpu/scaling --target 64 --next 16,32" -- "${S[@]}" scaling --target 64 --next 16,32
t json "cpu/scaling --strategy fsdp --json" -- "${S[@]}" scaling --strategy fsdp --resamples 500 --seed 3 --json
t text "cpu/scaling --axis nosuch" -- "${S[@]}" scaling --axis nosuch
t text "cpu/regions run" -- "${S[@]}" regions ddp-n8
t json "cpu/regions run -n 0 --json" -- "${S[@]}" regions ddp-n8 -n 0 --json
t text "cpu/regions --kind collective" -- "${S[@]}" regions "$CPU_SWEEP" --kind collective -n 0
t text "cpu/regions --region" -- "${S[@]}" regions "$CPU_SWEEP" --region "aten::mm"
t json "cpu/regions --region --json" -- "${S[@]}" regions "$CPU_SWEEP" --region "aten::mm" --json
t text "cpu/regions selector" -- "${S[@]}" regions "strategy=fsdp,n=2" -n 2
t text "cpu/regions bad selector" -- "${S[@]}" regions "strategy=dpp"
t text "cpu/regions file" -- "${S[@]}" regions "$(ls "$CPU"/*/"$FSDP8"/artifacts/traces/rank3.*)" -n 5
for r in ddp-n1 ddp-n8 fsdp-n8; do
	t text "cpu/trace show $r" -- "${S[@]}" trace show "$r"
done
t text "cpu/trace show --rank 3 -n 0" -- "${S[@]}" trace show "$FSDP8" --rank 3 -n 0
t json "cpu/trace show --json" -- "${S[@]}" trace show ddp-n4 --json
t text "cpu/trace show no traces" -- "${S[@]}" trace show "$DDP8_R1"
t text "cpu/trace show no such run" -- "${S[@]}" trace show nosuch
t text "cpu/diff ddp fsdp" -- "${S[@]}" diff "$CPU_SWEEP:ddp" "$CPU_SWEEP:fsdp"
t json "cpu/diff ddp fsdp --json" -- "${S[@]}" diff "$CPU_SWEEP:ddp" "$CPU_SWEEP:fsdp" --json
t text "cpu/diff n=4 n=8 -n 0" -- "${S[@]}" diff "$CPU_SWEEP:ddp:4" "$CPU_SWEEP:ddp:8" -n 0
t text "cpu/diff selectors" -- "${S[@]}" diff "strategy=ddp,n=2" "strategy=fsdp,n=2"
t text "cpu/diff bad side" -- "${S[@]}" diff "$CPU_SWEEP:nosuch" "$CPU_SWEEP:ddp"
t text "cpu/compare ddp fsdp" -- "${S[@]}" compare --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp"
t json "cpu/compare ddp fsdp --json" -- "${S[@]}" compare --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --json
t text "cpu/compare --format benchstat" -- "${S[@]}" compare --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --format benchstat
t text "cpu/compare --format csv" -- "${S[@]}" compare --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --format csv
t text "cpu/compare --by param.repeat" -- "${S[@]}" compare --by param.repeat
t json "cpu/compare --by param.repeat --json" -- "${S[@]}" compare --by param.repeat --json
t text "cpu/compare --by --format csv" -- "${S[@]}" compare --by param.repeat --sweep strategy=fsdp --baseline 2 --format csv
t text "cpu/compare --by strategy (nothing shared)" -- "${S[@]}" compare --by strategy
t text "cpu/compare --aggregate mlperf --n 4" -- "${S[@]}" compare --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --aggregate mlperf --n 4
t text "cpu/compare --markdown (gate only)" -- "${S[@]}" compare --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --markdown c.md
t text "cpu/runs AMDAHL_STORE" AMDAHL_STORE=cpu.db -- runs --sweep "n=8"
t text "cpu/compare missing side" -- "${S[@]}" compare --baseline "$CPU_SWEEP:ddp"
t text "cpu/gate ddp fsdp" -- "${S[@]}" gate --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --junit gate.xml --markdown gate.md
f text "cpu/gate --junit file" gate.xml
f text "cpu/gate --markdown file" gate.md
always=1 t json "cpu/gate --json" -- "${S[@]}" gate --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --json
save gate-ddp-fsdp.json
t text "cpu/gate GITHUB_STEP_SUMMARY" GITHUB_STEP_SUMMARY=step-summary.md -- "${S[@]}" gate --baseline "$CPU_SWEEP:fsdp" --candidate "$CPU_SWEEP:ddp" --n 2
f text "cpu/gate GITHUB_STEP_SUMMARY file" step-summary.md
t text "cpu/gate --format benchstat" -- "${S[@]}" gate --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --format benchstat
t text "cpu/gate --format csv" -- "${S[@]}" gate --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --format csv
t text "cpu/gate --fallback ci --require-all" -- "${S[@]}" gate --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --fallback ci --require-all
t text "cpu/gate --only --metric" -- "${S[@]}" gate --baseline "$CPU_SWEEP:fsdp" --candidate "$CPU_SWEEP:ddp" --only throughput_samples_per_s --n 8
t text "cpu/gate A/A" -- "${S[@]}" gate --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:ddp"
always=1 t json "cpu/report build --json" -- "${S[@]}" report build -o rep-cpu-cmp --baseline "$CPU_SWEEP:ddp" --candidate "$CPU_SWEEP:fsdp" --json
fdir "cpu/report with a comparison" rep-cpu-cmp
t text "cpu/report build --keep-first --aggregate mlperf" -- "${S[@]}" report build -o rep-cpu-kf --keep-first --keep-profiled --aggregate mlperf
fdir "cpu/report --keep-first --aggregate mlperf" rep-cpu-kf
t text "cpu/report build no such sweep" -- "${S[@]}" report build --sweep nosuch -o rep-x
t text "cpu/report draw" -- "${S[@]}" report draw
t text "cpu/mail --dry-run" -- mail --to ci@example.org,lead@example.org --from amdahl@example.org --dry-run mail.eml rep-cpu-cmp
f eml "cpu/mail message" mail.eml
t eml "cpu/mail --dry-run - --subject" -- mail --to ci@example.org --from amdahl@example.org --subject "nightly scaling" --dry-run - rep-cpu
t text "cpu/mail --dry-run --gate" -- mail --to ci@example.org --from amdahl@example.org --gate gate-ddp-fsdp.json --dry-run mail-gate.eml rep-cpu
f eml "cpu/mail message with a gate verdict" mail-gate.eml
mkdir -p "$W/ref/rep-cpu-gate" "$W/new/rep-cpu-gate"
cp -r "$W/ref/rep-cpu/." "$W/ref/rep-cpu-gate/" 2>/dev/null && cp "$W/ref/gate-ddp-fsdp.json" "$W/ref/rep-cpu-gate/gate.json" 2>/dev/null
cp -r "$W/new/rep-cpu/." "$W/new/rep-cpu-gate/" 2>/dev/null && cp "$W/new/gate-ddp-fsdp.json" "$W/new/rep-cpu-gate/gate.json" 2>/dev/null
t eml "cpu/mail REPORT_DIR/gate.json" -- mail --to ci@example.org --from amdahl@example.org --dry-run - rep-cpu-gate
t text "cpu/mail no recipient" -- mail rep-cpu
t text "cpu/mail bad address" -- mail --to "alice at example.org" --dry-run - rep-cpu
t text "cpu/mail no report" -- mail --to ci@example.org --dry-run - rep-nosuch
t text "cpu/mail password in URL" -- mail --to ci@example.org --smtp "smtp://u:pw@127.0.0.1:1" rep-cpu
t text "cpu/sql metric_point" -- "${S[@]}" sql "SELECT count(*), sum(value) FROM metric_point"
t text "cpu/sql source" -- "${S[@]}" sql "SELECT kind, count(*), sum(size) FROM source GROUP BY kind ORDER BY kind"
t text "cpu/sql read-only" -- "${S[@]}" sql "DELETE FROM metric_point"
t text "cpu/push to a file" -- "${S[@]}" push --to x.db
t text "cpu/pull from a file" -- pull --from cpu.db --to x.db
t text "cpu/link no such file" -- "${S[@]}" link nosuch.json ddp-n8
t text "cpu/runs selector" -- "${S[@]}" runs --sweep "strategy=ddp,n>=4"
t json "cpu/runs selector --json" -- "${S[@]}" runs --sweep "until=2030-01-01,name~ddp-n*" --json
t text "cpu/runs --sources --sweep" -- "${S[@]}" runs --sources --sweep "strategy=fsdp,n=8"
t text "no store" -- --store nosuch.db runs
t text "no store (stats)" -- --store nosuch.db stats

# ---- the H100 sweep: batch-size axis, GPU logs, CUDA traces ----
S=(--store gpu.db)
t text "gpu/stats --axis global_batch_size" -- "${S[@]}" stats --axis global_batch_size
t json "gpu/stats --axis --json" -- "${S[@]}" stats --axis global_batch_size --json
t text "gpu/scaling --axis global_batch_size" -- "${S[@]}" scaling --axis global_batch_size -n 0
t json "gpu/scaling --axis --json" -- "${S[@]}" scaling --axis global_batch_size --json
t text "gpu/regions --kind kernel" -- "${S[@]}" regions gpu-batch-sweep --kind kernel
t text "gpu/regions run --kind memcpy" -- "${S[@]}" regions bf16-b64 --kind memcpy -n 0
t text "gpu/trace show" -- "${S[@]}" trace show bf16-b64
t json "gpu/trace show --json" -- "${S[@]}" trace show fp32-b8 --json
t text "gpu/diff fp32 bf16" -- "${S[@]}" diff "strategy=fp32,param.global_batch_size=64" "strategy=bf16,param.global_batch_size=64"
t text "gpu/compare fp32 bf16" -- "${S[@]}" compare --baseline gpu-batch-sweep:fp32 --candidate gpu-batch-sweep:bf16 --axis global_batch_size
t text "gpu/compare --by param.repeat --format benchstat" -- "${S[@]}" compare --by param.repeat --axis global_batch_size --format benchstat
t text "gpu/gate fp32 bf16" -- "${S[@]}" gate --baseline gpu-batch-sweep:fp32 --candidate gpu-batch-sweep:bf16 --axis global_batch_size
always=1 t text "gpu/report build --axis" -- "${S[@]}" report build --axis global_batch_size -o rep-gpu-axis
fdir "gpu/report --axis" rep-gpu-axis
t text "gpu/regions --region kernel" -- "${S[@]}" regions gpu-batch-sweep --region "$(cd "$W/ref" && "${RUN_ENV[@]}" "$REF_BIN" --store gpu.db regions bf16-b64 --kind kernel --json 2>/dev/null |
	"$PY" -c 'import json, sys; print(json.load(sys.stdin)["regions"][0]["name"])' 2>/dev/null)"
t text "gpu/scaling --axis selector" -- "${S[@]}" scaling --sweep "strategy=bf16" --axis global_batch_size --strategy bf16 --kind kernel
t text "gpu/sql gpu_sample" -- "${S[@]}" sql "SELECT count(*), sum(power_w) FROM gpu_sample"

S=(--store dl.db)
t text "dl/stats --metric profile" -- "${S[@]}" stats --metric profile/train/dl_main/time_data_ms
t text "dl/compare --by param.num_workers" -- "${S[@]}" compare --by param.num_workers --metric profile/train/dl_main/time_batch_wait_ms
S=(--store itwinai.db)
t text "itwinai/regions --source torch-averages" -- "${S[@]}" regions mnist-scaling --source torch-averages -n 5
t text "itwinai/regions run" -- "${S[@]}" regions ddp-1x1-scaling-1gpu -n 0
t text "itwinai/stats --metric gpu_power_W" -- "${S[@]}" stats --metric gpu_power_W
S=(--store mllog.db)
t text "mllog/stats --metric time_to_train_s" -- "${S[@]}" stats --metric time_to_train_s
t text "mllog/gate --aggregate mlperf" -- "${S[@]}" gate --baseline mlperf-tiny_mlp --candidate mlperf-tiny_mlp --metric time_to_train_s --aggregate mlperf

# ---- nvidia-smi logs as written by other loops and flags ----
tail -n +2 "$GPU/nvidia-smi.csv" | head -400 >"$W/in/nvsmi-noheader.csv"
cut -d, -f2- "$GPU/nvidia-smi.csv" | head -400 >"$W/in/nvsmi-notime.csv"
S=(--store nvsmi.db)
t text "nvsmi/ingest cpu sweep" -- "${S[@]}" ingest -j 1 -q "$CPU"
t text "nvsmi/ingest --query" -- "${S[@]}" ingest -j 1 --run ddp-n1 --format nvidia-smi-csv \
	--query timestamp,index,name,utilization.gpu,utilization.memory,power.draw,memory.used,temperature.gpu "$W/in/nvsmi-noheader.csv"
t text "nvsmi/ingest --interval" -- "${S[@]}" ingest -j 1 --run ddp-n2 --interval 0.2 "$W/in/nvsmi-notime.csv"
t text "nvsmi/ingest no --query" -- "${S[@]}" ingest -j 1 --run ddp-n4 --format nvidia-smi-csv "$W/in/nvsmi-noheader.csv"
t text "nvsmi/runs --sources" -- "${S[@]}" runs --sources --sweep "n<=2"
t text "nvsmi/sql gpu_sample" -- "${S[@]}" sql "SELECT count(*), sum(power_w) FROM gpu_sample"
t text "nvsmi/stats" -- "${S[@]}" stats --sweep "n<=4"

# ---- inputs that must be refused whole: the message and the store kept ----
mkdir -p "$W/in/bad"
head -c 3000 "$(ls "$CPU"/*/"$FSDP8"/artifacts/traces/rank0.*)" >"$W/in/bad/cut.pt.trace.json.gz"
zcat "$(ls "$CPU"/*/"$FSDP8"/artifacts/traces/rank1.*)" | head -c 20000 >"$W/in/bad/cut.pt.trace.json"
printf '{"traceEvents": [{"ph": "X", "ts": "soon"}]}' >"$W/in/bad/wrong.pt.trace.json"
: >"$W/in/bad/empty.json"
printf 'main;work 3\nmain;work\n' >"$W/in/bad/nocount.txt"
S=(--store bad.db)
t text "bad/ingest a sweep" -- "${S[@]}" ingest -j 1 -q "$DATA/mllog"
for b in cut.pt.trace.json.gz cut.pt.trace.json wrong.pt.trace.json empty.json nocount.txt; do
	t text "bad/ingest $b" -- "${S[@]}" ingest -j 1 --run tiny_mlp-1x1 "$W/in/bad/$b"
done
t text "bad/ingest --format pyspy-collapsed" -- "${S[@]}" ingest -j 1 --format pyspy-collapsed "$W/in/bad/nocount.txt"
t text "bad/ingest --format nosuch" -- "${S[@]}" ingest -j 1 --format nosuch "$W/in/bad/empty.json"
t text "bad/ingest no path" -- "${S[@]}" ingest -j 1
t text "bad/ingest no such path" -- "${S[@]}" ingest -j 1 "$W/in/nosuch"
t text "bad/ingest --run no such run" -- "${S[@]}" ingest -j 1 --run nosuch "$DATA/pyspy/train-raw.txt"
t text "bad/runs --sources (unchanged)" -- "${S[@]}" runs --sources

# ---- kernels kept: ingest --events ----
S=(--store events.db)
t text "events/ingest --events" -- "${S[@]}" ingest -j 1 --events "$GPU"
t text "events/sql trace_event" -- "${S[@]}" sql "SELECT kind, count(*), sum(dur_ns), sum(bytes) FROM trace_event GROUP BY kind ORDER BY kind"

# ---- one store with every sweep, pyspy and profiles linked to runs ----
S=(--store all.db)
t text "all/ingest every sweep" -- "${S[@]}" ingest -j 1 "$CPU" "$GPU" "$DATA/dataloader-workers" \
	"$DATA/itwinai-layout" "$DATA/mlflow1-projects" "$DATA/mllog" "$DATA/tensorboard"
t text "all/ingest the same again" -- "${S[@]}" ingest -j 1 "$CPU"
t json "all/ingest --json --sweep rerun" -- "${S[@]}" ingest -j 1 --json --sweep rerun "$W/in/cpu-copy1"
t text "all/ingest py-spy --run" -- "${S[@]}" ingest -j 1 --run "$FSDP8" "$DATA/pyspy"
t text "all/ingest cProfile --run" -- "${S[@]}" ingest -j 1 --run ddp-n8 "$DATA/profiles"
t text "all/ingest --format --rank" -- "${S[@]}" ingest -j 1 --run "$DDP1_R1" --rank 5 --format torch-trace \
	"$(ls "$CPU"/*/"$FSDP8"/artifacts/traces/rank0.*)"
t text "all/runs" -- "${S[@]}" runs
t text "all/runs --sources" -- "${S[@]}" runs --sources
t text "all/runs --orphans" -- "${S[@]}" runs --orphans
t text "all/stats" -- "${S[@]}" stats
t json "all/stats --json" -- "${S[@]}" stats --json
t text "all/scaling no single sweep" -- "${S[@]}" scaling
t text "all/scaling --sweep" -- "${S[@]}" scaling --sweep "$CPU_SWEEP"
t text "all/pyspy top" -- "${S[@]}" pyspy top "$FSDP8"
t text "all/pyspy top --total -n 0" -- "${S[@]}" pyspy top "$FSDP8" --total -n 0
t text "all/pyspy top --library torch" -- "${S[@]}" pyspy top "$FSDP8" --library torch
t text "all/pyspy top --per-thread" -- "${S[@]}" pyspy top "$FSDP8" --per-thread -n 30
t json "all/pyspy top --json" -- "${S[@]}" pyspy top "$FSDP8" --json -n 0
t text "all/pyspy top file" -- "${S[@]}" pyspy top "$DATA/pyspy/train-raw.txt" -n 0
t text "all/pyspy trie" -- "${S[@]}" pyspy trie "$DATA/pyspy/perf-collapsed.txt"
t json "all/pyspy trie --json" -- "${S[@]}" pyspy trie "$DATA/pyspy/calendarbot.dump.json" --json
t text "all/pyspy top no py-spy" -- "${S[@]}" pyspy top "$DDP8_R1"
t text "all/regions --source py-spy" -- "${S[@]}" regions "$FSDP8" --source py-spy -n 0
t text "all/regions --source cprofile" -- "${S[@]}" regions ddp-n8 --source cprofile
t text "all/trace show --rank 5" -- "${S[@]}" trace show "$DDP1_R1" --rank 5
t text "all/compare sweep rerun" -- "${S[@]}" compare --baseline "$CPU_SWEEP" --candidate rerun
t json "all/compare sweep rerun --json" -- "${S[@]}" compare --baseline "$CPU_SWEEP" --candidate rerun --json
t text "all/gate sweep rerun" -- "${S[@]}" gate --baseline "$CPU_SWEEP" --candidate rerun --format benchstat
t text "all/gate --baseline-store" -- --store all.db gate --baseline "$CPU_SWEEP:ddp" --candidate rerun:ddp --baseline-store cpu.db
t text "all/compare --baseline-store" -- "${S[@]}" compare --baseline "$CPU_SWEEP:fsdp" --candidate rerun:fsdp --baseline-store cpu.db --format csv
t text "all/pyspy top --self -n 3" -- "${S[@]}" pyspy top "$FSDP8" --self -n 3
t text "all/diff across sweeps" -- "${S[@]}" diff "$CPU_SWEEP:ddp:1" "gpu-batch-sweep:bf16:1"
t text "all/report build --sweep" -- "${S[@]}" report build --sweep "$CPU_SWEEP" -o rep-all --baseline rerun
fdir "all/report vs rerun" rep-all
t text "all/report build two sweeps, none named" -- "${S[@]}" report build -o rep-none
t text "all/link" -- "${S[@]}" link "$DATA/pyspy/train.py-spy.svg" "$DDP8_R1"
t text "all/link again" -- "${S[@]}" link "$DATA/pyspy/train.py-spy.svg" "$DDP8_R1"
t text "all/pyspy top after link" -- "${S[@]}" pyspy top "$DDP8_R1"

# ---- a config file ----
cat >"$W/in/amdahl.yaml" <<'EOF'
gate:
  alpha: 0.10
  threshold: 0.02
  metrics:
    gpu_energy_J: {direction: lower, threshold: 0.10, alpha: 0.05}
mail:
  to: [team@example.org]
  from: nightly@example.org
  subject: amdahl nightly
EOF
C=(--config "$W/in/amdahl.yaml")
t text "config/gate gpu" -- "${C[@]}" --store gpu.db gate --baseline gpu-batch-sweep:fp32 --candidate gpu-batch-sweep:bf16 --axis global_batch_size
t json "config/compare gpu --json" -- "${C[@]}" --store gpu.db compare --baseline gpu-batch-sweep:fp32 --candidate gpu-batch-sweep:bf16 --axis global_batch_size --json
t text "config/mail --dry-run" -- "${C[@]}" mail --dry-run mail3.eml rep-gpu-axis
f eml "config/mail message" mail3.eml
t text "config/missing" -- --config "$W/in/none.yaml" --store cpu.db stats

# ---- a history of 24 commits (tests/lib/histories.sh) ----
S=(--store hist.db)
t text "hist/ingest" -- "${S[@]}" ingest -j 1 "$W/in/hist"
t text "hist/history nightly" -- "${S[@]}" history --by tag.git_commit --sweep nightly
t json "hist/history nightly --json" -- "${S[@]}" history --by tag.git_commit --sweep nightly --json
t text "hist/history aa --png" -- "${S[@]}" history epoch_time_s --by tag.git_commit --sweep aa --png hist-aa.png
f text "hist/history --png file" hist-aa.png
t text "hist/history --order --alpha --permutations" -- "${S[@]}" history --by tag.git_commit --sweep nightly \
	--order tag.git_commit --alpha 0.1 --permutations 199 --min-size 2 --seed 5
t text "hist/history mixed configurations" -- "${S[@]}" history --by tag.git_commit
t text "hist/gate --history" -- "${S[@]}" gate --history 12 --by tag.git_commit --sweep nightly
t json "hist/gate --history --json" -- "${S[@]}" gate --history 12 --by tag.git_commit --sweep nightly --json
t text "hist/gate --history aa" -- "${S[@]}" gate --history 20 --by tag.git_commit --sweep aa --candidate c10
t text "hist/stats --by" -- "${S[@]}" stats --sweep nightly --by tag.git_commit
t json "hist/stats --by --json" -- "${S[@]}" stats --sweep aa --by tag.git_commit --json
t text "hist/gate --history --metric" -- "${S[@]}" gate --history 10 --by tag.git_commit --sweep nightly --metric throughput_samples_per_s
t text "hist/compare --by --baseline" -- "${S[@]}" compare --by tag.git_commit --sweep nightly --baseline c11 --format csv
t text "hist/report build --history" -- "${S[@]}" report build --sweep nightly --history epoch_time_s --by tag.git_commit -o rep-hist
fdir "hist/report --history" rep-hist
t text "hist/report build --history-sweep --order" -- "${S[@]}" report build --sweep nightly --history epoch_time_s --by tag.git_commit \
	--order tag.git_commit --history-sweep aa -o rep-hist-aa
fdir "hist/report --history-sweep --order" rep-hist-aa

# ---- the public samples (../shared/data/public) ----
if [ -n "$PUBLIC" ]; then
	P=$PUBLIC
	S=(--store pub.db)
	t text "pub/ingest cpu sweep" -- "${S[@]}" ingest -j 1 -q "$CPU"
	t text "pub/ingest trace nccl" -- "${S[@]}" ingest -j 1 --run "$DDP2_R1" "$P/traces/hta-nccl-rank0-of-2.json.gz"
	t text "pub/ingest trace mi250" -- "${S[@]}" ingest -j 1 --run "$DDP1_R1" "$P/traces/hta-amd-mi250.json.gz"
	t text "pub/ingest trace gloo" -- "${S[@]}" ingest -j 1 --run "$DDP2_R2" "$P/traces/hta-cpu-only-gloo-rank34.pt.trace.json.gz"
	t text "pub/ingest trace rank0 of 16" -- "${S[@]}" ingest -j 1 --run "$DDP4_R1" "$P/traces/hta-rank0-of-16.json.gz"
	t text "pub/ingest trace no rank" -- "${S[@]}" ingest -j 1 --run "$DDP4_R2" "$P/traces/hta-rank-not-found.json.gz"
	t text "pub/ingest trace no rank --rank" -- "${S[@]}" ingest -j 1 --run "$DDP4_R2" --rank 1 "$P/traces/hta-rank-not-found.json.gz"
	t text "pub/ingest dlrm 8 ranks" -- "${S[@]}" ingest -j 1 --run "$DDP8_R1" "$P/traces/param-dlrm-8ranks"
	t text "pub/ingest memtrace" -- "${S[@]}" ingest -j 1 --run "$DDP1_R2" "$P/memtraces/kineto-resnet50-nw4-worker0.1623212756351.pt.trace.json.gz"
	t text "pub/ingest memtraces" -- "${S[@]}" ingest -j 1 "$P/memtraces"
	t text "pub/ingest py-spy" -- "${S[@]}" ingest -j 1 "$P/pyspy"
	t text "pub/ingest cProfile" -- "${S[@]}" ingest -j 1 "$P/cprofile"
	t text "pub/ingest nsys" -- "${S[@]}" ingest -j 1 "$P/nsys"
	t text "pub/ingest tfevents" -- "${S[@]}" ingest -j 1 "$P/tfevents"
	t text "pub/ingest mllog" -- "${S[@]}" ingest -j 1 "$P/mllog"
	t text "pub/ingest key_averages" -- "${S[@]}" ingest -j 1 "$P/keyavg"
	[ -f "$W/in/mlflow3/mlflow.db" ] &&
		t text "pub/ingest mlflow3 sqlite" -- "${S[@]}" ingest -j 1 "$W/in/mlflow3/mlflow.db"
	t text "pub/ingest nvidia-smi" -- "${S[@]}" ingest -j 1 --run "$DDP8_R1" "$GPU/nvidia-smi.csv"
	t text "pub/ingest --events dlrm" -- --store pub-events.db ingest -j 1 --events "$P/traces/param-dlrm-8ranks"
	t text "pub/sql trace_event" -- --store pub-events.db sql \
		"SELECT rank, kind, count(*), sum(dur_ns), sum(bytes) FROM trace_event GROUP BY rank, kind ORDER BY rank, kind"
	t text "pub/runs" -- "${S[@]}" runs
	t json "pub/runs --json" -- "${S[@]}" runs --json
	t text "pub/runs --sources" -- "${S[@]}" runs --sources
	t text "pub/runs --orphans" -- "${S[@]}" runs --orphans
	t json "pub/runs --orphans --json" -- "${S[@]}" runs --orphans --json
	t text "pub/stats" -- "${S[@]}" stats
	t json "pub/stats --json" -- "${S[@]}" stats --json
	for r in "$DDP2_R1" "$DDP1_R1" "$DDP2_R2" "$DDP4_R1" "$DDP4_R2" "$DDP8_R1" "$DDP1_R2"; do
		t text "pub/trace show $r" -- "${S[@]}" trace show "$r"
	done
	t json "pub/trace show dlrm --json" -- "${S[@]}" trace show "$DDP8_R1" --json
	t json "pub/trace show memtrace --json" -- "${S[@]}" trace show "$DDP1_R2" --json
	t text "pub/regions dlrm" -- "${S[@]}" regions "$DDP8_R1" -n 0
	t text "pub/regions nccl --kind collective" -- "${S[@]}" regions "$DDP2_R1" --kind collective -n 0
	for p in "$P"/nsys/*.sqlite "$P"/cprofile/*.p* "$P"/keyavg/*.txt "$P"/memtraces/tracelens-*; do
		t text "pub/regions $(basename "$p")" -- "${S[@]}" regions "$p" -n 0
	done
	t json "pub/regions nsys --json" -- "${S[@]}" regions "$P/nsys/fuser-report2-nsys2024.6.sqlite" -n 0 --json
	t text "pub/regions nsys --kind" -- "${S[@]}" regions "$P/nsys/pipit-saxpy-mpi-rank0-nsys2022.2.sqlite" --kind kernel
	t text "pub/regions nsys --source --kind cuda_api" -- "${S[@]}" regions "$P/nsys/fuser-report2-nsys2024.6.sqlite" --source nsys --kind cuda_api -n 5
	t text "pub/regions nsys --kind nvtx" -- "${S[@]}" regions "$P/nsys/dlprof-cnn-nsys2022.1.sqlite" --kind nvtx -n 0
	for p in "$P"/pyspy/*; do
		t text "pub/pyspy top $(basename "$p")" -- "${S[@]}" pyspy top "$p" -n 0
	done
	t json "pub/pyspy top --json" -- "${S[@]}" pyspy top "$P/pyspy/cs336-bpe.speedscope.json" --total --json
	t text "pub/pyspy trie" -- "${S[@]}" pyspy trie "$P/pyspy/calendarbot.dump.txt"
	t text "pub/pyspy top --library" -- "${S[@]}" pyspy top "$P/pyspy/pyexastolog-old.py-spy.svg" --library numpy
	# every sweep the public samples made (mllog, tfevents, MLflow 3), as the reference names them
	while IFS= read -r sw; do
		t text "pub/stats --sweep $sw" -- "${S[@]}" stats --sweep "$sw"
	done < <(cd "$W/ref" && "${RUN_ENV[@]}" "$REF_BIN" "${S[@]}" sql "SELECT name FROM sweep ORDER BY name" 2>/dev/null | tail -n +2)
	t text "pub/report build mllog" -- "${S[@]}" report build --sweep mlperf-llama2_70b_lora --metric time_to_train_s -o rep-pub-mllog
	fdir "pub/report mllog" rep-pub-mllog
	t text "pub/report build cpu with public traces" -- "${S[@]}" report build --sweep "$CPU_SWEEP" -o rep-pub-cpu
	fdir "pub/report cpu with public traces" rep-pub-cpu
fi
