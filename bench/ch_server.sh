# ch_server.sh — sourced after common.sh by the ClickHouse benches
# (clickhouse.sh, clickhouse_scale.sh): skips the script with a message
# where no clickhouse-server can be run, else starts a private one
# (tests/lib/clickhouse.sh: own directory under $work and ports,
# stopped by its pid on exit, before $work is removed). Sets $bin,
# $port, $ch (the store URL without a database), $server_pid, and q SQL
# (a query as the amdahl user, TabSeparated answer).
bin="$root/$build/amdahl"
ch_script="$root/tests/lib/clickhouse.sh"
export AMDAHL_TEMPLATES="$root/templates" AMDAHL_CLICKHOUSE_PASSWORD=amdahl-test-pw
if ! "$ch_script" have >/dev/null 2>&1; then
  echo "$(basename "$0" .sh): skipped (no clickhouse-server here; Debian package clickhouse-server)"
  exit 0
fi
trap '"$ch_script" stop "$work/server" >/dev/null 2>&1; rm -rf "$work"' EXIT
mkdir -p "$work/server"
port=$("$ch_script" start "$work/server")
server_pid=$(cat "$work/server/pid")
ch="clickhouse://amdahl@127.0.0.1:$port"
q() { curl -sS -u "amdahl:$AMDAHL_CLICKHOUSE_PASSWORD" --data-binary "$1" "http://127.0.0.1:$port/"; }
# the server's CPU seconds so far (user + system, from /proc)
server_cpu() { awk -v t="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / t }' "/proc/$server_pid/stat"; }
