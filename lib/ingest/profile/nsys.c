/* nsys.c — Nsight Systems SQLite exports (`nsys export --type sqlite`,
 * the file `nsys stats` leaves), one module: detection, the export's
 * tables found by name and columns by name (the schema changes across
 * versions and a table exists only when it has data); one rank per
 * process; regions (profiler nsys, rank from --rank): kernels per device
 * and name, memory copies per device and copy kind and memory sets per
 * device (with bytes), CUDA API calls per name, NVTX ranges with their
 * self time, and each device's phase split. Read through a read-only
 * connection (foreign_db.h); rows whose start or end is no integer of
 * nanoseconds in range, or whose end comes before their start, are
 * refused; a kernel whose name id has no string is '(unnamed)'. Its sections below: the export and its regions; one rank per
 * process; CUDA API calls; NVTX ranges; phases per device. */
#include <math.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "foreign_db.h"
#include "gpu_sweep.h"
#include "hmap.h"
#include "huge_map.h"
#include "ingest.h"
#include "phase.h"
#include "region.h"
#include "trace_strtab.h"

/* The largest time a row may hold (4e18 ns, the year 2096 counted from
 * 1970; the range trace_time.h gives a trace's times): a sum of a few
 * never overflows int64, and INT64_MAX (a missing end written as the
 * largest integer) is refused rather than read as a 292-year phase. */
#define NSYS_MAX_TIME_NS 4000000000000000000LL

struct nsys {
	sqlite3 *db;
	const char *path;
	struct amd_sink *sink;
	int rank;               /* --rank, else -1 */
	int64_t t0, t1;         /* the profiled window: first start, last end */
	int has_window;
	const char *kernel_name; /* the kernel table's name column */
	int has_kernel, has_memcpy, has_memset, has_runtime, has_nvtx, has_gpu;
	int strings_by_id;      /* StringIds.id is its INTEGER PRIMARY KEY: one row an id */
	int64_t proc;           /* the process read (globalPid >> 24), -1: all */
	/* the processes the window scans saw (globalPid or globalTid >> 24):
	 * proc_lo..proc_hi when proc_any; proc_unknown when a present table
	 * does not name them (nsys_each_process then asks SQLite) */
	int proc_any, proc_unknown;
	int64_t proc_lo, proc_hi;
	int nprocs;             /* processes read as ranks (0: one, or unknown) */
	int has_nccl;           /* a string names an NCCL kernel: 1, 0, -1 not asked yet */
	int64_t phase_ns[AMD_PHASE_COUNT]; /* the process's devices' phases, summed */
};

/* The SQL condition keeping the rows of the process read from a table
 * whose column col is a globalPid or globalTid, written into buf: "1"
 * when reading all. */
static const char *nsys_proc_cond(const struct nsys *n, const char *col, char *buf, size_t len);

/* Fails naming the export and SQLite's message. */
static int nsys_sql_fail(const struct nsys *n, struct amd_err *err);

/* A prepared statement, or NULL with err set. */
static sqlite3_stmt *nsys_prepare(const struct nsys *n, const char *sql, struct amd_err *err);

/* Reports one region of the export (profiler nsys, the unit's rank). */
static int nsys_region(const struct nsys *n, const char *kind, const char *name, int device,
		int64_t calls, int64_t self_ns, int64_t total_ns, int64_t bytes,
		struct amd_err *err);

/* CUDA API calls summed per name. */
static int nsys_api_calls(struct nsys *n, struct amd_err *err);

/* NVTX push/pop and start/end ranges: self time (push/pop: minus the
 * direct children on the same thread) and total, per name. */
static int nsys_nvtx(struct nsys *n, struct amd_err *err);

/* Each device's phases (regions of kind phase) and the device itself
 * (kind device, named by TARGET_INFO_GPU: busy and window time). */
static int nsys_phases(struct nsys *n, struct amd_err *err);

/* Regions, NVTX ranges and phases of the process n->proc at rank n->rank. */
static int nsys_read_process(struct nsys *n, struct amd_err *err);

/* The process's NCCL kernels as its rank's trace (issue 34): in an
 * export of several processes (a rank each), a trace summary with the
 * export's window on the Unix clock, the phases and the collective
 * calls, so that `amdahl explain` matches them across the processes;
 * nothing when the export has one process or no NCCL kernel. */
static int nsys_trace(struct nsys *n, struct amd_err *err);

/* Each process with activity in the export at its own rank:
 * in PID order from --rank (0 without it) when there are several and every
 * activity table names its process; else all of them at --rank. */
static int nsys_each_process(struct nsys *n, struct amd_err *err);

/* ---- Nsight Systems SQLite exports (`nsys export --type sqlite`,
 * the file `nsys stats` leaves): tables found by name and columns by
 * name, since the schema changes across versions and a table exists only
 * when it has data. Regions (profiler nsys, rank from --rank): kernels
 * per device and name (CUPTI_ACTIVITY_KIND_KERNEL, names from StringIds:
 * demangledName, else shortName), memory copies per device and copy kind
 * and memory sets per device (with bytes), CUDA API calls per name
 * (CUPTI_ACTIVITY_KIND_RUNTIME); NVTX ranges and each device's phase
 * split below; one rank per process (below). Read through a read-only connection
 * (foreign_db.h); rows whose end comes before their start are refused. */

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

static int nsys_sql_fail(const struct nsys *n, struct amd_err *err)
{
	return amd_fail(err, "%s: %s", n->path, sqlite3_errmsg(n->db));
}

