/* writer_profile.c — the unit writer's profiler facts (writer_profile.h):
 * a trace summary with its phases, steps and collectives (its ops are
 * the trace reader's regions: writer_regions.c). Operator averages:
 * writer_ops.c; nvidia-smi samples: writer_gpu.c; py-spy stacks:
 * writer_stack.c. */
#include "writer_profile.h"
#include "writer_memory.h"
#include "writer_names.h"
#include "writer_sink.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "stmt_cache.h"

static int trace_phases(struct amd_store_sink *ss, int64_t tid,
			const struct amd_trace_summary *t, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(ss->st,
		"INSERT INTO trace_phase(trace_id, phase_id, ns) VALUES(?1,?2,?3)", err);
	int rc = q ? 0 : -1;
	for (int p = 0; p < AMD_PHASE_COUNT && rc == 0; p++) {
		int64_t pid = amd_store_intern(ss->st, amd_phase_names[p], err);
		if (pid < 0) {
			rc = -1;
			break;
		}
		sqlite3_bind_int64(q, 1, tid);
		sqlite3_bind_int64(q, 2, pid);
		sqlite3_bind_int64(q, 3, t->phase_ns[p]);
		rc = writer_exec(ss, q, err);
	}
	amd_store_cached_drop(q);
	return rc;
}

static int trace_steps(struct amd_store_sink *ss, int64_t tid,
		       const struct amd_trace_summary *t, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(ss->st,
		"INSERT INTO trace_step(trace_id, step, start_ns, dur_ns) VALUES(?1,?2,?3,?4)", err);
	int rc = q ? 0 : -1;
	for (size_t i = 0; i < t->n_steps && rc == 0; i++) {
		sqlite3_bind_int64(q, 1, tid);
		sqlite3_bind_int64(q, 2, t->steps[i].step);
		sqlite3_bind_int64(q, 3, t->steps[i].start_ns);
		sqlite3_bind_int64(q, 4, t->steps[i].dur_ns);
		rc = writer_exec(ss, q, err);
	}
	amd_store_cached_drop(q);
	return rc;
}

static int trace_colls(struct amd_store_sink *ss, int64_t tid,
		       const struct amd_trace_summary *t, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_cached(ss->st,
		"INSERT INTO trace_collective(trace_id, name_id, seq, start_ns, dur_ns, bytes,"
		" group_size, group_id) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)", err);
	int rc = q ? 0 : -1;
	for (size_t i = 0; i < t->n_colls && rc == 0; i++) {
		const struct amd_trace_coll *c = &t->colls[i];
		int64_t nid = amd_store_intern(ss->st, c->name, err);
		int64_t gid = nid >= 0 && c->group ? amd_store_intern(ss->st, c->group, err) : 0;
		if (nid < 0 || gid < 0) {
			rc = -1;
			break;
		}
		sqlite3_bind_int64(q, 1, tid);
		sqlite3_bind_int64(q, 2, nid);
		sqlite3_bind_int64(q, 3, c->seq);
		sqlite3_bind_int64(q, 4, c->start_ns);
		sqlite3_bind_int64(q, 5, c->dur_ns);
		sqlite3_bind_int64(q, 6, c->bytes);
		sqlite3_bind_int(q, 7, c->group_size);
		if (c->group)
			sqlite3_bind_int64(q, 8, gid);
		else
			sqlite3_bind_null(q, 8);
		rc = writer_exec(ss, q, err);
	}
	amd_store_cached_drop(q);
	return rc;
}

static int trace_rows(struct amd_store_sink *ss, int64_t tid, const struct amd_trace_summary *t,
		      struct amd_err *err)
{
	if (trace_phases(ss, tid, t, err) < 0 || trace_steps(ss, tid, t, err) < 0 ||
	    trace_colls(ss, tid, t, err) < 0)
		return -1;
	return 0;
}

int writer_trace(struct amd_sink *s, const struct amd_trace_summary *t,
		      struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	sqlite3_stmt *q = amd_store_cached(ss->st,
		"INSERT INTO trace(run_id, source_id, rank, world_size, backend, device,"
		" start_ns, end_ns, events, has_gpu, comp_fraction)"
		" VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)", err);
	if (!q)
		return -1;
	writer_bind_run(ss, q, 1);
	sqlite3_bind_int64(q, 2, ss->source_id);
	if (t->rank >= 0)
		sqlite3_bind_int(q, 3, t->rank);
	if (t->world_size > 0)
		sqlite3_bind_int(q, 4, t->world_size);
	writer_bind_text(q, 5, t->backend);
	writer_bind_text(q, 6, t->device);
	sqlite3_bind_int64(q, 7, t->start_ns);
	sqlite3_bind_int64(q, 8, t->end_ns);
	sqlite3_bind_int64(q, 9, t->events);
	sqlite3_bind_int(q, 10, t->has_gpu);
	writer_bind_double(q, 11, t->comp_fraction);
	int rc = sqlite3_step(q);
	amd_store_cached_drop(q);
	if (rc != SQLITE_DONE)
		return writer_sql_fail(ss, err);
	int64_t id = sqlite3_last_insert_rowid(ss->st->db);
	ss->trace_id = id;
	ss->trace_rank = t->rank;
	return trace_rows(ss, id, t, err) < 0 ? -1 : writer_trace_memory(ss, id, t, err);
}
