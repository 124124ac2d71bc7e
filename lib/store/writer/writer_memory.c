/* writer_memory.c — a trace's memory per device into trace_memory (the
 * peaks) and trace_memory_sample (the bounded timeline); see
 * writer_memory.h. */
#include "writer_memory.h"

/* An int64 column: NULL when the value is unknown (negative). */
static void bind_bytes(sqlite3_stmt *q, int i, int64_t v)
{
	if (v >= 0)
		sqlite3_bind_int64(q, i, v);
	else
		sqlite3_bind_null(q, i);
}

static int samples(struct amd_store_sink *ss, sqlite3_stmt *q, int64_t trace_id,
		   const struct amd_trace_memdev *d, struct amd_err *err)
{
	for (size_t k = 0; k < d->n_samples; k++) {
		sqlite3_bind_int64(q, 1, trace_id);
		sqlite3_bind_int(q, 2, d->device_type);
		sqlite3_bind_int(q, 3, d->device_id);
		sqlite3_bind_int64(q, 4, d->samples[k].ts_ns);
		/* the 2021 format's running sum may dip below zero */
		sqlite3_bind_int64(q, 5, d->samples[k].allocated);
		bind_bytes(q, 6, d->samples[k].reserved);
		if (writer_exec(ss, q, err) < 0)
			return -1;
	}
	return 0;
}

int writer_trace_memory(struct amd_store_sink *ss, int64_t trace_id,
			const struct amd_trace_summary *t, struct amd_err *err)
{
	if (t->n_memory == 0)
		return 0;
	sqlite3_stmt *peak = amd_store_prepare(ss->st,
		"INSERT INTO trace_memory(trace_id, device_type, device_id, from_totals,"
		" peak_allocated, peak_reserved, events) VALUES(?1,?2,?3,?4,?5,?6,?7)", err);
	sqlite3_stmt *smp = peak ? amd_store_prepare(ss->st,
		"INSERT INTO trace_memory_sample(trace_id, device_type, device_id, ts_ns,"
		" allocated, reserved) VALUES(?1,?2,?3,?4,?5,?6)", err) : NULL;
	int rc = smp ? 0 : -1;
	for (size_t i = 0; i < t->n_memory && rc == 0; i++) {
		const struct amd_trace_memdev *d = &t->memory[i];
		sqlite3_bind_int64(peak, 1, trace_id);
		sqlite3_bind_int(peak, 2, d->device_type);
		sqlite3_bind_int(peak, 3, d->device_id);
		sqlite3_bind_int(peak, 4, d->from_totals);
		sqlite3_bind_int64(peak, 5, d->peak_allocated);
		bind_bytes(peak, 6, d->peak_reserved);
		sqlite3_bind_int64(peak, 7, d->events);
		rc = writer_exec(ss, peak, err) < 0 ? -1 : samples(ss, smp, trace_id, d, err);
	}
	sqlite3_finalize(peak);
	sqlite3_finalize(smp);
	return rc;
}
