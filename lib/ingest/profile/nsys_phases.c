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
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "gpu_sweep.h"
#include "hmap.h"
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
		amd_buf_printf(sql, "SELECT k.deviceId, k.start, k.\"end\", 0, %s"
			       " FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s"
			       " ON s.id = k.%s WHERE %s", n->strings_by_id ? "s.id" : "s.value",
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
	if (!name || amd_grow(&k->v, k->n, &k->cap, sizeof *k->v, 64) < 0 ||
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
