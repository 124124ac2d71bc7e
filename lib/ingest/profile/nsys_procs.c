/* nsys_procs.c — one rank per process of an Nsight Systems export
 * (nsys_read.h): `nsys profile mpirun …` or torchrun under one nsys
 * session writes every process into one export, each row naming its
 * process by globalPid (kernels, copies, sets) or globalTid (CUDA API,
 * NVTX), the process being bits 24-55 of either (PID in bits 24-47).
 * Several processes are read one by one, ranks in PID order (the order
 * launchers start ranks in) from --rank, 0 without it; one process, or
 * a table that does not name its processes, reads the export whole at
 * --rank. */
#include "nsys_read.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "buf.h"
#include "foreign_db.h"

const char *nsys_proc_cond(const struct nsys *n, const char *col, char *buf, size_t len)
{
	if (n->proc < 0)
		snprintf(buf, len, "1");
	else
		snprintf(buf, len, "(%s >> 24) = %lld", col, (long long)n->proc);
	return buf;
}

struct proc_table {
	const char *table, *col;
	size_t has_offset; /* offsetof the has_ flag in struct nsys */
};

static const struct proc_table proc_tables[] = {
	{"CUPTI_ACTIVITY_KIND_KERNEL", "globalPid", offsetof(struct nsys, has_kernel)},
	{"CUPTI_ACTIVITY_KIND_MEMCPY", "globalPid", offsetof(struct nsys, has_memcpy)},
	{"CUPTI_ACTIVITY_KIND_MEMSET", "globalPid", offsetof(struct nsys, has_memset)},
	{"CUPTI_ACTIVITY_KIND_RUNTIME", "globalTid", offsetof(struct nsys, has_runtime)},
	{"NVTX_EVENTS", "globalTid", offsetof(struct nsys, has_nvtx)},
};
#define NPROC_TABLES (sizeof proc_tables / sizeof *proc_tables)

static int has(const struct nsys *n, const struct proc_table *t)
{
	return *(const int *)((const char *)n + t->has_offset);
}

/* The SQL of the distinct processes, in PID order (each table's own
 * distinct ones, then those of all: a UNION put every row of every table
 * into one temporary B-tree); 0 with sql left
 * empty when a present table does not name its processes or none has
 * activity; -1. */
static int procs_sql(const struct nsys *n, struct amd_buf *sql, struct amd_err *err)
{
	int any = 0;
	for (size_t i = 0; i < NPROC_TABLES; i++) {
		if (!has(n, &proc_tables[i]))
			continue;
		int c = amd_foreign_has_column(n->db, proc_tables[i].table, proc_tables[i].col);
		if (c <= 0) {
			amd_buf_free(sql);
			return c < 0 ? nsys_sql_fail(n, err) : 0;
		}
		if (amd_buf_printf(sql, "%s SELECT DISTINCT %s >> 24 AS p FROM %s WHERE %s IS NOT NULL",
				   any ? " UNION ALL" : "SELECT DISTINCT p FROM (", proc_tables[i].col,
				   proc_tables[i].table, proc_tables[i].col) < 0)
			return amd_fail(err, "%s: out of memory", n->path);
		any = 1;
	}
	if (any && amd_buf_printf(sql, ") ORDER BY p & 16777215, p") < 0)
		return amd_fail(err, "%s: out of memory", n->path);
	return 0;
}

/* The processes of the export into *out (*n_out of them): from the
 * range the window scans saw (nsys.c) when that settles it, else from
 * SQLite. */
static int list_procs(struct nsys *n, int64_t **out, size_t *n_out, struct amd_err *err)
{
	struct amd_buf sql = {0};
	size_t cap = 0;
	*out = NULL;
	*n_out = 0;
	if (!n->proc_unknown && (!n->proc_any || n->proc_lo == n->proc_hi)) {
		/* the window scans saw one process or none: what the query
		 * would list, without scanning the export again */
		if (n->proc_any && !(*out = malloc(sizeof **out)))
			return amd_fail(err, "%s: out of memory", n->path);
		if (n->proc_any)
			(*out)[(*n_out)++] = n->proc_lo;
		return 0;
	}
	if (procs_sql(n, &sql, err) < 0) {
		amd_buf_free(&sql);
		return -1;
	}
	if (!sql.data)
		return 0;
	sqlite3_stmt *q = nsys_prepare(n, sql.data, err);
	amd_buf_free(&sql);
	if (!q)
		return -1;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n_out, &cap, sizeof **out, 8) < 0) {
			sqlite3_finalize(q);
			return amd_fail(err, "%s: out of memory", n->path);
		}
		(*out)[(*n_out)++] = sqlite3_column_int64(q, 0);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : nsys_sql_fail(n, err);
}

int nsys_each_process(struct nsys *n, struct amd_err *err)
{
	int64_t *procs;
	size_t np;
	if (list_procs(n, &procs, &np, err) < 0) {
		free(procs);
		return -1;
	}
	int rc = 0, first = n->rank > 0 ? n->rank : 0;
	if (np < 2)
		rc = nsys_read_process(n, err);
	for (size_t i = 0; np >= 2 && i < np && rc == 0; i++) {
		n->proc = procs[i];
		n->rank = first + (int)i;
		rc = nsys_read_process(n, err);
	}
	free(procs);
	return rc;
}
