/* writer_events.c — the sink callback that writes `ingest --events`
 * rows: one trace_event row per GPU kernel, memcpy, memset or collective
 * of the trace the unit wrote last (schema.c, v_trace_event). Part of
 * the unit writer (writer.h, writer_sink.h). */
#include "writer_profile.h"
#include "writer_sink.h"

static const char *const kind_names[] = {
	[AMD_EVENT_KERNEL] = "kernel", [AMD_EVENT_MEMCPY] = "memcpy",
	[AMD_EVENT_MEMSET] = "memset", [AMD_EVENT_COLLECTIVE] = "collective",
};

/* The dict id of an event's name: the trace's summary interned every op
 * name already, so a look-up finds it; interned otherwise. */
static int64_t name_id(struct amd_store_sink *ss, const char *name, struct amd_err *err)
{
	char capped[AMD_NAME_MAX + 1];
	if (!(name = amd_store_name(ss->st, name, capped, err)))
		return -1;
	sqlite3_stmt *q = writer_cached(ss, &ss->sel_name, "SELECT id FROM dict WHERE s=?1", err);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	int rc = sqlite3_step(q);
	int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_reset(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return writer_sql_fail(ss, err);
	return id ? id : amd_store_intern(ss->st, name, err);
}

int writer_trace_event(struct amd_sink *s, const struct amd_trace_event_rec *e,
		       struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	if (!ss->trace_id || (unsigned)e->kind > AMD_EVENT_COLLECTIVE)
		return amd_fail(err, "%s: an event outside a trace", ss->path);
	int64_t nid = name_id(ss, e->name, err);
	if (nid < 0)
		return -1;
	sqlite3_stmt *q = writer_cached(ss, &ss->ins_event,
		"INSERT INTO trace_event(trace_id, source_id, run_id, rank, stream, kind, name_id,"
		" seq, start_ns, dur_ns, bytes) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)", err);
	if (!q)
		return -1;
	sqlite3_clear_bindings(q);
	sqlite3_bind_int64(q, 1, ss->trace_id);
	sqlite3_bind_int64(q, 2, ss->source_id);
	writer_bind_run(ss, q, 3);
	if (ss->trace_rank >= 0)
		sqlite3_bind_int(q, 4, ss->trace_rank);
	if (e->stream >= 0)
		sqlite3_bind_int64(q, 5, e->stream);
	sqlite3_bind_text(q, 6, kind_names[e->kind], -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 7, nid);
	sqlite3_bind_int64(q, 8, e->seq);
	sqlite3_bind_int64(q, 9, e->start_ns);
	sqlite3_bind_int64(q, 10, e->dur_ns);
	if (e->bytes >= 0)
		sqlite3_bind_int64(q, 11, e->bytes);
	return writer_exec(ss, q, err);
}
