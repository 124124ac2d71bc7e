/* trace_memory.c — memory per device from a trace's [memory] instant
 * events (see trace_memory.h). Kineto writes one per allocation and
 * free: since 2024 with the device's "Total Allocated" and "Total
 * Reserved" after it, in 2021 with only the signed "Bytes", whose running
 * sum from the trace's start stands in for the allocated total (memory
 * allocated before the trace started is not in it). The timeline keeps
 * at most AMD_MEM_SAMPLES_MAX samples: when full, neighbouring pairs
 * merge into the one with more allocated, so the peaks survive. */
#include "trace_memory.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

struct dev {
	struct amd_trace_memdev out;
	int64_t running;            /* sum of Bytes */
	struct amd_mem_sample *v;
	size_t n, cap;
	int64_t stride, skipped;    /* keep one event in stride */
};

struct amd_trace_memory {
	struct dev *d;
	size_t n, cap;
	struct amd_trace_memdev *out;
};

struct amd_trace_memory *amd_trace_memory_new(void)
{
	return calloc(1, sizeof(struct amd_trace_memory));
}

void amd_trace_memory_free(struct amd_trace_memory *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->d[i].v);
	free(m->d);
	free(m->out);
	free(m);
}

static struct dev *device(struct amd_trace_memory *m, int type, int id)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->d[i].out.device_type == type && m->d[i].out.device_id == id)
			return &m->d[i];
	if (amd_grow(&m->d, m->n, &m->cap, sizeof *m->d, 4) < 0)
		return NULL;
	struct dev *d = &m->d[m->n++];
	memset(d, 0, sizeof *d);
	d->out = (struct amd_trace_memdev){.device_type = type, .device_id = id,
					   .from_totals = 1, .peak_allocated = -1,
					   .peak_reserved = -1};
	d->stride = 1;
	return d;
}

/* Halves the timeline: each pair becomes the sample with more allocated. */
static void compact(struct dev *d)
{
	size_t k = 0;
	for (size_t i = 0; i + 1 < d->n; i += 2)
		d->v[k++] = d->v[i + 1].allocated > d->v[i].allocated ? d->v[i + 1] : d->v[i];
	if (d->n % 2)
		d->v[k++] = d->v[d->n - 1];
	d->n = k;
	d->stride *= 2;
}

static int sample(struct dev *d, struct amd_mem_sample s)
{
	if (d->n && ++d->skipped < d->stride) {
		if (s.allocated > d->v[d->n - 1].allocated)
			d->v[d->n - 1] = s; /* the stride's largest stands for it */
		return 0;
	}
	d->skipped = 0;
	if (d->n == AMD_MEM_SAMPLES_MAX)
		compact(d);
	if (amd_grow(&d->v, d->n, &d->cap, sizeof *d->v, 64) < 0)
		return -1;
	d->v[d->n++] = s;
	return 0;
}

int amd_trace_memory_event(struct amd_trace_memory *m, const struct amd_trace_event *e)
{
	if (e->ph != 'i' || !e->has_ts || e->name_len != 8 || memcmp(e->name, "[memory]", 8) != 0)
		return 0;
	int type = e->mem_device_type >= 0 ? e->mem_device_type : 0;
	int id = e->mem_device_id >= -1 ? e->mem_device_id : -1;
	struct dev *d = device(m, type, id);
	if (!d)
		return -1;
	if (e->mem_bytes != INT64_MIN)
		d->running += e->mem_bytes;
	struct amd_mem_sample s = {e->ts, e->mem_allocated, e->mem_reserved};
	if (s.allocated == INT64_MIN) {
		d->out.from_totals = 0;
		s.allocated = d->running;
	}
	if (s.reserved == INT64_MIN)
		s.reserved = -1;
	d->out.events++;
	if (s.allocated > d->out.peak_allocated)
		d->out.peak_allocated = s.allocated;
	if (s.reserved > d->out.peak_reserved)
		d->out.peak_reserved = s.reserved;
	return sample(d, s);
}

static int by_device(const void *x, const void *y)
{
	const struct amd_trace_memdev *a = x, *b = y;
	if (a->device_type != b->device_type)
		return a->device_type < b->device_type ? -1 : 1;
	return (a->device_id > b->device_id) - (a->device_id < b->device_id);
}

int amd_trace_memory_finish(struct amd_trace_memory *m, int64_t base_ns,
			    const struct amd_trace_memdev **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!m->n)
		return 0;
	if (!(m->out = calloc(m->n, sizeof *m->out)))
		return -1;
	for (size_t i = 0; i < m->n; i++) {
		struct dev *d = &m->d[i];
		for (size_t k = 0; k < d->n; k++)
			d->v[k].ts_ns += base_ns;
		d->out.samples = d->v;
		d->out.n_samples = d->n;
		m->out[i] = d->out;
	}
	qsort(m->out, m->n, sizeof *m->out, by_device);
	*out = m->out;
	*n = m->n;
	return 0;
}
