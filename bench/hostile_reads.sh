#!/bin/bash
# hostile_reads.sh AMDAHL STORE [SWEEP] — every read command on STORE
# (a store of bench/gen_hostile.py's or bench/gen_sweep.py's output), each
# under `timeout 120`: prints per command its CPU seconds (user+sys), max
# RSS (KB), exit code, output bytes and the start of stderr. Run it on an
# input and its double: more than ~2.2x the CPU is a finding.
A=$1; S=$2; SW=${3:-hostile}; OUT=$(mktemp -d /tmp/hostile_reads.XXXXXX)
t() { local name=$1; shift
  /usr/bin/time -f "%U %S %M" -o $OUT/time timeout 120 "$@" >$OUT/$name.out 2>$OUT/$name.err; rc=$?
  read u s m < <(tail -1 $OUT/time)
  printf "%-16s %7.2f %8d rc=%-3s out=%s err=%s\n" "$name" "$(echo "$u+$s"|bc)" "$m" "$rc" "$(wc -c <$OUT/$name.out)" "$(head -c 150 $OUT/$name.err|tr '\n' ' ')"; }
t runs $A --store $S runs
t runs_json $A --store $S runs --json
t runs_sweep $A --store $S runs --sweep $SW
t stats $A --store $S stats --sweep $SW
t stats_json $A --store $S stats --sweep $SW --json
t scaling $A --store $S scaling --sweep $SW
t scaling_json $A --store $S scaling --sweep $SW --json
t regions $A --store $S regions $SW
t explain $A --store $S explain $SW
t explain_json $A --store $S explain $SW --json
t keys $A --store $S keys $SW
t keys_json $A --store $S keys $SW --json
t compare $A --store $S compare --baseline $SW --candidate $SW
t compare_json $A --store $S compare --baseline $SW --candidate $SW --json
t gate $A --store $S gate --baseline $SW --candidate $SW --markdown $OUT/gate.md --junit $OUT/gate.xml
t diff $A --store $S diff $SW $SW
t history $A --store $S history epoch_time_s --by strategy --sweep $SW
t history_json $A --store $S history epoch_time_s --by strategy --sweep $SW --json
t report $A --store $S report build --sweep $SW -o $OUT/rep
t report_json $A --store $S report build --sweep $SW -o $OUT/rep2 --json
t mail $A --store $S mail --to a@b.c --dry-run $OUT/mail.eml $OUT/rep
t sql $A --store $S sql "select * from run"
echo "OUT=$OUT"
RUN=$($A --store $S sql "select ext_id from run order by n desc limit 1" 2>/dev/null | tail -1)
N1=$($A --store $S sql "select min(n) from run" | tail -1); N2=$($A --store $S sql "select max(n) from run" | tail -1)
t trace_show $A --store $S trace show $RUN
t trace_json $A --store $S trace show $RUN --json
t regions_run $A --store $S regions $RUN
t regions_runj $A --store $S regions $RUN --json
t diff_n $A --store $S diff $SW:ddp:$N1 $SW:ddp:$N2
t diff_nj $A --store $S diff $SW:ddp:$N1 $SW:ddp:$N2 --json
t pyspy_top $A --store $S pyspy top $RUN
