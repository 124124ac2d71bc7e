#!/bin/bash
# clickhouse_cluster.sh — a 2 shards × 2 replicas ClickHouse cluster
# (tests/lib/ch_cluster.sh: ZooKeeper and four clickhouse-server on
# 127.0.0.1, own directories and ports, stopped by pid) beside a SQLite
# store in the same run: the bundled sweeps ingested into both, then
# `stats`, `stats --sweep gpu-batch-sweep` and `report build` on both,
# wall seconds each, and the result rows and bytes the amdahl user's
# queries got from the node it talks to (system.query_log) for the
# `stats --sweep` read. SQLite is the reference. Skipped with a message
# where no cluster can be run. Usage: bench/clickhouse_cluster.sh [BUILD_DIR]
. "$(dirname "$0")/common.sh"
bin="$root/$build/amdahl"
cl="$root/tests/lib/ch_cluster.sh"
export AMDAHL_TEMPLATES="$root/templates" AMDAHL_CLICKHOUSE_PASSWORD=amdahl-test-pw
if ! "$cl" have >/dev/null 2>&1; then
  echo "clickhouse_cluster: skipped (no cluster here; Debian packages clickhouse-server, zookeeper)"
  exit 0
fi
trap '"$cl" stop "$work/cluster" >/dev/null 2>&1; rm -rf "$work"' EXIT
mkdir -p "$work/cluster"
port=$("$cl" start "$work/cluster")
url="clickhouse://amdahl@127.0.0.1:$port/bench?cluster=amdahl2x2" sq="$work/all.db"
logged() { curl -sS --data-binary "$1" "http://127.0.0.1:$port/"; }
sweeps=()
for d in cpu-strong-scaling dataloader-workers gpu-batch-sweep itwinai-layout pyspy; do
  sweeps+=("$root/testdata/$d")
done
wall() { # LABEL STORE CMD…
  local label=$1 store=$2 s e; shift 2
  s=$(date +%s.%N); "$bin" --store "$store" "$@" >/dev/null 2>&1; e=$(date +%s.%N)
  awk -v l="$label" -v s="$s" -v e="$e" 'BEGIN { printf "  %-52s %7.2f s wall\n", l, e - s }'
}
echo "clickhouse_cluster: 2 shards x 2 replicas + ZooKeeper, clickhouse-server $(logged 'SELECT version()'), SQLite (reference) in the same run"
wall "ingest 5 bundled sweeps, SQLite" "$sq" ingest -q "${sweeps[@]}"
wall "ingest 5 bundled sweeps, cluster (first: DDL ON CLUSTER)" "$url" ingest -q "${sweeps[@]}"
wall "stats, SQLite" "$sq" stats
wall "stats, cluster" "$url" stats
wall "report build gpu-batch-sweep, SQLite" "$sq" report build --sweep gpu-batch-sweep -o "$work/r1"
wall "report build gpu-batch-sweep, cluster" "$url" report build --sweep gpu-batch-sweep -o "$work/r2"
total() { logged "SYSTEM FLUSH LOGS" && logged "SELECT sum(result_rows), sum(result_bytes), count() FROM system.query_log WHERE user = 'amdahl' AND type = 2"; }
a=$(total); wall "stats --sweep gpu-batch-sweep, cluster" "$url" stats --sweep gpu-batch-sweep; b=$(total)
awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, "\t"); split(b, y, "\t");
  printf "  stats --sweep gpu-batch-sweep moved %d result rows, %d bytes in %d queries (system.query_log)\n", y[1] - x[1], y[2] - x[2], y[3] - x[3] }'
