/* writer_gpu.c — a unit's nvidia-smi samples into table gpu_series
 * (gpu_pack.h): each GPU's samples are buffered and written as one
 * packed chunk row when the buffer holds AMD_GPU_CHUNK samples, when the
 * unit's run changes, and at the end of the unit. So a log costs one
 * INSERT per chunk, not one per sample, and memory stays bounded (a
 * chunk per GPU). */
#include "writer_profile.h"
#include "writer_sink.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_pack.h"

struct writer_gpu {
	int64_t run, chunk; /* the buffered samples' run; the next chunk's number */
	size_t n;
	struct amd_gpu_sample *v; /* AMD_GPU_CHUNK, allocated at its first sample */
};

struct writer_gpus {
	struct writer_gpu *g; /* by GPU number */
	size_t n;
	unsigned char *blob; /* AMD_GPU_CHUNK samples packed */
};

/* Writes GPU gpu's buffered samples as one chunk row and empties it. */
static int flush_gpu(struct amd_store_sink *ss, size_t gpu, struct amd_err *err)
{
	struct writer_gpus *w = ss->gpus;
	struct writer_gpu *b = &w->g[gpu];
	if (b->n == 0)
		return 0;
	sqlite3_stmt *q = writer_cached(ss, &ss->ins_gpu,
		"INSERT INTO gpu_series(source_id, run_id, gpu, chunk, n, t0_ms, t1_ms, samples)"
		" VALUES(?1,?2,?3,?4,?5,?6,?7,?8)", err);
	if (!q)
		return -1;
	int64_t t0 = b->v[0].ts_ms, t1 = t0;
	for (size_t i = 1; i < b->n; i++) {
		t0 = b->v[i].ts_ms < t0 ? b->v[i].ts_ms : t0;
		t1 = b->v[i].ts_ms > t1 ? b->v[i].ts_ms : t1;
	}
	amd_gpu_pack(b->v, b->n, w->blob);
	sqlite3_bind_int64(q, 1, ss->source_id);
	if (b->run > 0)
		sqlite3_bind_int64(q, 2, b->run);
	else
		sqlite3_bind_null(q, 2);
	sqlite3_bind_int64(q, 3, (sqlite3_int64)gpu);
	sqlite3_bind_int64(q, 4, b->chunk++);
	sqlite3_bind_int64(q, 5, (sqlite3_int64)b->n);
	sqlite3_bind_int64(q, 6, t0);
	sqlite3_bind_int64(q, 7, t1);
	sqlite3_bind_blob(q, 8, w->blob, (int)(b->n * AMD_GPU_SAMPLE_BYTES), SQLITE_STATIC);
	b->n = 0;
	return writer_exec(ss, q, err);
}

int writer_gpus_flush(struct amd_store_sink *ss, struct amd_err *err)
{
	for (size_t i = 0; ss->gpus && i < ss->gpus->n; i++)
		if (flush_gpu(ss, i, err) < 0)
			return -1;
	return 0;
}

void writer_gpus_free(struct amd_store_sink *ss)
{
	struct writer_gpus *w = ss->gpus;
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++)
		free(w->g[i].v);
	free(w->g);
	free(w->blob);
	free(w);
	ss->gpus = NULL;
}

/* GPU gpu's buffer, made on its first sample; NULL when out of memory. */
static struct writer_gpu *gpu_buffer(struct amd_store_sink *ss, int gpu)
{
	if (!ss->gpus && !(ss->gpus = calloc(1, sizeof *ss->gpus)))
		return NULL;
	struct writer_gpus *w = ss->gpus;
	if (!w->blob && !(w->blob = malloc((size_t)AMD_GPU_CHUNK * AMD_GPU_SAMPLE_BYTES)))
		return NULL;
	if ((size_t)gpu >= w->n) {
		struct writer_gpu *g = realloc(w->g, ((size_t)gpu + 1) * sizeof *g);
		if (!g)
			return NULL;
		memset(g + w->n, 0, ((size_t)gpu + 1 - w->n) * sizeof *g);
		w->g = g;
		w->n = (size_t)gpu + 1;
	}
	struct writer_gpu *b = &w->g[gpu];
	if (!b->v && !(b->v = malloc((size_t)AMD_GPU_CHUNK * sizeof *b->v)))
		return NULL;
	return b;
}

int writer_gpu_sample(struct amd_sink *s, const struct amd_gpu_sample *g,
		      struct amd_err *err)
{
	struct amd_store_sink *ss = s->ctx;
	WRITER_ENTER(ss, err);
	if (g->gpu < 0)
		return amd_fail(err, "%s: GPU number %d", ss->path, g->gpu);
	struct writer_gpu *b = gpu_buffer(ss, g->gpu);
	if (!b)
		return amd_fail(err, "%s: out of memory", ss->path);
	if (b->n && b->run != ss->run_id && flush_gpu(ss, (size_t)g->gpu, err) < 0)
		return -1;
	b->run = ss->run_id;
	b->v[b->n++] = *g;
	return b->n == AMD_GPU_CHUNK ? flush_gpu(ss, (size_t)g->gpu, err) : 0;
}
