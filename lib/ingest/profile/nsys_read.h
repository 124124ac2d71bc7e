/* nsys_read.h — what the two halves of the Nsight Systems reader share:
 * nsys.c (detection, the export's tables, the regions of kernels, memory
 * operations), nsys_api.c (CUDA API calls), nsys_timeline.c (NVTX ranges with
 * their self time) and nsys_phases.c (each device's phase split); each
 * reads the process n->proc (nsys_procs.c: one rank per process). */
#ifndef AMD_NSYS_READ_H
#define AMD_NSYS_READ_H

#include <sqlite3.h>
#include <stdint.h>

#include "ingest.h"

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
	 * does not name them (nsys_procs.c then asks SQLite) */
	int proc_any, proc_unknown;
	int64_t proc_lo, proc_hi;
};

/* The SQL condition keeping the rows of the process read from a table
 * whose column col is a globalPid or globalTid, written into buf: "1"
 * when reading all. */
const char *nsys_proc_cond(const struct nsys *n, const char *col, char *buf, size_t len);

/* Fails naming the export and SQLite's message. */
int nsys_sql_fail(const struct nsys *n, struct amd_err *err);

/* A prepared statement, or NULL with err set. */
sqlite3_stmt *nsys_prepare(const struct nsys *n, const char *sql, struct amd_err *err);

/* Reports one region of the export (profiler nsys, the unit's rank). */
int nsys_region(const struct nsys *n, const char *kind, const char *name, int device,
		int64_t calls, int64_t self_ns, int64_t total_ns, int64_t bytes,
		struct amd_err *err);

/* CUDA API calls summed per name (nsys_api.c). */
int nsys_api_calls(struct nsys *n, struct amd_err *err);

/* NVTX push/pop and start/end ranges: self time (push/pop: minus the
 * direct children on the same thread) and total, per name. */
int nsys_nvtx(struct nsys *n, struct amd_err *err);

/* Each device's phases (regions of kind phase) and the device itself
 * (kind device, named by TARGET_INFO_GPU: busy and window time). */
int nsys_phases(struct nsys *n, struct amd_err *err);

/* Regions, NVTX ranges and phases of the process n->proc at rank n->rank. */
int nsys_read_process(struct nsys *n, struct amd_err *err);

/* Each process with activity in the export at its own rank (nsys_procs.c):
 * in PID order from --rank (0 without it) when there are several and every
 * activity table names its process; else all of them at --rank. */
int nsys_each_process(struct nsys *n, struct amd_err *err);

#endif