static sqlite3_stmt *nsys_prepare(const struct nsys *n, const char *sql, struct amd_err *err)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(n->db, sql, -1, &q, NULL) != SQLITE_OK) {
		nsys_sql_fail(n, err);
		return NULL;
	}
	return q;
}

static int nsys_region(const struct nsys *n, const char *kind, const char *name, int device,
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

/* A range of int64 values, empty until the first. */
struct span {
	int64_t lo, hi;
	int any;
};

/* s widened to hold [lo, hi]. */
static void span_add(struct span *s, int64_t lo, int64_t hi)
{
	if (!s->any || lo < s->lo)
		s->lo = lo;
	if (!s->any || hi > s->hi)
		s->hi = hi;
	s->any = 1;
}

/* [*lo, *hi] widened to hold the span s (a range with none yet when
 * !*any); nothing when s is empty. */
static void widen(const struct span *s, int64_t *lo, int64_t *hi, int *any)
{
	if (!s->any)
		return;
	if (!*any || s->lo < *lo)
		*lo = s->lo;
	if (!*any || s->hi > *hi)
		*hi = s->hi;
	*any = 1;
}

/* Columns 0 (start) and 1 (end) of q's row are integers of nanoseconds
 * in 0 .. NSYS_MAX_TIME_NS, or the end NULL in an NVTX mark (nvtx): the
 * row bad_time_sql's condition does not hold for. */
static int time_ok(sqlite3_stmt *q, int nvtx)
{
	if (sqlite3_column_type(q, 0) != SQLITE_INTEGER)
		return 0;
	int64_t start = sqlite3_column_int64(q, 0);
	int type = sqlite3_column_type(q, 1);
	if (start < 0 || start > NSYS_MAX_TIME_NS || type != SQLITE_INTEGER)
		return type == SQLITE_NULL && nvtx && start >= 0 && start <= NSYS_MAX_TIME_NS;
	int64_t end = sqlite3_column_int64(q, 1);
	return end >= 0 && end <= NSYS_MAX_TIME_NS;
}

/* The SQL condition true for a row of a time table whose start or end
 * is no integer of nanoseconds in 0 .. NSYS_MAX_TIME_NS (TEXT, REAL,
 * BLOB, NULL — an NVTX mark's NULL end excepted — or out of range). */
static const char *bad_time_sql(int nvtx, char *buf, size_t len)
{
	snprintf(buf, len, "NOT (typeof(start) = 'integer' AND start BETWEEN 0 AND %lld AND"
		 " ((typeof(\"end\") = 'integer' AND \"end\" BETWEEN 0 AND %lld)%s))",
		 NSYS_MAX_TIME_NS, NSYS_MAX_TIME_NS, nvtx ? " OR \"end\" IS NULL" : "");
	return buf;
}

/* What is wrong with column i of q's row (start or end), in buf. */
static const char *time_fault(sqlite3_stmt *q, int i, char *buf, size_t len)
{
	switch (sqlite3_column_type(q, i)) {
	case SQLITE_INTEGER:
		snprintf(buf, len, "%lld ns, out of range (0 to %lld)",
			 (long long)sqlite3_column_int64(q, i), NSYS_MAX_TIME_NS);
		break;
	case SQLITE_FLOAT:
		snprintf(buf, len, "the real %.17g, not an integer of nanoseconds",
			 sqlite3_column_double(q, i));
		break;
	case SQLITE_TEXT:
		snprintf(buf, len, "text '%.40s', not an integer of nanoseconds",
			 (const char *)sqlite3_column_text(q, i));
		break;
	case SQLITE_NULL:
		snprintf(buf, len, "NULL, not an integer of nanoseconds");
		break;
	default:
		snprintf(buf, len, "a BLOB, not an integer of nanoseconds");
	}
	return buf;
}

/* Refuses table tab's first row matching the condition bad (there is
 * one), naming the row and its faulty time. */
static int bad_time(struct nsys *n, const char *tab, const char *bad, struct amd_err *err)
{
	char sql[512], what[96];
	snprintf(sql, sizeof sql, "SELECT rowid, start, \"end\", typeof(start) = 'integer' AND"
		 " start BETWEEN 0 AND %lld FROM %s WHERE %s LIMIT 1", NSYS_MAX_TIME_NS, tab,
		 bad);
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	if (!q)
		return -1;
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		int start_ok = sqlite3_column_int(q, 3);
		amd_fail(err, "%s: table %s row %lld: %s is %s", n->path, tab,
			 (long long)sqlite3_column_int64(q, 0), start_ok ? "end" : "start",
			 time_fault(q, start_ok ? 2 : 1, what, sizeof what));
	} else
		nsys_sql_fail(n, err);
	sqlite3_finalize(q);
	return -1;
}

/* The profiled window from table tab (NVTX: rows with an end only) and,
 * in the same scan, the range of its processes (pcol >> 24), so that an
 * export of one process is not scanned again to list them. The rows are
 * checked and summed here, not by SQL aggregates: min, max and a
 * typeof() per row made SQLite's scan of a million API calls 2.2 times
 * as long as reading their three columns (0.27 s against 0.12 s). */
