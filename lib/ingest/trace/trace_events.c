/* trace_events.c — the device events of one trace for `ingest --events`
 * (trace_events.h): names interned once, events kept compact until the
 * trace ends, then sorted by start and numbered per name. */
#include "trace_events.h"

#include <stdlib.h>

#include "buf.h"
#include "trace_strtab.h"

struct kept {
	int64_t start, dur, bytes, stream, seq;
	uint32_t name, order;
	enum amd_trace_event_kind kind;
};

struct amd_trace_evbuf {
	struct amd_strtab names;
	struct kept *v;
	size_t n, cap;
};

struct amd_trace_evbuf *amd_trace_evbuf_new(void)
{
	return calloc(1, sizeof(struct amd_trace_evbuf));
}

void amd_trace_evbuf_free(struct amd_trace_evbuf *b)
{
	if (!b)
		return;
	amd_strtab_free(&b->names);
	free(b->v);
	free(b);
}

/* The stream of a device track: Kineto names it by its number ("7", or
 * "stream 7"); -1 when the track ends in no digits. */
static int64_t stream_of(const char *tid, size_t n)
{
	size_t i = n;
	while (i > 0 && tid[i - 1] >= '0' && tid[i - 1] <= '9')
		i--;
	if (i == n || n - i > 18)
		return -1;
	int64_t v = 0;
	for (; i < n; i++)
		v = v * 10 + (tid[i] - '0');
	return v;
}

int amd_trace_evbuf_add(struct amd_trace_evbuf *b, const struct amd_trace_event *e,
			enum amd_trace_event_kind kind, int64_t bytes, int device)
{
	if (b->n >= UINT32_MAX ||
	    amd_grow_to(&b->v, b->n + 1, &b->cap, sizeof *b->v, 1024) < 0)
		return -1;
	uint32_t name = amd_strtab_intern(&b->names, e->name ? e->name : "",
					  e->name ? e->name_len : 0);
	if (!name)
		return -1;
	b->v[b->n] = (struct kept){
		.start = e->ts, .dur = e->dur, .bytes = bytes,
		.stream = device && e->tid ? stream_of(e->tid, e->tid_len) : -1,
		.name = name, .order = (uint32_t)b->n, .kind = kind,
	};
	b->n++;
	return 0;
}

static int by_start(const void *x, const void *y)
{
	const struct kept *a = x, *b = y;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

int amd_trace_evbuf_emit(struct amd_trace_evbuf *b, int64_t base_ns, struct amd_sink *sink,
			 const char *path, struct amd_err *err)
{
	if (!sink->trace_event)
		return 0;
	if (b->n > 1) /* qsort's pointer must not be null, even for no elements */
		qsort(b->v, b->n, sizeof *b->v, by_start);
	int64_t *next = calloc((size_t)b->names.n + 1, sizeof *next); /* per name */
	if (!next)
		return amd_fail(err, "%s: out of memory", path);
	int rc = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct kept *k = &b->v[i];
		if (base_ns > 0 && k->start > INT64_MAX - base_ns) {
			rc = amd_fail(err, "%s: a device event starts past int64 nanoseconds "
					   "after baseTimeNanoseconds", path);
			break;
		}
		struct amd_trace_event_rec r = {
			.kind = k->kind, .name = b->names.s[k->name], .stream = k->stream,
			.seq = next[k->name]++, .start_ns = k->start + base_ns, .dur_ns = k->dur,
			.bytes = k->bytes,
		};
		if ((rc = sink->trace_event(sink, &r, err)) < 0)
			break;
	}
	free(next);
	return rc < 0 ? -1 : 0;
}
