#!/bin/sh
# tests/lib/clickhouse.sh — a private clickhouse-server for the tests: its
# own data directory, config, ports on 127.0.0.1 and a user 'amdahl' with
# a password (so the password path is exercised), 'reader' with the
# same password and the readonly profile, and 'counted', as 'amdahl' but
# with its queries always in system.query_log (a script of the suite
# bounds what one read moves even when the suite's server logs nothing:
# stats_long_run.sh); started, waited for,
# and stopped by its pid. Nothing of the system's server is touched.
# Queries are logged in system.query_log (what a read transfers is
# measured there: tests/e2e/clickhouse.sh, bench/clickhouse.sh); their
# threads are not (system.query_thread_log: a row per thread per query,
# which nothing reads). CH_LOG_QUERIES=0 at start turns the query log off
# but for 'counted' (tests/run.sh's server for the whole suite: it grew
# by ~440 MB in 25 minutes of the suite).
#
#   tests/lib/clickhouse.sh start DIR   prints the HTTP port; DIR/pid, DIR/port
#   tests/lib/clickhouse.sh stop DIR    stops the server started in DIR
#   tests/lib/clickhouse.sh have        exit 0 when a server can be run here
# A caller may fix the ports (DIR/ports: "HTTP TCP") and add settings in
# DIR/config.d/ (the server merges them): tests/lib/ch_cluster.sh does.
set -eu

SERVER=${CLICKHOUSE_SERVER:-/usr/sbin/clickhouse-server}
PASSWORD=amdahl-test-pw

free_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

write_config() {
	dir=$1 http=$2 tcp=$3
	mkdir -p "$dir/data/tmp" "$dir/data/user_files" "$dir/log"
	cat >"$dir/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$dir/log/server.log</log>
    <errorlog>$dir/log/server.err.log</errorlog><size>10M</size><count>1</count></logger>
  <http_port>$http</http_port>
  <tcp_port>$tcp</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>$dir/data/</path>
  <tmp_path>$dir/data/tmp/</tmp_path>
  <user_files_path>$dir/data/user_files/</user_files_path>
  <format_schema_path>$dir/data/format_schemas/</format_schema_path>
  <users_config>$dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <uncompressed_cache_size>268435456</uncompressed_cache_size>
  <max_concurrent_queries>200</max_concurrent_queries>
  <mlock_executable>false</mlock_executable>
  <query_log><database>system</database><table>query_log</table>
    <flush_interval_milliseconds>500</flush_interval_milliseconds></query_log>
</yandex>
XML
	cat >"$dir/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles>
    <default><max_memory_usage>4000000000</max_memory_usage><log_queries>${CH_LOG_QUERIES:-1}</log_queries>
      <log_query_threads>0</log_query_threads></default>
    <readonly><readonly>1</readonly></readonly>
    <counted><max_memory_usage>4000000000</max_memory_usage><log_queries>1</log_queries>
      <log_query_threads>0</log_query_threads></counted>
  </profiles>
  <users>
    <default><password></password><networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile><quota>default</quota></default>
    <amdahl><password>$PASSWORD</password><networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile><quota>default</quota></amdahl>
    <reader><password>$PASSWORD</password><networks><ip>127.0.0.1</ip></networks>
      <profile>readonly</profile><quota>default</quota></reader>
    <counted><password>$PASSWORD</password><networks><ip>127.0.0.1</ip></networks>
      <profile>counted</profile><quota>default</quota></counted>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries>
    <errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows>
    <execution_time>0</execution_time></interval></default></quotas>
</yandex>
XML
}

case ${1:-} in
have)
	[ -x "$SERVER" ] ;;
start)
	dir=$(cd "$2" && pwd)
	# DIR/ports ("HTTP TCP"), when a caller chose them (tests/lib/ch_cluster.sh);
	# DIR/config.d/*.xml is merged into the config by the server itself
	if [ -f "$dir/ports" ]; then read -r http tcp <"$dir/ports"; else http=$(free_port) tcp=$(free_port); fi
	write_config "$dir" "$http" "$tcp"
	"$SERVER" --config-file="$dir/config.xml" >"$dir/log/stdout" 2>&1 &
	echo $! >"$dir/pid"
	echo "$http" >"$dir/port"
	# A server loads every table before it answers: a node of the
	# cluster holding many databases of replicated tables takes seconds
	# on a loaded machine. Wait up to CH_START_WAIT seconds (default 120)
	# while it runs; a server that never answers is stopped, so that no
	# process outlives its pid file. Why it failed is the last exception
	# the server logged (its message, not its stack).
	pid=$(cat "$dir/pid") t0=$(date +%s)
	until [ "$(curl -s "http://127.0.0.1:$http/ping" 2>/dev/null)" = "Ok." ]; do
		if ! kill -0 "$pid" 2>/dev/null || [ $(($(date +%s) - t0)) -ge "${CH_START_WAIT:-120}" ]; then
			kill -0 "$pid" 2>/dev/null && why="no answer on port $http within ${CH_START_WAIT:-120} s" ||
				why="it exited"
			kill -9 "$pid" 2>/dev/null || true
			while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
			echo "clickhouse-server did not start ($why); see $dir/log" >&2
			grep -h 'Code: [0-9]*' "$dir/log/server.err.log" 2>/dev/null | tail -n 2 |
				cut -c1-400 | sed 's/^/#   /' >&2
			rm -f "$dir/pid"
			exit 1
		fi
		sleep 0.1
	done
	echo "$http" ;;
stop)
	dir=$2
	[ -f "$dir/pid" ] || exit 0
	pid=$(cat "$dir/pid")
	kill "$pid" 2>/dev/null || true
	i=0
	while kill -0 "$pid" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 300 ] && { kill -9 "$pid" 2>/dev/null || true; break; }
		sleep 0.1
	done
	rm -f "$dir/pid" ;;
*)
	echo "usage: $0 start DIR | stop DIR | have" >&2
	exit 2 ;;
esac
