/* nsys.c — Nsight Systems SQLite exports (`nsys export --type sqlite`,
 * the file `nsys stats` leaves): tables found by name and columns by
 * name, since the schema changes across versions and a table exists only
 * when it has data. Regions (profiler nsys, rank from --rank): kernels
 * per device and name (CUPTI_ACTIVITY_KIND_KERNEL, names from StringIds:
 * demangledName, else shortName), memory copies per device and copy kind
 * and memory sets per device (with bytes), CUDA API calls per name
 * (CUPTI_ACTIVITY_KIND_RUNTIME); NVTX ranges and each device's phase
 * split in nsys_timeline.c; one rank per process (nsys_procs.c). Read through a read-only connection
 * (foreign_db.h); rows whose end comes before their start are refused. */
#include "nsys_read.h"

#include <stdio.h>
#include <string.h>

#include "foreign_db.h"
#include "region.h"

static const char *const memcpy_kinds[] = {
	"Unknown", "Host-to-Device", "Device-to-Host", "Host-to-Array", "Array-to-Host",
	"Array-to-Array", "Array-to-Device", "Device-to-Array", "Device-to-Device",
	"Host-to-Host", "Peer-to-Peer", "Unified Host-to-Device", "Unified Device-to-Host",
	"Unified Device-to-Device",
};

static int detect(const char *path, const unsigned char *head, size_t n)
{
	if (!amd_foreign_is_sqlite(head, n))
		return 0;
	sqlite3 *db = amd_foreign_open(path);
	int strings = db ? amd_foreign_has_table(db, "StringIds") : -1;
	int info = db ? amd_foreign_has_table(db, "TARGET_INFO_SESSION_START_TIME") : -1;
	int procs = db ? amd_foreign_has_table(db, "ProcessStreams") : -1;
	sqlite3_close(db);
	return strings > 0 && (info > 0 || procs > 0) ? 95 : 0;
}

int nsys_sql_fail(const struct nsys *n, struct amd_err *err)
{
	return amd_fail(err, "%s: %s", n->path, sqlite3_errmsg(n->db));
}

sqlite3_stmt *nsys_prepare(const struct nsys *n, const char *sql, struct amd_err *err)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(n->db, sql, -1, &q, NULL) != SQLITE_OK) {
		nsys_sql_fail(n, err);
		return NULL;
	}
	return q;
}

int nsys_region(const struct nsys *n, const char *kind, const char *name, int device,
		int64_t calls, int64_t self_ns, int64_t total_ns, int64_t bytes,
		struct amd_err *err)
{
	struct amd_region_rec r = {.name = name, .kind = kind, .profiler = "nsys",
				   .rank = n->rank, .device = device, .calls = calls,
				   .prim_calls = calls, .self_ns = self_ns, .total_ns = total_ns,
				   .bytes = bytes};
	return n->sink->region ? n->sink->region(n->sink, &r, err) : 0;
}

/* 1/0 whether the export has table (and then its columns), -1. */
static int table(struct nsys *n, const char *name, const char *const *cols,
		 struct amd_err *err)
{
	int has = amd_foreign_has_table(n->db, name);
	if (has < 0)
		return amd_fail(err, "%s: byte 0: not a readable SQLite database: %s", n->path,
				sqlite3_errmsg(n->db));
	for (size_t i = 0; has && cols[i]; i++) {
		int col = amd_foreign_has_column(n->db, name, cols[i]);
		if (col <= 0)
			return col < 0 ? nsys_sql_fail(n, err)
				       : amd_fail(err, "%s: table %s has no column %s (an Nsight"
						  " Systems export of another schema?)", n->path, name,
						  cols[i]);
	}
	return has;
}

