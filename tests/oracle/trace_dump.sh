# trace_dump.sh — sourced helper (not a test): prints one stored trace the
# way tests/oracle/trace_oracle.py prints a trace file (its ops: the
# trace's regions with a detail row). Read with test-lib's q, so on both
# backends.
# dump_trace STORE SOURCE_PATH
dump_trace() {
  local db=$1 src=${2//\'/\'\'}
  local t="(SELECT t.id FROM trace t JOIN source s ON s.id=t.source_id WHERE s.path='$src')"
  q "$db" "
    SELECT printf('trace %d %d %d %d %d %d', coalesce(rank,-1), coalesce(world_size,-1), events,
                  start_ns, end_ns, has_gpu) FROM trace WHERE id=$t;
    SELECT printf('phase %s %d', d.s, p.ns) FROM trace_phase p JOIN dict d ON d.id=p.phase_id
      WHERE p.trace_id=$t ORDER BY CASE d.s WHEN 'compute' THEN 0 WHEN 'communication' THEN 1
      WHEN 'memory' THEN 2 WHEN 'idle' THEN 3 WHEN 'other' THEN 4 ELSE 5 END;
    SELECT CASE WHEN comp_fraction IS NULL THEN 'fraction none'
                ELSE printf('fraction %.9f', comp_fraction) END FROM trace WHERE id=$t;
    SELECT printf('step %d %d %d', step, start_ns, dur_ns) FROM trace_step WHERE trace_id=$t ORDER BY step;
    SELECT 'op ' || n.s || char(9) || coalesce(c.s,'') || char(9) ||
           printf('%d %d %d %d %d', g.calls, g.total_ns, g.self_ns, d.min_ns, d.max_ns)
      FROM trace t JOIN region g ON g.source_id=t.source_id AND g.rank IS t.rank
      JOIN region_detail d ON d.region_id=g.id JOIN dict n ON n.id=g.name_id
      LEFT JOIN dict c ON c.id=d.category_id
      WHERE t.id=$t ORDER BY n.s, coalesce(c.s,'');
    SELECT printf('coll %s %d %d %d %d %d', n.s, seq, start_ns, dur_ns, bytes, group_size)
      FROM trace_collective k JOIN dict n ON n.id=k.name_id WHERE k.trace_id=$t ORDER BY n.s, seq;"
}