static int window(struct nsys *n, const char *tab, const char *pcol, int nvtx,
		  struct amd_err *err)
{
	char sql[256], p[64] = "NULL";
	int has = amd_foreign_has_column(n->db, tab, pcol);
	if (has > 0)
		snprintf(p, sizeof p, "%s >> 24", pcol);
	else
		n->proc_unknown = 1;
	snprintf(sql, sizeof sql, "SELECT start, \"end\", %s FROM %s", p, tab);
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	if (!q)
		return -1;
	struct span times = {0}, procs = {0};
	int rc, bad_rows = 0;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (bad_rows)
			continue; /* read on: an error of SQLite's is reported first */
		if (!time_ok(q, nvtx)) {
			bad_rows = 1;
			continue;
		}
		if (sqlite3_column_type(q, 1) != SQLITE_NULL)
			span_add(&times, sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1));
		if (sqlite3_column_type(q, 2) != SQLITE_NULL) {
			int64_t proc = sqlite3_column_int64(q, 2);
			span_add(&procs, proc, proc);
		}
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return nsys_sql_fail(n, err);
	char bad[256];
	if (bad_rows)
		return bad_time(n, tab, bad_time_sql(nvtx, bad, sizeof bad), err);
	widen(&times, &n->t0, &n->t1, &n->has_window);
	widen(&procs, &n->proc_lo, &n->proc_hi, &n->proc_any); /* processes */
	return 0;
}