static int find_tables(struct nsys *n, struct amd_err *err)
{
	static const char *const strings[] = {"id", "value", NULL};
	static const char *const kernel[] = {"start", "end", "deviceId", NULL};
	static const char *const mem[] = {"start", "end", "deviceId", "bytes", NULL};
	static const char *const memcpy_cols[] = {"start", "end", "deviceId", "bytes", "copyKind",
						  NULL};
	static const char *const runtime[] = {"start", "end", "nameId", NULL};
	static const char *const nvtx[] = {"start", "end", "eventType", "text", "globalTid", NULL};
	static const char *const gpu[] = {"id", "name", NULL};
	int s = table(n, "StringIds", strings, err);
	if (s <= 0)
		return s < 0 ? -1 : amd_fail(err, "%s: no StringIds table: not an Nsight Systems"
					     " export", n->path);
	if ((n->has_kernel = table(n, "CUPTI_ACTIVITY_KIND_KERNEL", kernel, err)) < 0 ||
	    (n->has_memcpy = table(n, "CUPTI_ACTIVITY_KIND_MEMCPY", memcpy_cols, err)) < 0 ||
	    (n->has_memset = table(n, "CUPTI_ACTIVITY_KIND_MEMSET", mem, err)) < 0 ||
	    (n->has_runtime = table(n, "CUPTI_ACTIVITY_KIND_RUNTIME", runtime, err)) < 0 ||
	    (n->has_nvtx = table(n, "NVTX_EVENTS", nvtx, err)) < 0 ||
	    (n->has_gpu = table(n, "TARGET_INFO_GPU", gpu, err)) < 0)
		return -1;
	/* an id names one row (every export so far): names can be joined
	 * after grouping */
	if ((n->strings_by_id = amd_foreign_is_integer_key(n->db, "StringIds", "id")) < 0)
		return nsys_sql_fail(n, err);
	if (!n->has_kernel)
		return 0;
	static const char *const names[] = {"demangledName", "shortName", NULL};
	for (size_t i = 0; names[i]; i++) {
		int c = amd_foreign_has_column(n->db, "CUPTI_ACTIVITY_KIND_KERNEL", names[i]);
		if (c < 0)
			return nsys_sql_fail(n, err);
		if (c) {
			n->kernel_name = names[i];
			return 0;
		}
	}
	return amd_fail(err, "%s: table CUPTI_ACTIVITY_KIND_KERNEL has no demangledName or"
			" shortName column", n->path);
}

/* Runs sql — rows of (device or NULL, name, calls, sum of durations,
 * bytes or NULL, smallest duration) — and reports each as a region of
 * kind; a memcpy row's name is its copy kind. */
static int aggregate(struct nsys *n, const char *kind, const char *sql, struct amd_err *err)
{
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	if (!q)
		return -1;
	int rc, is_memcpy = strcmp(kind, AMD_REGION_MEMCPY) == 0;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char name[64];
		const char *text = (const char *)sqlite3_column_text(q, 1);
		if (is_memcpy) {
			int k = sqlite3_column_int(q, 1);
			snprintf(name, sizeof name, "[CUDA memcpy %s]", k >= 0 &&
				 k < (int)(sizeof memcpy_kinds / sizeof *memcpy_kinds)
				 ? memcpy_kinds[k] : "Unknown");
			text = name;
		}
		int device = sqlite3_column_type(q, 0) == SQLITE_NULL ? -1 : sqlite3_column_int(q, 0);
		int64_t bytes = sqlite3_column_type(q, 4) == SQLITE_NULL ? -1
			      : sqlite3_column_int64(q, 4);
		int64_t dur = sqlite3_column_int64(q, 3);
		if (sqlite3_column_int64(q, 5) < 0) {
			amd_fail(err, "%s: a %s row of '%s' ends before it starts", n->path, kind,
				 text ? text : "?"); /* text lives until finalize */
			sqlite3_finalize(q);
			return -1;
		}
		if (nsys_region(n, kind, text && *text ? text : "(unnamed)", device,
				sqlite3_column_int64(q, 2), dur, dur, bytes, err) < 0) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : nsys_sql_fail(n, err);
}

/* [*lo, *hi] widened to hold columns a and b of q's row (a range with
 * none yet when !*any); nothing when column a is NULL. */
static void widen(sqlite3_stmt *q, int a, int b, int64_t *lo, int64_t *hi, int *any)
{
	if (sqlite3_column_type(q, a) == SQLITE_NULL)
		return;
	int64_t x = sqlite3_column_int64(q, a), y = sqlite3_column_int64(q, b);
	if (!*any || x < *lo)
		*lo = x;
	if (!*any || y > *hi)
		*hi = y;
	*any = 1;
}

/* The profiled window from table tab (NVTX: rows with an end only) and,
 * in the same scan, the range of its processes (pcol >> 24), so that an
 * export of one process is not scanned again to list them. */
static int window(struct nsys *n, const char *tab, const char *pcol, int nvtx,
		  struct amd_err *err)
{
	char sql[384], p[64] = "NULL";
	int has = amd_foreign_has_column(n->db, tab, pcol);
	if (has > 0)
		snprintf(p, sizeof p, "%s >> 24", pcol);
	else
		n->proc_unknown = 1;
	snprintf(sql, sizeof sql, "SELECT min(%s), max(\"end\"), min(%s), max(%s) FROM %s",
		 nvtx ? "CASE WHEN \"end\" IS NOT NULL THEN start END" : "start", p, p, tab);
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	if (!q)
		return -1;
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		widen(q, 0, 1, &n->t0, &n->t1, &n->has_window);
		widen(q, 2, 3, &n->proc_lo, &n->proc_hi, &n->proc_any); /* processes */
	}
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : nsys_sql_fail(n, err);
}

