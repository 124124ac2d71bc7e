/* nsys_phases.c — each device's phase split in an Nsight Systems export
 * (nsys_read.h): its kernels, memory copies and sets in start order
 * through the GPU sweep (gpu_sweep.h), the same split as a Kineto
 * trace's, over the export's window (first start to last end of what
 * was read). Reported as regions of kind phase (compute, communication,
 * memory, idle; overlap as total time only) and one region of kind
 * device per GPU, named from TARGET_INFO_GPU (else "GPU N"), its busy
 * time the self and the window the total time. */
#include "nsys_read.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "gpu_sweep.h"
#include "phase.h"
#include "region.h"

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
		amd_buf_printf(sql, "SELECT k.deviceId, k.start, k.\"end\", 0, s.value"
			       " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s"
			       " ON s.id = k.%s WHERE %s", n->kernel_name, kc);
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

static int sweep_rows(struct nsys *n, sqlite3_stmt *q, struct amd_err *err)
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
		int is_memory = sqlite3_column_int(q, 3);
		const char *name = (const char *)sqlite3_column_text(q, 4);
		if (!is_memory && !name)
			return amd_fail(err, "%s: out of memory", n->path);
		amd_gpu_sweep_take(&s, sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2),
				   amd_gpu_class_of(name, is_memory));
	}
	if (rc != SQLITE_DONE)
		return nsys_sql_fail(n, err);
	return any ? emit_device(n, device, &s, err) : 0;
}

int nsys_phases(struct nsys *n, struct amd_err *err)
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
