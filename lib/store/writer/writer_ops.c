/* writer_ops.c — a unit's operator averages into table op_average_pack
 * (op_pack.h): the rows are buffered and written as one packed row when
 * the unit's run changes, when the buffer holds AMD_OP_CHUNK rows and
 * before SQL that reads them (writer_held_flush), so the packs keep the
 * order the reader gave them and an itwinai CSV costs one INSERT, not
 * one row per operator. */
#include "writer_profile.h"
#include "writer_names.h"
#include "writer_sink.h"

#include <math.h>
#include <stdlib.h>

#include "stmt_cache.h"

int writer_ops_flush(struct amd_store_sink *ss, struct amd_err *err)
{
	if (ss->n_ops == 0)
		return 0;
	size_t bytes = amd_op_packed_size(ss->ops, ss->n_ops);
	unsigned char *blob = malloc(bytes);
	sqlite3_stmt *q = blob ? amd_store_cached(ss->st,
		"INSERT INTO op_average_pack(source_id, run_id, n, ops) VALUES(?1,?2,?3,?4)", err)
			       : NULL;
	if (!q) {
		free(blob);
		return blob ? -1 : amd_fail(err, "%s: out of memory", ss->path);
	}
	amd_op_pack(ss->ops, ss->n_ops, blob);
	sqlite3_bind_int64(q, 1, ss->source_id);
	if (ss->ops_run > 0)
		sqlite3_bind_int64(q, 2, ss->ops_run);
	sqlite3_bind_int64(q, 3, (sqlite3_int64)ss->n_ops);
	sqlite3_bind_blob64(q, 4, blob, bytes, free);
	ss->n_ops = 0;
	int rc = writer_exec(ss, q, err);
	amd_store_cached_drop(q);
	return rc;
}

void writer_ops_free(struct amd_store_sink *ss)
{
	free(ss->ops);
	ss->ops = NULL;
	ss->n_ops = ss->cap_ops = 0;
}

/* Room for one more buffered row, after writing the buffer when the
 * row's run is another or it is full; NULL with err set on failure. */
static struct amd_packed_op *op_slot(struct amd_store_sink *ss, struct amd_err *err)
{
	int64_t run = ss->run_id > 0 ? ss->run_id : 0;
	if ((ss->n_ops && ss->ops_run != run) || ss->n_ops == AMD_OP_CHUNK)
		if (writer_ops_flush(ss, err) < 0)
			return NULL;
	ss->ops_run = run;
	if (ss->n_ops == ss->cap_ops) {
		size_t cap = ss->cap_ops ? 2 * ss->cap_ops : 256;
		struct amd_packed_op *v = realloc(ss->ops, cap * sizeof *v);
		if (!v) {
			amd_fail(err, "%s: out of memory", ss->path);
			return NULL;
		}
		ss->ops = v;
		ss->cap_ops = cap;
	}
	return &ss->ops[ss->n_ops++];
}

int writer_op_average(struct amd_sink *s, const char *name, int role, int rank,
		      double self_cuda_us, double cuda_total_us, int64_t calls,
		      struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	int64_t nid = writer_name_id(ss, name);
	if (nid <= 0 && (nid = amd_store_intern(ss->st, name, err)) < 0)
		return -1;
	struct amd_packed_op *o = op_slot(ss, err);
	if (!o)
		return -1;
	*o = (struct amd_packed_op){
		.name_id = nid, .rank = rank, .calls = calls, .role = role,
		.self_cuda_us = isnan(self_cuda_us) ? 0 : self_cuda_us,
		.cuda_total_us = isnan(cuda_total_us) ? 0 : cuda_total_us,
		.nulls = (rank < 0 ? AMD_OP_NULL_RANK : 0) |
			 (isnan(self_cuda_us) ? AMD_OP_NULL_SELF : 0) |
			 (isnan(cuda_total_us) ? AMD_OP_NULL_TOTAL : 0),
	};
	return 0;
}