static int regions(struct nsys *n, struct amd_err *err)
{
	char sql[640], cond[64];
	if (n->has_kernel && n->strings_by_id) {
		/* grouped first, named after: SQLite's sorter carried every
		 * kernel's name and spilled to temporary files */
		snprintf(sql, sizeof sql, "SELECT g.d, s.value, g.c, g.t, NULL, g.m FROM (SELECT"
			 " k.deviceId AS d, k.%s AS i, count(*) AS c, sum(k.\"end\" - k.start) AS t,"
			 " min(k.\"end\" - k.start) AS m FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE %s"
			 " GROUP BY k.deviceId, k.%s) g JOIN StringIds s ON s.id = g.i"
			 " ORDER BY g.d, g.i", n->kernel_name,
			 nsys_proc_cond(n, "k.globalPid", cond, sizeof cond), n->kernel_name);
		if (aggregate(n, AMD_REGION_KERNEL, sql, err) < 0)
			return -1;
	} else if (n->has_kernel) {
		snprintf(sql, sizeof sql, "SELECT k.deviceId, s.value, count(*), sum(k.\"end\" -"
			 " k.start), NULL, min(k.\"end\" - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
			 " JOIN StringIds s ON s.id = k.%s WHERE %s GROUP BY k.deviceId, k.%s",
			 n->kernel_name, nsys_proc_cond(n, "k.globalPid", cond, sizeof cond),
			 n->kernel_name);
		if (aggregate(n, AMD_REGION_KERNEL, sql, err) < 0)
			return -1;
	}
	if (n->has_memcpy) {
		snprintf(sql, sizeof sql, "SELECT deviceId, copyKind, count(*), sum(\"end\" - start),"
			 " sum(bytes), min(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE %s"
			 " GROUP BY deviceId, copyKind", nsys_proc_cond(n, "globalPid", cond, sizeof cond));
		if (aggregate(n, AMD_REGION_MEMCPY, sql, err) < 0)
			return -1;
	}
	if (n->has_memset) {
		snprintf(sql, sizeof sql, "SELECT deviceId, '[CUDA memset]', count(*), sum(\"end\" -"
			 " start), sum(bytes), min(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_MEMSET"
			 " WHERE %s GROUP BY deviceId", nsys_proc_cond(n, "globalPid", cond, sizeof cond));
		if (aggregate(n, AMD_REGION_MEMSET, sql, err) < 0)
			return -1;
	}
	return n->has_runtime ? nsys_api_calls(n, err) : 0; /* nsys_api.c */
}

/* The regions, NVTX ranges and phases of the process n->proc. */
int nsys_read_process(struct nsys *n, struct amd_err *err)
{
	if (regions(n, err) < 0 || (n->has_nvtx && nsys_nvtx(n, err) < 0) || nsys_phases(n, err) < 0)
		return -1;
	return 0;
}

static int read_export(struct nsys *n, const struct amd_input *in, struct amd_err *err)
{
	if (find_tables(n, err) < 0 ||
	    (n->has_kernel && window(n, "CUPTI_ACTIVITY_KIND_KERNEL", "globalPid", 0, err) < 0) ||
	    (n->has_memcpy && window(n, "CUPTI_ACTIVITY_KIND_MEMCPY", "globalPid", 0, err) < 0) ||
	    (n->has_memset && window(n, "CUPTI_ACTIVITY_KIND_MEMSET", "globalPid", 0, err) < 0) ||
	    (n->has_runtime && window(n, "CUPTI_ACTIVITY_KIND_RUNTIME", "globalTid", 0, err) < 0) ||
	    (n->has_nvtx && window(n, "NVTX_EVENTS", "globalTid", 1, err) < 0))
		return -1;
	if (amd_input_link(in, n->sink, err) < 0)
		return -1;
	return nsys_each_process(n, err);
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct nsys n = {.path = in->path, .sink = sink, .rank = in->rank_hint, .proc = -1};
	if (!(n.db = amd_foreign_open(in->path)))
		return amd_fail(err, "%s: byte 0: cannot open as an SQLite database", in->path);
	int rc = read_export(&n, in, err);
	sqlite3_close(n.db);
	return rc;
}

const struct amd_format amd_fmt_nsys = {
	.name = "nsys-sqlite",
	.variants = "Nsight Systems SQLite export (nsys export --type sqlite, nsys stats), kernels, copies, CUDA API, NVTX",
	.detect = detect,
	.parse = parse,
};
