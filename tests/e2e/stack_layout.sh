#!/bin/bash
# stack_layout.sh — py-spy stacks packed per source (issue 38, round
# six): a source's trie nodes are one stack_node_pack row and its samples
# one stack_sample_pack row per run, each blob little-endian records,
# read here by an independent decoder (tests/oracle/stack_pack.py:
# python's struct and sqlite3) against the stack_node / stack_sample
# virtual tables of the sqlite3 shell's extension; look-ups by id and by
# source through them; a store of schema version 13 (a row per node and
# per sample) converts at the next ingest with the same rows, the same
# blobs and the same `pyspy top` / `pyspy trie` output; a file linked
# after the fact moves with its samples; a damaged blob is refused by name.
test_description='py-spy stacks: packed nodes and samples, the stack_node / stack_sample tables, migration of version-13 stores'
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_STORE 'every case reads the packed blobs (stack_node_pack, stack_sample_pack) of the SQLite store file or converts a schema 13 file; py-spy on ClickHouse is pyspy.sh and speedscope.sh'

S=$TMP/new.db
O=$TMP/old13.db
SPY=$DATA/pyspy
RUN=3679a94ec2214cbe8d71215b864c78ea # an itwinai launch (ddp-1x1-scaling-1gpu, repeat 0)
ORACLE="$PY $AMDAHL_ROOT/tests/oracle/stack_pack.py"

# outputs STORE — every row of the two tables as `amdahl sql` prints them
# (stack_sample in its own order) and every py-spy file's top and trie
outputs() {
	local p
	"$AMDAHL" --store "$1" sql "SELECT * FROM stack_node ORDER BY id" &&
	"$AMDAHL" --store "$1" sql "SELECT * FROM stack_sample" &&
	{ "$AMDAHL" --store "$1" pyspy top 2>&1 || :; } && # names the runs with samples
	"$AMDAHL" --store "$1" pyspy top "$RUN" --json -n 0 &&
	for p in $(sqlite3 "$1" "SELECT path FROM source WHERE kind LIKE 'pyspy%' ORDER BY path"); do
		"$AMDAHL" --store "$1" pyspy top "$p" --json -n 0 --total &&
		"$AMDAHL" --store "$1" pyspy trie "$p" --json || return 1
	done
}
# the pack rows of a store byte for byte
pack_rows() {
	sqlite3 "$1" "SELECT source_id, n, id_lo, id_hi, hex(nodes) FROM stack_node_pack ORDER BY 1;
		SELECT source_id, run_id, n, hex(samples) FROM stack_sample_pack ORDER BY rowid" | sha256sum
}

test_expect_success SQLITE3 'setup: the itwinai sweep, a raw py-spy file for one of its runs, the other py-spy files' '
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$DATA/itwinai-layout" &&
	test_status 0 "$AMDAHL" --store "$S" ingest -q --run "$RUN" "$SPY/train-raw.txt" &&
	test_status 0 "$AMDAHL" --store "$S" ingest -q "$SPY" &&
	outputs "$S" >"$TMP/want.txt" &&
	test_true "outputs" [ "$(wc -l <"$TMP/want.txt")" -gt 1000 ]
'
test_expect_success SQLITE3 'one node pack per py-spy file, one sample pack per file and run; no table of rows' '
	test_eq 7 "$(sqlite3 "$S" "SELECT count(*) FROM source WHERE kind LIKE '\''pyspy%'\''")" &&
	test_eq "7|7" "$(sqlite3 "$S" "SELECT count(*), count(DISTINCT source_id) FROM stack_node_pack")" &&
	test_eq "7|7" "$(sqlite3 "$S" "SELECT count(*), count(DISTINCT source_id) FROM stack_sample_pack")" &&
	test_eq 1 "$(sqlite3 "$S" "SELECT count(run_id) FROM stack_sample_pack")" &&
	test_eq 0 "$(sqlite3 "$S" "SELECT count(*) FROM sqlite_master WHERE name IN ('\''stack_node'\'', '\''stack_sample'\'')")"