static int regions(struct nsys *n, struct amd_err *err)
{
	char sql[640], cond[64];
	if (n->has_kernel && n->strings_by_id) {
		/* grouped first, named after: SQLite's sorter carried every
		 * kernel's name and spilled to temporary files */
		snprintf(sql, sizeof sql, "SELECT g.d, s.value, sum(g.c), sum(g.t), NULL, min(g.m)"
			 " FROM (SELECT k.deviceId AS d, k.%s AS i, count(*) AS c, sum(k.\"end\" -"
			 " k.start) AS t, min(k.\"end\" - k.start) AS m FROM"
			 " CUPTI_ACTIVITY_KIND_KERNEL k WHERE %s GROUP BY k.deviceId, k.%s) g"
			 " LEFT JOIN StringIds s ON s.id = g.i GROUP BY g.d, s.id"
			 " ORDER BY g.d, min(g.i)", n->kernel_name,
			 nsys_proc_cond(n, "k.globalPid", cond, sizeof cond), n->kernel_name);
		if (aggregate(n, AMD_REGION_KERNEL, sql, err) < 0)
			return -1;
	} else if (n->has_kernel) {
		snprintf(sql, sizeof sql, "SELECT k.deviceId, s.value, count(*), sum(k.\"end\" -"
			 " k.start), NULL, min(k.\"end\" - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k"
			 " LEFT JOIN StringIds s ON s.id = k.%s WHERE %s GROUP BY k.deviceId,"
			 " CASE WHEN s.id IS NOT NULL THEN k.%s END",
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
	return n->has_runtime ? nsys_api_calls(n, err) : 0;
}

/* The regions, NVTX ranges and phases of the process n->proc. */
static int nsys_read_process(struct nsys *n, struct amd_err *err)
{
	memset(n->phase_ns, 0, sizeof n->phase_ns);
	if (regions(n, err) < 0 || (n->has_nvtx && nsys_nvtx(n, err) < 0) || nsys_phases(n, err) < 0)
		return -1;
	return nsys_trace(n, err);
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
	struct nsys n = {.path = in->path, .sink = sink, .rank = in->rank_hint, .proc = -1,
			 .has_nccl = -1};
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

/* ---- one rank per process of an Nsight Systems export
 * (struct nsys above): `nsys profile mpirun …` or torchrun under one nsys
 * session writes every process into one export, each row naming its
 * process by globalPid (kernels, copies, sets) or globalTid (CUDA API,
 * NVTX), the process being bits 24-55 of either (PID in bits 24-47).
 * Several processes are read one by one, ranks in PID order (the order
 * launchers start ranks in) from --rank, 0 without it; one process, or
 * a table that does not name its processes, reads the export whole at
 * --rank. */

static const char *nsys_proc_cond(const struct nsys *n, const char *col, char *buf, size_t len)
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

static int nsys_each_process(struct nsys *n, struct amd_err *err)
{
	int64_t *procs;
	size_t np;
	if (list_procs(n, &procs, &np, err) < 0) {
		free(procs);
		return -1;
	}
	int rc = 0, first = n->rank > 0 ? n->rank : 0;
	n->nprocs = np >= 2 ? (int)np : 0;
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

/* ---- an Nsight Systems export's CUDA API calls
 * (CUPTI_ACTIVITY_KIND_RUNTIME) of the process read, summed per nameId in
 * memory (count, sum and least of "end" - start, as SQL's count(*), sum()
 * and min() give them, NULL durations left out of the sum and least) and
 * reported in nameId order under their StringIds names; a nameId with no
 * string is dropped, as the join did. SQLite's GROUP BY sorted a million
 * rows in its sorter for the handful of names. */

struct api_sum {
	int64_t name_id, calls, sum, least;
	int timed; /* a duration seen: least is set */
};

struct api_sums {
	struct api_sum *v;
	size_t n, cap;
	struct amd_hmap index;
};

struct api_probe {
	const struct api_sums *s;
	int64_t id;
};

static int same_id(const void *ctx, uint32_t idx)
{
	const struct api_probe *p = ctx;
	return p->s->v[idx].name_id == p->id;
}

static struct api_sum *slot(struct api_sums *s, int64_t id)
{
	uint32_t h = amd_hash_u64((uint64_t)id);
	struct api_probe p = {s, id};
	int64_t at = amd_hmap_find(&s->index, h, same_id, &p);
	if (at >= 0)
		return &s->v[at];
	if (s->n >= UINT32_MAX || amd_grow(&s->v, s->n, &s->cap, sizeof *s->v, 64) < 0 ||
	    amd_hmap_put(&s->index, h, (uint32_t)s->n) < 0)
		return NULL;
	s->v[s->n] = (struct api_sum){.name_id = id};
	return &s->v[s->n++];
}

static int add_call(const struct nsys *n, struct api_sum *a, sqlite3_stmt *q,
		    struct amd_err *err)
{
	a->calls++;
	if (sqlite3_column_type(q, 1) == SQLITE_NULL)
		return 0;
	int64_t d = sqlite3_column_int64(q, 1);
	if (__builtin_add_overflow(a->sum, d, &a->sum))
		return amd_fail(err, "%s: integer overflow", n->path);
	if (!a->timed || d < a->least)
		a->least = d;
	a->timed = 1;
	return 0;
}

static int sum_calls(const struct nsys *n, struct api_sums *s, struct amd_err *err)
{
	char sql[256], cond[64];
	snprintf(sql, sizeof sql, "SELECT nameId, \"end\" - start FROM CUPTI_ACTIVITY_KIND_RUNTIME"
		 " WHERE nameId IS NOT NULL AND %s", nsys_proc_cond(n, "globalTid", cond, sizeof cond));
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	if (!q)
		return -1;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct api_sum *a = slot(s, sqlite3_column_int64(q, 0));
		if (!a) {
			sqlite3_finalize(q);
			return amd_fail(err, "%s: out of memory", n->path);
		}
		if (add_call(n, a, q, err) < 0) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : nsys_sql_fail(n, err);
}

static int by_name_id(const void *pa, const void *pb)
{
	const struct api_sum *a = pa, *b = pb;
	return (a->name_id > b->name_id) - (a->name_id < b->name_id);
}

static int report(const struct nsys *n, const struct api_sums *s, struct amd_err *err)
{
	sqlite3_stmt *q = nsys_prepare(n, "SELECT value FROM StringIds WHERE id = ?1", err);
	if (!q)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < s->n && rc == 0; i++) {
		const struct api_sum *a = &s->v[i];
		sqlite3_bind_int64(q, 1, a->name_id);
		int step = sqlite3_step(q);
		const char *text = step == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : NULL;
		if (step != SQLITE_ROW && step != SQLITE_DONE)
			rc = nsys_sql_fail(n, err);
		else if (step == SQLITE_ROW && a->timed && a->least < 0)
			rc = amd_fail(err, "%s: a %s row of '%s' ends before it starts", n->path,
				      AMD_REGION_API, text ? text : "?");
		else if (step == SQLITE_ROW)
			rc = nsys_region(n, AMD_REGION_API, text && *text ? text : "(unnamed)", -1,
					 a->calls, a->sum, a->sum, -1, err);
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	return rc;
}

static int nsys_api_calls(struct nsys *n, struct amd_err *err)
{
	struct api_sums s = {0};
	int rc = sum_calls(n, &s, err);
	if (rc == 0 && s.n > 0)
		qsort(s.v, s.n, sizeof *s.v, by_name_id);
	if (rc == 0)
		rc = report(n, &s, err);
	free(s.v);
	amd_hmap_free(&s.index);
	return rc;
}

/* ---- the parts of an Nsight Systems export read event by
 * event (struct nsys above). NVTX: push/pop ranges (eventType 59) nest per
 * thread, and a range's self time is its duration minus its direct
 * children's (clipped to it); start/end ranges (60) may cross threads and
 * have self = total; each finished range is added to its name's count,
 * self and total, kept in memory by name (a string table: no allocation
 * per range), and reported in name order. The ranges are sorted in
 * memory, not by SQLite. (Each device's phases:
 * the section after this one.) */

#define NVTX_PUSH_POP 59
#define NVTX_START_END 60

struct open_range {
	int64_t start, end, children;
	uint32_t name; /* in nvtx_ctx.names */
};

/* One name's ranges so far. */
struct nvtx_sum {
	int64_t count, self, total;
};

struct nvtx_ctx {
	struct nsys *n;
	struct open_range *stack;
	size_t depth, cap;
	struct amd_strtab names;
	struct nvtx_sum *sum; /* by name index */
	size_t sum_cap;
};

/* The index of name in c->names, its sums slot made; 0 when out of memory. */
static uint32_t name_index(struct nvtx_ctx *c, const char *name)
{
	uint32_t i = amd_strtab_intern(&c->names, name, strlen(name));
	if (i == 0)
		return 0;
	if (i >= c->sum_cap) {
		size_t old = c->sum_cap;
		if (amd_grow_to(&c->sum, (size_t)i + 1, &c->sum_cap, sizeof *c->sum, 64) < 0)
			return 0;
		memset(c->sum + old, 0, (c->sum_cap - old) * sizeof *c->sum);
	}
	return i;
}

static int finish_range(struct nvtx_ctx *c, uint32_t name, int64_t self, int64_t total,
			struct amd_err *err)
{
	struct nvtx_sum *s = &c->sum[name];
	if (__builtin_add_overflow(s->self, self > 0 ? self : 0, &s->self) ||
	    __builtin_add_overflow(s->total, total, &s->total))
		return amd_fail(err, "%s: integer overflow", c->n->path);
	s->count++;
	return 0;
}

/* Closes the open ranges that end by t (all of them: t = INT64_MAX). */
static int pop_until(struct nvtx_ctx *c, int64_t t, struct amd_err *err)
{
	while (c->depth && c->stack[c->depth - 1].end <= t) {
		struct open_range *r = &c->stack[--c->depth];
		if (finish_range(c, r->name, r->end - r->start - r->children, r->end - r->start,
				 err) < 0)
			return -1;
	}
	return 0;
}

static int push_range(struct nvtx_ctx *c, int64_t start, int64_t end, uint32_t name,
		      struct amd_err *err)
{
	if (pop_until(c, start, err) < 0)
		return -1;
	if (c->depth) {
		struct open_range *p = &c->stack[c->depth - 1];
		p->children += (end < p->end ? end : p->end) - start;
	}
	if (amd_grow(&c->stack, c->depth, &c->cap, sizeof *c->stack, 16) < 0)
		return amd_fail(err, "%s: out of memory", c->n->path);
	struct open_range *r = &c->stack[c->depth];
	r->start = start;
	r->end = end;
	r->children = 0;
	r->name = name;
	c->depth++;
	return 0;
}

/* The ranges are read in table order and sorted here (by event type,
 * thread, start, end descending, then table order): SQLite's sorter,
 * carrying each row's name text, spilled to temporary files and was a
 * third of the reader's time. Names are interned per textId. */
static const char nvtx_rows[] =
	"SELECT n.globalTid, n.start, n.\"end\", n.text, %s, n.eventType"
	" FROM NVTX_EVENTS n WHERE n.\"end\" IS NOT NULL AND n.eventType IN (59, 60) AND %s";

struct nvtx_row {
	int64_t tid, start, end;
	uint32_t name, seq; /* seq: the row's place in table order */
	int type;
};

static int row_cmp(const void *pa, const void *pb)
{
	const struct nvtx_row *a = pa, *b = pb;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

struct nvtx_rows {
	struct nvtx_row *v;
	size_t n, cap;
	struct amd_hmap by_text_id; /* text ids seen: index into text_ids */
	struct {
		int64_t id;
		uint32_t name;
	} *text_ids;
	size_t n_ids, cap_ids;
	sqlite3_stmt *string_q;
};

/* Whether the rows already are in row_cmp's order (a total order: seq
 * breaks ties), as an export's rows of one thread in start order are:
 * then the sort (a merge sort with a buffer as large as the rows, 7% of
 * the reader's CPU) is not needed. */
static int in_order(const struct nvtx_rows *r)
{
	for (size_t i = 1; i < r->n; i++)
		if (row_cmp(&r->v[i - 1], &r->v[i]) > 0)
			return 0;
	return 1;
}

static int text_id_eq(const void *ctx, uint32_t idx)
{
	const struct nvtx_rows *r = ((const void *const *)ctx)[0];
	return r->text_ids[idx].id == *(const int64_t *)((const void *const *)ctx)[1];
}

/* The name of StringIds row id ('(unnamed)' when none), interned once per id. */
static uint32_t text_id_name(struct nvtx_ctx *c, struct nvtx_rows *r, int64_t id,
			     struct amd_err *err)
{
	uint32_t h = amd_hash_u64((uint64_t)id);
	const void *ctx[2] = {r, &id};
	int64_t at = amd_hmap_find(&r->by_text_id, h, text_id_eq, ctx);
	if (at >= 0)
		return r->text_ids[at].name;
	if (!r->string_q && !(r->string_q = nsys_prepare(c->n,
				"SELECT value FROM StringIds WHERE id = ?1", err)))
		return 0;
	sqlite3_bind_int64(r->string_q, 1, id);
	int rc = sqlite3_step(r->string_q);
	const char *s = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(r->string_q, 0) : NULL;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_reset(r->string_q);
		nsys_sql_fail(c->n, err);
		return 0;
	}
	uint32_t name = name_index(c, s ? s : "(unnamed)");
	sqlite3_reset(r->string_q);
	if (!name || amd_grow(&r->text_ids, r->n_ids, &r->cap_ids, sizeof *r->text_ids, 64) < 0 ||
	    amd_hmap_put(&r->by_text_id, h, (uint32_t)r->n_ids) < 0) {
		amd_fail(err, "%s: out of memory", c->n->path);
		return 0;
	}
	r->text_ids[r->n_ids].id = id;
	r->text_ids[r->n_ids++].name = name;
	return name;
}

/* A row's name: its own text, else its textId's string, else '(unnamed)'. */
static uint32_t row_name(struct nvtx_ctx *c, struct nvtx_rows *r, sqlite3_stmt *q,
			 struct amd_err *err)
{
	if (sqlite3_column_type(q, 3) != SQLITE_NULL) {
		const char *s = (const char *)sqlite3_column_text(q, 3);
		uint32_t name = s ? name_index(c, s) : 0;
		if (!name)
			amd_fail(err, "%s: out of memory", c->n->path);
		return name;
	}
	if (sqlite3_column_type(q, 4) != SQLITE_NULL)
		return text_id_name(c, r, sqlite3_column_int64(q, 4), err);
	uint32_t name = name_index(c, "(unnamed)");
	if (!name)
		amd_fail(err, "%s: out of memory", c->n->path);
	return name;
}

static int nvtx_read(struct nvtx_ctx *c, struct nvtx_rows *r, sqlite3_stmt *q,
		     struct amd_err *err)
{
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct nvtx_row w = {.tid = sqlite3_column_int64(q, 0),
				     .start = sqlite3_column_int64(q, 1),
				     .end = sqlite3_column_int64(q, 2),
				     .type = sqlite3_column_int(q, 5)};
		if (!(w.name = row_name(c, r, q, err)))
			return -1;
		if (w.end < w.start)
			return amd_fail(err, "%s: an NVTX range '%s' ends before it starts",
					c->n->path, c->names.s[w.name]);
		size_t cap = r->cap;
		if (r->n >= UINT32_MAX || amd_grow(&r->v, r->n, &r->cap, sizeof *r->v, 1024) < 0)
			return amd_fail(err, "%s: out of memory", c->n->path);
		if (r->cap != cap) /* tens of MB: faulted in 2 MB pages, not 4 KB */
			amd_huge_hint(r->v, r->cap * sizeof *r->v);
		w.seq = (uint32_t)r->n;
		r->v[r->n++] = w;
	}
	return rc == SQLITE_DONE ? 0 : nsys_sql_fail(c->n, err);
}

/* Room for the rows up front when NVTX_EVENTS' largest rowid says how
 * many there are (an export numbers them 1..n): growing by doubling
 * copied the array and faulted its pages in twice. Bounded by the
 * file's size (a row takes more than 24 bytes of it); a hint only. */
static void nvtx_reserve(struct nsys *n, struct nvtx_rows *r)
{
	sqlite3_stmt *q;
	struct stat st;
	if (stat(n->path, &st) < 0 || sqlite3_prepare_v2(n->db, "SELECT max(rowid) FROM NVTX_EVENTS",
							 -1, &q, NULL) != SQLITE_OK)
		return;
	int64_t rows = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	if (rows > st.st_size / 24)
		rows = st.st_size / 24;
	if (rows <= 1024 || rows >= UINT32_MAX ||
	    amd_grow_to(&r->v, (size_t)rows, &r->cap, sizeof *r->v, (size_t)rows) < 0)
		return;
	amd_huge_hint(r->v, r->cap * sizeof *r->v);
}

static int nvtx_walk(struct nvtx_ctx *c, const struct nvtx_rows *r, struct amd_err *err)
{
	int64_t tid = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct nvtx_row *w = &r->v[i];
		if ((w->tid != tid && pop_until(c, INT64_MAX, err) < 0))
			return -1;
		tid = w->tid;
		if (w->type == NVTX_START_END) {
			if (finish_range(c, w->name, w->end - w->start, w->end - w->start, err) < 0)
				return -1;
		} else if (push_range(c, w->start, w->end, w->name, err) < 0) {
			return -1;
		}
	}
	return pop_until(c, INT64_MAX, err);
}

/* A name and its index, sorted in the byte order of the names (as
 * SQLite's GROUP BY gave them). */
struct named {
	const char *s;
	uint32_t i;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->s, ((const struct named *)b)->s);
}

static int nvtx_emit(struct nvtx_ctx *c, struct amd_err *err)
{
	uint32_t n = c->names.n > 0 ? c->names.n - 1 : 0;
	struct named *order = malloc((n + 1) * sizeof *order);
	if (!order)
		return amd_fail(err, "%s: out of memory", c->n->path);
	for (uint32_t i = 0; i < n; i++)
		order[i] = (struct named){c->names.s[i + 1], i + 1};
	qsort(order, n, sizeof *order, by_name);
	int rc = 0;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		const struct nvtx_sum *s = &c->sum[order[i].i];
		rc = nsys_region(c->n, AMD_REGION_NVTX, order[i].s, -1, s->count, s->self, s->total,
				 -1, err);
	}
	free(order);
	return rc;
}

