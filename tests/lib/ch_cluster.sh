#!/bin/sh
# tests/lib/ch_cluster.sh — a private ClickHouse cluster for the tests,
# on 127.0.0.1 only: one ZooKeeper (Debian's zookeeper package, run from
# its jars with a private config and data directory) and four
# clickhouse-server processes (tests/lib/clickhouse.sh, each with its own
# directory and ports) as cluster 'amdahl2x2': 2 shards × 2 replicas,
# macros {shard} and {replica}, internal replication, ON CLUSTER DDL.
# Everything is stopped by the pids this script wrote.
#
#   ch_cluster.sh start DIR        prints the HTTP port of node s1r1
#   ch_cluster.sh stop DIR         stops the four nodes and ZooKeeper
#   ch_cluster.sh node-stop DIR N  stops node N (s1r1 s1r2 s2r1 s2r2)
#   ch_cluster.sh node-start DIR N starts node N again (same ports, data)
#   ch_cluster.sh port DIR N       the HTTP port of node N
#   ch_cluster.sh have             exit 0 when a cluster can be run here
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
CH="$HERE/clickhouse.sh"
NODES="s1r1 s1r2 s2r1 s2r2"
ZK_JARS=/usr/share/java

free_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

zk_classpath() {
	cp=""
	for j in "$ZK_JARS"/zookeeper.jar "$ZK_JARS"/zookeeper-jute.jar "$ZK_JARS"/slf4j-api.jar \
		 "$ZK_JARS"/slf4j-simple.jar "$ZK_JARS"/commons-io.jar \
		 "$ZK_JARS"/commons-cli.jar "$ZK_JARS"/jline.jar "$ZK_JARS"/snappy-java.jar \
		 "$ZK_JARS"/metrics-core.jar "$ZK_JARS"/audience-annotations.jar; do
		[ -f "$j" ] && cp="$cp${cp:+:}$j"
	done
	echo "$cp"
}

zk_start() {
	dir=$1/zk port=$(free_port)
	mkdir -p "$dir/data"
	cat >"$dir/zoo.cfg" <<CFG
tickTime=500
dataDir=$dir/data
clientPort=$port
clientPortAddress=127.0.0.1
maxClientCnxns=0
admin.enableServer=false
4lw.commands.whitelist=ruok
CFG
	java -Xmx128m -cp "$(zk_classpath)" org.apache.zookeeper.server.ZooKeeperServerMain \
		"$dir/zoo.cfg" >"$dir/log" 2>&1 &
	echo $! >"$dir/pid"
	echo "$port" >"$dir/port"
	i=0
	until [ "$(printf ruok | /usr/bin/python3 -c '
import socket,sys
s=socket.create_connection(("127.0.0.1",int(sys.argv[1])),1); s.sendall(b"ruok"); print(s.recv(4).decode())' "$port" 2>/dev/null)" = imok ]; do
		i=$((i + 1))
		if [ $i -gt 300 ] || ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
			echo "zookeeper did not start; see $dir/log" >&2
			exit 1
		fi
		sleep 0.1
	done
}

# the cluster's part of each node's config (config.d/cluster.xml)
write_cluster_xml() {
	top=$1 node=$2
	shard=${node%r*} replica=$node
	{
		echo '<?xml version="1.0"?><yandex>'
		echo "<interserver_http_port>$(cat "$top/$node/interserver")</interserver_http_port>"
		echo '<interserver_http_host>127.0.0.1</interserver_http_host>'
		echo "<macros><shard>$shard</shard><replica>$replica</replica></macros>"
		echo "<zookeeper><node><host>127.0.0.1</host><port>$(cat "$top/zk/port")</port></node>"
		echo '<session_timeout_ms>6000</session_timeout_ms></zookeeper>'
		echo '<distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>'
		echo '<remote_servers><amdahl2x2>'
		for s in s1 s2; do
			echo '<shard><internal_replication>true</internal_replication>'
			for r in r1 r2; do
				read -r _ tcp <"$top/$s$r/ports"
				echo "<replica><host>127.0.0.1</host><port>$tcp</port></replica>"
			done
			echo '</shard>'
		done
		echo '</amdahl2x2></remote_servers></yandex>'
	} >"$top/$node/config.d/cluster.xml"
}

# A node started again just after a SIGKILL may find its old process
# not yet gone (its ports, its data directory's lock) or its ZooKeeper
# session (6 s) still open: wait for the old pid and, when a start
# fails, try once more, after the session's timeout. A replica killed
# between writing a part and committing it in ZooKeeper can hold parts
# ZooKeeper does not know; past a share of its rows the server refuses
# to attach the table ("doesn't look like the set of parts in
# ZooKeeper"). The second try then does what ClickHouse's documentation
# ("Recovery after failures") tells an operator to: the flag
# flags/force_restore_data, with which the replica takes ZooKeeper's set
# of parts (detaching the others) and fetches what it lacks from its
# peer. What was committed is in ZooKeeper, so nothing committed is lost;
# the tests then check every unit is whole.
node_start() {
	old=$(cat "$1/$2/pid" 2>/dev/null || true)
	i=0
	while [ -n "$old" ] && kill -0 "$old" 2>/dev/null && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	"$CH" start "$1/$2" >/dev/null && return 0
	if grep -q "doesn't look like the set of parts\|Suspiciously many" "$1/$2/log/server.err.log" 2>/dev/null; then
		echo "#   $2: its parts differ from ZooKeeper's; starting with flags/force_restore_data" >&2
		mkdir -p "$1/$2/data/flags"
		: >"$1/$2/data/flags/force_restore_data"
	else
		sleep 7
	fi
	"$CH" start "$1/$2" >/dev/null
}

case ${1:-} in
have)
	[ -x /usr/sbin/clickhouse-server ] && [ -f "$ZK_JARS/zookeeper.jar" ] && command -v java >/dev/null ;;
start)
	top=$(cd "$2" && pwd)
	zk_start "$top"
	for n in $NODES; do
		mkdir -p "$top/$n/config.d"
		echo "$(free_port) $(free_port)" >"$top/$n/ports"
		free_port >"$top/$n/interserver"
	done
	for n in $NODES; do write_cluster_xml "$top" "$n"; done
	for n in $NODES; do node_start "$top" "$n" || { "$0" stop "$top"; exit 1; }; done
	cat "$top/s1r1/port" ;;
node-stop)
	"$CH" stop "$2/$3" ;;
node-start)
	node_start "$2" "$3" ;;
port)
	cat "$2/$3/port" ;;
stop)
	top=$2
	for n in $NODES; do "$CH" stop "$top/$n" >/dev/null 2>&1 || true; done
	if [ -f "$top/zk/pid" ]; then
		pid=$(cat "$top/zk/pid")
		kill "$pid" 2>/dev/null || true
		i=0
		while kill -0 "$pid" 2>/dev/null; do
			i=$((i + 1))
			[ $i -gt 100 ] && { kill -9 "$pid" 2>/dev/null || true; break; }
			sleep 0.1
		done
		rm -f "$top/zk/pid"
	fi ;;
*)
	echo "usage: $0 start DIR | stop DIR | node-stop DIR N | node-start DIR N | port DIR N | have" >&2
	exit 2 ;;
esac