'
test_expect_success PYTHON,SQLITE3 'the blobs as python decodes them: the rows the virtual tables show' '
	test_eq ok "$($ORACLE check "$S")" &&
	$ORACLE nodes "$S" >"$TMP/py-nodes.txt" && q "$S" "SELECT * FROM stack_node ORDER BY id" >"$TMP/sq-nodes.txt" &&
	test_true "nodes" [ "$(wc -l <"$TMP/py-nodes.txt")" -gt 300 ] &&
	test_eq "$(sha256sum <"$TMP/py-nodes.txt")" "$(sha256sum <"$TMP/sq-nodes.txt")" &&
	$ORACLE samples "$S" >"$TMP/py-samples.txt" && q "$S" "SELECT * FROM stack_sample" >"$TMP/sq-samples.txt" &&
	test_eq "$(sha256sum <"$TMP/py-samples.txt")" "$(sha256sum <"$TMP/sq-samples.txt")"
'
test_expect_success SQLITE3 'look-ups by id, by source and by run through the virtual tables' '
	test_eq "$(q "$S" "SELECT count(*) FROM stack_sample")" \
		"$(q "$S" "SELECT count(*) FROM stack_sample s JOIN stack_node n ON n.id = s.leaf_id AND n.source_id = s.source_id")" &&
	test_eq "$(q "$S" "SELECT count(parent_id) FROM stack_node")" \
		"$(q "$S" "SELECT count(*) FROM stack_node c JOIN stack_node p ON p.id = c.parent_id")" &&
	test_eq "$(q "$S" "SELECT source_id, count(*) FROM stack_node GROUP BY source_id ORDER BY 1")" \
		"$(q "$S" "SELECT s.id, (SELECT count(*) FROM stack_node n WHERE n.source_id = s.id) FROM source s WHERE kind LIKE '\''pyspy%'\'' ORDER BY 1")" &&
	test_eq "$(q "$S" "SELECT sum(samples) FROM stack_sample WHERE run_id IS NOT NULL")" \
		"$(q "$S" "SELECT sum(samples) FROM stack_sample WHERE run_id = (SELECT id FROM run WHERE ext_id = '\''$RUN'\'')")" &&
	test_eq 0 "$(q "$S" "SELECT count(*) FROM stack_node WHERE id = (SELECT max(id) + 1 FROM stack_node) OR id = 0 OR id IS NULL")" &&
	test_eq "$(q "$S" "SELECT frame_id FROM stack_node WHERE id = 3")" "$(q "$S" "SELECT frame_id FROM stack_node WHERE id = 3.0")"
'

# old13 STORE: rewrites STORE's stacks in the layout of schema version 13
# (a stack_node row per node, a stack_sample row per sample in file
# order) and forgets migration 14
old13() {
	q "$1" "CREATE TABLE sn_rows AS SELECT * FROM stack_node ORDER BY id;
		CREATE TABLE ss_rows AS SELECT * FROM stack_sample" &&
	sqlite3 "$1" "BEGIN;
	CREATE TABLE stack_node(id INTEGER PRIMARY KEY, parent_id INTEGER,
	 frame_id INTEGER NOT NULL, source_id INTEGER NOT NULL);
	CREATE INDEX stack_node_child ON stack_node(source_id, parent_id, frame_id);
	CREATE TABLE stack_sample(source_id INTEGER NOT NULL, run_id INTEGER,
	 leaf_id INTEGER NOT NULL, process_id INTEGER, thread_id INTEGER,
	 samples INTEGER NOT NULL, seconds REAL NOT NULL);
	CREATE INDEX stack_sample_source ON stack_sample(source_id);
	CREATE INDEX stack_sample_run ON stack_sample(run_id);
	INSERT INTO stack_node SELECT * FROM sn_rows ORDER BY id;
	INSERT INTO stack_sample SELECT * FROM ss_rows ORDER BY rowid;
	DROP TABLE sn_rows; DROP TABLE ss_rows;
	DROP TABLE stack_node_pack; DROP TABLE stack_sample_pack;
	DELETE FROM schema_version WHERE version > 13;
	COMMIT;"
}
test_expect_success SQLITE3 'setup: the same store in the layout of schema version 13' '
	cp "$S" "$O" && old13 "$O" &&
	test_eq "$(q "$S" "SELECT count(*) FROM stack_sample")" "$(sqlite3 "$O" "SELECT count(*) FROM stack_sample")" &&
	test_eq "$(q "$S" "SELECT count(*) FROM stack_node")" "$(sqlite3 "$O" "SELECT count(*) FROM stack_node")" &&
	test_eq 0 "$(sqlite3 "$O" "SELECT count(*) FROM sqlite_master WHERE name = '\''stack_node_pack'\''")"