static int nsys_nvtx(struct nsys *n, struct amd_err *err)
{
	int text_id = amd_foreign_has_column(n->db, "NVTX_EVENTS", "textId");
	if (text_id < 0)
		return nsys_sql_fail(n, err);
	char sql[640], cond[64];
	snprintf(sql, sizeof sql, nvtx_rows, text_id ? "n.textId" : "NULL",
		 nsys_proc_cond(n, "n.globalTid", cond, sizeof cond));
	struct nvtx_ctx c = {.n = n};
	struct nvtx_rows r = {0};
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	if (q)
		nvtx_reserve(n, &r);
	int rc = q ? nvtx_read(&c, &r, q, err) : -1;
	sqlite3_finalize(q);
	sqlite3_finalize(r.string_q);
	if (rc == 0 && r.n > 0 && !in_order(&r))
		qsort(r.v, r.n, sizeof *r.v, row_cmp);
	if (rc == 0)
		rc = nvtx_walk(&c, &r, err);
	if (rc == 0)
		rc = nvtx_emit(&c, err);
	free(r.v);
	free(r.text_ids);
	amd_hmap_free(&r.by_text_id);
	free(c.stack);
	free(c.sum);
	amd_strtab_free(&c.names);
	return rc;
}

/* ---- each device's phase split in an Nsight Systems export
 * (struct nsys above): its kernels, memory copies and sets in start order
 * through the GPU sweep (gpu_sweep.h), the same split as a Kineto
 * trace's, over the export's window (first start to last end of what
 * was read). Reported as regions of kind phase (compute, communication,
 * memory, idle; overlap as total time only) and one region of kind
 * device per GPU, named from TARGET_INFO_GPU (else "GPU N"), its busy
 * time the self and the window the total time. */

