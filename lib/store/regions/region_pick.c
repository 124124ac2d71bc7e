/* region_pick.c — amd_region_list_pick (region_pick.h): the rows of one
 * profiler and kind, top rows per configuration, from a sweep's whole
 * region list. The whole list is in amd_regions_top's order (strategy,
 * n, then self and total time, then the group ids) and shares are per
 * (configuration, profiler, kind), so the filtered rows keep their order
 * and shares: the same rows the filtered scan gives. */
#include "region_pick.h"
#include "region_rows.h"

#include <stdlib.h>
#include <string.h>

static int wanted(const struct amd_region_row *r, const struct amd_region_filter *f)
{
	return (!f->kind || amd_region_same_text(r->kind, f->kind))
		&& (!f->profiler || amd_region_same_text(r->profiler, f->profiler));
}

/* 1 when r starts a new configuration after prev. */
static int new_conf(const struct amd_region_row *prev, const struct amd_region_row *r)
{
	return !prev || prev->n != r->n || !amd_region_same_text(prev->strategy, r->strategy);
}

static int dup_text(char **out, const char *s)
{
	*out = s ? strdup(s) : NULL;
	return !s || *out ? 0 : -1;
}

/* A deep copy of r into o; -1 out of memory (o's copies freed). */
static int copy_row(struct amd_region_row *o, const struct amd_region_row *r)
{
	*o = *r;
	o->name = o->kind = o->profiler = o->file = o->strategy = NULL;
	if (dup_text(&o->name, r->name) < 0 || dup_text(&o->kind, r->kind) < 0
	    || dup_text(&o->profiler, r->profiler) < 0 || dup_text(&o->file, r->file) < 0
	    || dup_text(&o->strategy, r->strategy) < 0) {
		amd_region_row_free(o);
		return -1;
	}
	return 0;
}

int amd_region_list_pick(const struct amd_region_list *all, const struct amd_region_filter *f,
			 struct amd_region_list *out)
{
	memset(out, 0, sizeof *out);
	out->v = calloc(all->n + 1, sizeof *out->v);
	if (!out->v)
		return -1;
	const struct amd_region_row *prev = NULL;
	size_t pos = 0;
	for (size_t i = 0; i < all->n; i++) {
		const struct amd_region_row *r = &all->v[i];
		if (!wanted(r, f))
			continue;
		pos = new_conf(prev, r) ? 1 : pos + 1;
		prev = r;
		out->n_all++;
		if (f->limit && pos > f->limit)
			continue;
		if (copy_row(&out->v[out->n], r) < 0) {
			amd_region_list_free(out);
			return -1;
		}
		out->n++;
	}
	return 0;
}