'
test_expect_success SQLITE3 'a schema 13 store: read-only commands ask for an ingest, the next ingest converts it (0 added)' '
	test_status 2 "$AMDAHL" --store "$O" pyspy top &&
	test_contains "run any '"'"'amdahl ingest'"'"'" "$ERR" &&
	test_status 0 "$AMDAHL" --store "$O" ingest "$SPY" &&
	test_contains "0 added, 0 replaced" "$OUT"
'
test_expect_success PYTHON,SQLITE3 'the converted store: the same rows, the same blobs, the same pyspy top and trie' '
	test_eq "$(q "$S" "SELECT max(version) FROM schema_version")" "$(q "$O" "SELECT max(version) FROM schema_version")" &&
	test_eq 0 "$(sqlite3 "$O" "SELECT count(*) FROM sqlite_master WHERE name IN ('\''stack_node'\'', '\''stack_sample'\'')")" &&
	test_eq ok "$($ORACLE check "$O")" &&
	test_eq "$(pack_rows "$S")" "$(pack_rows "$O")" &&
	outputs "$O" >"$TMP/got.txt" &&
	test_eq "$(sha256sum <"$TMP/want.txt")" "$(sha256sum <"$TMP/got.txt")"
'
test_expect_success SQLITE3 'a file linked to a run after the fact: its sample pack moves, counted sample by sample' '
	cp "$S" "$TMP/l.db" &&
	n=$(q "$TMP/l.db" "SELECT count(*) FROM stack_sample s JOIN source ON source.id = s.source_id WHERE path LIKE '\''%/perf-collapsed.txt'\''") &&
	test_status 0 "$AMDAHL" --store "$TMP/l.db" link "$SPY/perf-collapsed.txt" "$RUN" &&
	test_contains "$n" "$OUT" &&
	test_eq "$RUN" "$(q "$TMP/l.db" "SELECT DISTINCT ext_id FROM stack_sample s JOIN source ON source.id = s.source_id JOIN run ON run.id = s.run_id WHERE path LIKE '\''%/perf-collapsed.txt'\''")" &&
	test_eq 1 "$(sqlite3 "$TMP/l.db" "SELECT count(*) FROM stack_sample_pack p JOIN source ON source.id = p.source_id WHERE path LIKE '\''%/perf-collapsed.txt'\''")"
'
test_expect_success SQLITE3 'a changed file replaces its packs: one node pack, one sample pack' '
	cp "$SPY/perf-collapsed.txt" "$TMP/p.txt" &&
	test_status 0 "$AMDAHL" --store "$TMP/r.db" ingest "$TMP/p.txt" &&
	echo "main;extra 7" >>"$TMP/p.txt" &&
	test_status 0 "$AMDAHL" --store "$TMP/r.db" ingest "$TMP/p.txt" &&
	test_contains "1 replaced" "$OUT" &&
	test_eq "1|1" "$(sqlite3 "$TMP/r.db" "SELECT (SELECT count(*) FROM stack_node_pack), (SELECT count(*) FROM stack_sample_pack)")" &&
	test_eq 7 "$(q "$TMP/r.db" "SELECT s.samples FROM stack_sample s JOIN stack_node n ON n.id = s.leaf_id JOIN frame f ON f.id = n.frame_id JOIN dict d ON d.id = f.name_id WHERE d.s = '\''extra'\''")"
'
test_expect_success SQLITE3 'a damaged blob: one line naming the store and the row, exit 2, the store unchanged' '
	cp "$S" "$TMP/bad.db" &&
	sqlite3 "$TMP/bad.db" "UPDATE stack_node_pack SET nodes = substr(nodes, 1, 47) WHERE rowid = (SELECT min(rowid) FROM stack_node_pack)" &&
	d=$(store_digest "$TMP/bad.db") &&
	test_status 2 "$AMDAHL" --store "$TMP/bad.db" sql "SELECT count(*) FROM stack_node" &&
	test_contains "packed nodes of 47 bytes" "$ERR" &&
	test_eq 1 "$(printf "%s\n" "$ERR" | wc -l)" &&
	test_eq "$d" "$(store_digest "$TMP/bad.db")"
'
test_done