static int gpu_name(struct nsys *n, int device, char *out, size_t cap, struct amd_err *err)
{
	snprintf(out, cap, "GPU %d", device);
	if (!n->has_gpu)
		return 0;
	sqlite3_stmt *q = nsys_prepare(n, "SELECT name FROM TARGET_INFO_GPU WHERE id = ?1"
				       " AND name IS NOT NULL LIMIT 1", err);
	if (!q)
		return -1;
	sqlite3_bind_int(q, 1, device);
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		snprintf(out, cap, "%s", (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : nsys_sql_fail(n, err);
}

static int emit_device(struct nsys *n, int device, struct amd_gpu_sweep *s,
		       struct amd_err *err)
{
	static const enum amd_phase shown[] = {AMD_PHASE_COMPUTE, AMD_PHASE_COMM,
					       AMD_PHASE_MEMORY, AMD_PHASE_IDLE};
	int64_t ph[AMD_PHASE_COUNT], window = n->t1 - n->t0;
	amd_gpu_sweep_end(s);
	amd_gpu_sweep_phases(s, window, ph);
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		n->phase_ns[p] += ph[p];
	for (size_t i = 0; i < sizeof shown / sizeof *shown; i++)
		if (nsys_region(n, AMD_REGION_PHASE, amd_phase_names[shown[i]], device, -1,
				ph[shown[i]], ph[shown[i]], -1, err) < 0)
			return -1;
	char name[256];
	int64_t busy = ph[AMD_PHASE_COMPUTE] + ph[AMD_PHASE_COMM] + ph[AMD_PHASE_MEMORY];
	if (nsys_region(n, AMD_REGION_PHASE, amd_phase_names[AMD_PHASE_OVERLAP], device, -1, -1,
			ph[AMD_PHASE_OVERLAP], -1, err) < 0 ||
	    gpu_name(n, device, name, sizeof name, err) < 0)
		return -1;
	return nsys_region(n, AMD_REGION_DEVICE, name, device, -1, busy, window, -1, err);
}

static int device_rows_sql(const struct nsys *n, struct amd_buf *sql)
{
	const char *sep = "";
	char kc[64], c[64];
	nsys_proc_cond(n, "k.globalPid", kc, sizeof kc);
	nsys_proc_cond(n, "globalPid", c, sizeof c);
	if (n->has_kernel) {
		if (n->strings_by_id) /* the id: its class looked up once (class_by_id) */
			amd_buf_printf(sql, "SELECT k.deviceId, k.start, k.\"end\", 0, k.%s"
				       " FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE %s",
				       n->kernel_name, kc);
		else
			amd_buf_printf(sql, "SELECT k.deviceId, k.start, k.\"end\", 0,"
				       " coalesce(s.value, '(unnamed)') FROM CUPTI_ACTIVITY_KIND_KERNEL k"
				       " LEFT JOIN StringIds s ON s.id = k.%s WHERE %s",
				       n->kernel_name, kc);
		sep = " UNION ALL ";
	}
	if (n->has_memcpy) {
		amd_buf_printf(sql, "%sSELECT deviceId, start, \"end\", 1, NULL"
			       " FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE %s", sep, c);
		sep = " UNION ALL ";
	}
	if (n->has_memset)
		amd_buf_printf(sql, "%sSELECT deviceId, start, \"end\", 1, NULL"
			       " FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE %s", sep, c);
	return amd_buf_printf(sql, " ORDER BY 1, 2");
}

/* Kernel classes by StringIds id, each name read once: the rows carry
 * the id, not the name (SQLite's sorter carried every kernel's name and
 * spilled to temporary files). */
struct classes {
	struct amd_hmap ix;
	struct {
		int64_t id;
		enum amd_gpu_class c;
	} *v;
	size_t n, cap;
	sqlite3_stmt *name_q;
};

static int class_eq(const void *ctx, uint32_t i)
{
	const struct classes *k = ((const void *const *)ctx)[0];
	return k->v[i].id == *(const int64_t *)((const void *const *)ctx)[1];
}

/* The class of the kernel named by StringIds row id; -1 with err. */
static int class_by_id(struct nsys *n, struct classes *k, int64_t id, struct amd_err *err)
{
	uint32_t h = amd_hash_u64((uint64_t)id);
	const void *ctx[2] = {k, &id};
	int64_t at = amd_hmap_find(&k->ix, h, class_eq, ctx);
	if (at >= 0)
		return (int)k->v[at].c;
	if (!k->name_q && !(k->name_q = nsys_prepare(n, "SELECT value FROM StringIds WHERE id = ?1",
						      err)))
		return -1;
	sqlite3_bind_int64(k->name_q, 1, id);
	int rc = sqlite3_step(k->name_q);
	const char *name = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(k->name_q, 0)
					    : NULL;
	enum amd_gpu_class c = name ? amd_gpu_class_of(name, 0) : AMD_GPU_COMPUTE;
	sqlite3_reset(k->name_q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return nsys_sql_fail(n, err);
	if (amd_grow(&k->v, k->n, &k->cap, sizeof *k->v, 64) < 0 || /* no name: compute */
	    amd_hmap_put(&k->ix, h, (uint32_t)k->n) < 0)
		return amd_fail(err, "%s: out of memory", n->path);
	k->v[k->n].id = id;
	k->v[k->n++].c = c;
	return (int)c;
}

/* A row's class: column 4 is the kernel's StringIds id or its name. */
static int row_class(struct nsys *n, struct classes *k, sqlite3_stmt *q, struct amd_err *err)
{
	if (sqlite3_column_int(q, 3))
		return AMD_GPU_MEMORY;
	if (n->strings_by_id)
		return class_by_id(n, k, sqlite3_column_int64(q, 4), err);
	const char *name = (const char *)sqlite3_column_text(q, 4);
	if (!name)
		return amd_fail(err, "%s: out of memory", n->path);
	return (int)amd_gpu_class_of(name, 0);
}

static int rows_swept(struct nsys *n, sqlite3_stmt *q, struct classes *k, struct amd_err *err)
{
	struct amd_gpu_sweep s;
	int rc, device = 0, any = 0;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int d = sqlite3_column_int(q, 0);
		if (any && d != device && emit_device(n, device, &s, err) < 0)
			return -1;
		if (!any || d != device)
			memset(&s, 0, sizeof s);
		device = d;
		any = 1;
		int c = row_class(n, k, q, err);
		if (c < 0)
			return -1;
		amd_gpu_sweep_take(&s, sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2),
				   (enum amd_gpu_class)c);
	}
	if (rc != SQLITE_DONE)
		return nsys_sql_fail(n, err);
	return any ? emit_device(n, device, &s, err) : 0;
}

static int sweep_rows(struct nsys *n, sqlite3_stmt *q, struct amd_err *err)
{
	struct classes k = {0};
	int rc = rows_swept(n, q, &k, err);
	sqlite3_finalize(k.name_q);
	amd_hmap_free(&k.ix);
	free(k.v);
	return rc;
}

static int nsys_phases(struct nsys *n, struct amd_err *err)
{
	if (!n->has_kernel && !n->has_memcpy && !n->has_memset)
		return 0;
	struct amd_buf sql = {0};
	if (device_rows_sql(n, &sql) < 0) {
		amd_buf_free(&sql);
		return amd_fail(err, "%s: out of memory", n->path);
	}
	sqlite3_stmt *q = nsys_prepare(n, sql.data, err);
	amd_buf_free(&sql);
	if (!q)
		return -1;
	int rc = sweep_rows(n, q, err);
	sqlite3_finalize(q);
	return rc;
}

/* ---- an Nsight Systems export's NCCL kernels as a trace (nsys_trace
 * above): the process's kernels whose name starts with "nccl" (as the
 * Kineto reader tells NCCL's kernels), each a collective call numbered
 * per name in start order; times on the Unix clock through
 * TARGET_INFO_SESSION_START_TIME.utcEpochNs (0 without it: the processes
 * of one export share the session's clock either way). */

struct nsys_colls {
	struct amd_trace_coll *v;
	size_t n, cap;
};

static void colls_free(struct nsys_colls *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (!i || c->v[i].name != c->v[i - 1].name)
			free((char *)c->v[i].name);
	free(c->v);
}

/* The NCCL kernels of the process read, by name then start. */
static int nccl_kernels(struct nsys *n, struct nsys_colls *c, struct amd_err *err)
{
	char kc[64], sql[512];
	snprintf(sql, sizeof sql, "SELECT s.value, k.start, k.\"end\" FROM CUPTI_ACTIVITY_KIND_KERNEL k"
		 " JOIN StringIds s ON s.id = k.%s WHERE %s AND s.value LIKE 'nccl%%'"
		 " ORDER BY s.value, k.start", n->kernel_name,
		 nsys_proc_cond(n, "k.globalPid", kc, sizeof kc));
	sqlite3_stmt *q = nsys_prepare(n, sql, err);
	if (!q)
		return -1;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 0);
		int64_t start = sqlite3_column_int64(q, 1), end = sqlite3_column_int64(q, 2);
		const struct amd_trace_coll *prev = c->n ? &c->v[c->n - 1] : NULL;
		int same = prev && name && strcmp(prev->name, name) == 0;
		int64_t seq = same ? prev->seq + 1 : 0; /* (prev moves with the array) */
		if (!name || amd_grow(&c->v, c->n, &c->cap, sizeof *c->v, 64) < 0 ||
		    !(name = same ? c->v[c->n - 1].name : strdup(name))) {
			sqlite3_finalize(q);
			return amd_fail(err, "%s: out of memory", n->path);
		}
		c->v[c->n++] = (struct amd_trace_coll){name, NULL, seq, start, end - start, -1, -1};
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : nsys_sql_fail(n, err);
}

