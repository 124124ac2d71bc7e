#!/bin/bash
# TensorBoard public samples: PyTorch SummaryWriter (simple_value scalars,
# 3125 steps per tag) and a TF2/Keras run (tensor-encoded scalars and a
# graph, train/ and validation/ writers), laid out as their writers do
# (links under $TMP), against the Python TFRecord/protobuf reader in
# tests/oracle/tfevents_oracle.py.
test_description='TensorBoard public samples: PyTorch and Keras writers against a python TFRecord/protobuf reader'
. "$(dirname "$0")/../test-lib.sh"

T="$PUBLIC/tfevents"
S="$TMP/s.db"
ORACLE="$AMDAHL_ROOT/tests/oracle/tfevents_oracle.py"
KT="$T/keras-imdb-train.events.out.tfevents.1690485354.e-bnbobg-5l77j-0.80091.0.v2"
KV="$T/keras-imdb-validation.events.out.tfevents.1690485359.e-bnbobg-5l77j-0.80091.1.v2"
PT="$T/mmvae-summarywriter.events.out.tfevents.1708473985.g001.3759122.0"
tags() { q "$S" "SELECT printf('%s|%d|%d|%d|%.9g', d.s, count(*), min(step), max(step), sum(value))
 FROM metric_point m JOIN dict d ON d.id=m.key_id JOIN run r ON r.id=m.run_id
 WHERE r.name='$1' AND d.s LIKE '$2%' GROUP BY d.s ORDER BY d.s"; }

test_expect_success SHARED 'setup: the samples in their writers'\'' layout ingest (exit 0)' '
	mkdir -p "$TMP/logs/imdb-model/train" "$TMP/logs/imdb-model/validation" "$TMP/logs/mmvae" &&
	ln -s "$KT" "$TMP/logs/imdb-model/train/events.out.tfevents.1690485354.host.80091.0.v2" &&
	ln -s "$KV" "$TMP/logs/imdb-model/validation/events.out.tfevents.1690485359.host.80091.1.v2" &&
	ln -s "$PT" "$TMP/logs/mmvae/events.out.tfevents.1708473985.g001.3759122.0" &&
	test_status 0 "$AMDAHL" --store "$S" ingest "$TMP/logs"
'
test_expect_success SHARED,SQLITE3 'three files, two runs (Keras train and validation are one run), sweep logs' '
	test_eq "tensorboard|3" "$(q "$S" "SELECT kind, count(*) FROM source GROUP BY kind")" &&
	test_eq "imdb-model|logs
mmvae|logs" "$(q "$S" "SELECT r.name, s.name FROM run r JOIN sweep s ON s.id=r.sweep_id ORDER BY r.name")"
'
test_expect_success SHARED,SQLITE3,PYTHON 'PyTorch SummaryWriter: simple_value scalars equal the python reader' '
	test_eq "$("$PY" "$ORACLE" scalars "$PT")" "$(tags mmvae "")"
'
test_expect_success SHARED,SQLITE3,PYTHON 'Keras train writer: tensor scalars under train/, graph and keras summaries skipped' '
	"$PY" "$ORACLE" scalars "$KT" | sed "s|^|train/|" >"$TMP/want" &&
	test_eq "$(cat "$TMP/want")" "$(tags imdb-model train/)"
'
test_expect_success SHARED,SQLITE3,PYTHON 'Keras validation writer: its scalars under validation/' '
	"$PY" "$ORACLE" scalars "$KV" | sed "s|^|validation/|" >"$TMP/want" &&
	test_eq "$(cat "$TMP/want")" "$(tags imdb-model validation/)"
'
test_expect_success SHARED,PYTHON 'every record of the three files passes both CRCs in python too' '
	test_eq "163
81
6251" "$("$PY" "$ORACLE" records "$KT" "$KV" "$PT")"
'
test_expect_success SHARED 'stats names the tag as the metric: 3125 steps of Loss/KL, one run without a world size' '
	"$AMDAHL" --store "$S" stats --sweep logs --metric Loss/KL >"$TMP/st.txt" 2>&1;
	test_contains "no axis value" "$(cat "$TMP/st.txt")"
'
test_done
