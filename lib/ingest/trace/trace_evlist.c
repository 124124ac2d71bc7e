/* trace_evlist.c — the event lists of trace_evlist.h: an event's seven
 * strings are appended to the list's text, NUL-terminated, in field
 * order, and pointed at again when the list is replayed. */
#include "trace_evlist.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define NFIELD 7

/* The i-th string field of e (its pointer; *len its length). */
static const char **field(struct amd_trace_event *e, int i, size_t **len)
{
	switch (i) {
	case 0: *len = &e->name_len; return &e->name;
	case 1: *len = &e->cat_len; return &e->cat;
	case 2: *len = &e->pid_len; return &e->pid;
	case 3: *len = &e->tid_len; return &e->tid;
	case 4: *len = &e->dtype_len; return &e->dtype;
	case 5: *len = &e->coll_name_len; return &e->coll_name;
	default: *len = &e->pg_name_len; return &e->pg_name;
	}
}

int amd_trace_evlist_put(struct amd_trace_evlist *l, const struct amd_trace_event *e)
{
	if (amd_grow_to((char **)&l->ev, l->n + 1, &l->cap, sizeof *l->ev, 1024) < 0)
		return -1;
	struct amd_trace_event *d = &l->ev[l->n];
	*d = *e;
	for (int i = 0; i < NFIELD; i++) {
		size_t *len;
		const char **s = field(d, i, &len);
		if (!*s)
			continue;
		if (amd_grow_to(&l->text, l->used + *len + 1, &l->text_cap, 1, 1 << 16) < 0)
			return -1;
		memcpy(l->text + l->used, *s, *len);
		l->text[l->used + *len] = '\0';
		l->used += *len + 1;
	}
	l->n++;
	return 0;
}

int amd_trace_evlist_replay(struct amd_trace_evlist *l, struct amd_trace_agg *agg)
{
	size_t at = 0;
	int rc = 0;
	for (size_t k = 0; k < l->n && rc == 0; k++) {
		struct amd_trace_event *e = &l->ev[k];
		for (int i = 0; i < NFIELD; i++) {
			size_t *len;
			const char **s = field(e, i, &len);
			if (*s) {
				*s = l->text + at;
				at += *len + 1;
			}
		}
		rc = amd_trace_agg_event(agg, e);
	}
	amd_trace_evlist_clear(l);
	return rc;
}

void amd_trace_evlist_clear(struct amd_trace_evlist *l)
{
	l->n = l->used = 0;
}

void amd_trace_evlist_free(struct amd_trace_evlist *l)
{
	free(l->ev);
	free(l->text);
	memset(l, 0, sizeof *l);
}