/* TARGET_INFO_SESSION_START_TIME.utcEpochNs, 0 when absent. */
static int session_start(struct nsys *n, int64_t *out, struct amd_err *err)
{
	*out = 0;
	int has = amd_foreign_has_table(n->db, "TARGET_INFO_SESSION_START_TIME");
	if (has <= 0)
		return has < 0 ? nsys_sql_fail(n, err) : 0;
	sqlite3_stmt *q = nsys_prepare(n, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"
				       " WHERE utcEpochNs IS NOT NULL LIMIT 1", err);
	if (!q)
		return -1;
	int rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : nsys_sql_fail(n, err);
}

/* Whether any string names an NCCL kernel (asked once an export: most
 * have none, and then no process's kernels are scanned again). */
static int any_nccl(struct nsys *n, struct amd_err *err)
{
	if (n->has_nccl >= 0)
		return n->has_nccl;
	sqlite3_stmt *q = nsys_prepare(n, "SELECT EXISTS(SELECT 1 FROM StringIds"
				       " WHERE value LIKE 'nccl%')", err);
	if (!q)
		return -1;
	int rc = sqlite3_step(q);
	n->has_nccl = rc == SQLITE_ROW && sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	return rc == SQLITE_ROW ? n->has_nccl : nsys_sql_fail(n, err);
}

static int nsys_trace(struct nsys *n, struct amd_err *err)
{
	if (!n->sink->trace || !n->has_kernel || !n->has_window || n->nprocs < 2)
		return 0; /* one process: its regions, as before (a run's own traces
			   * carry its phases; the export's are drawn beside them) */
	int any = any_nccl(n, err);
	if (any <= 0)
		return any;
	struct nsys_colls c = {0};
	int64_t base;
	int rc = nccl_kernels(n, &c, err);
	if (rc == 0 && c.n)
		rc = session_start(n, &base, err);
	if (rc == 0 && c.n) {
		for (size_t i = 0; i < c.n; i++)
			c.v[i].start_ns += base;
		struct amd_trace_summary t = {.rank = n->rank, .world_size = n->nprocs ? n->nprocs : -1,
					      .backend = "nccl", .start_ns = base + n->t0,
					      .end_ns = base + n->t1, .events = (int64_t)c.n,
					      .has_gpu = 1, .comp_fraction = NAN,
					      .colls = c.v, .n_colls = c.n};
		memcpy(t.phase_ns, n->phase_ns, sizeof t.phase_ns);
		rc = n->sink->trace(n->sink, &t, err);
	}
	colls_free(&c);
	return rc;
}
