/* pyspy_funcs.c — the py-spy readers' regions (pyspy_stack.h): each
 * Python function (name and file, its lines added up) of a unit's
 * merged stacks, with self time where it is the leaf and total time of
 * the stacks that hold it (once per stack, however often it recurses),
 * in seconds added up in the order the stacks go to the sink; reported
 * as regions of kind function, profiler py-spy, in ns. */
#include <stdlib.h>
#include <string.h>

#include "pyspy_stack.h"
#include "buf.h"
#include "hmap.h"
#include "str_prefix.h"

struct func {
	const char *name, *file; /* the accumulator's texts (file NULL: none) */
	uint64_t prefix;         /* amd_str_prefix(name), for the sort */
	double self, total;
	uint64_t stamp;          /* the last stack that counted it */
};

struct amd_pyspy_funcs {
	struct func *v;
	size_t n, cap;
	struct amd_hmap ix;
	uint32_t *of_frame; /* a numbered frame's function: of_frame[id - 1] - 1 */
	size_t cap_of_frame;
	uint64_t stacks;
};

struct amd_pyspy_funcs *amd_pyspy_funcs_new(void)
{
	return calloc(1, sizeof(struct amd_pyspy_funcs));
}

void amd_pyspy_funcs_free(struct amd_pyspy_funcs *f)
{
	if (!f)
		return;
	free(f->v);
	amd_hmap_free(&f->ix);
	free(f->of_frame);
	free(f);
}

static int same(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

struct probe {
	const struct amd_pyspy_funcs *f;
	const struct amd_stack_frame *s;
};

static int func_eq(const void *ctx, uint32_t i)
{
	const struct probe *p = ctx;
	return same(p->f->v[i].name, p->s->name) && same(p->f->v[i].file, p->s->file);
}

/* The function of frame s, added when new; NULL when out of memory. */
static struct func *func_of(struct amd_pyspy_funcs *f, const struct amd_stack_frame *s)
{
	uint64_t h64 = amd_hash_words(AMD_HASH_SEED, s->name, strlen(s->name));
	h64 = s->file ? amd_hash_words(h64 ^ 0x1f, s->file, strlen(s->file)) : ~h64;
	uint32_t h = (uint32_t)(h64 ^ (h64 >> 32));
	struct probe p = {f, s};
	int64_t i = amd_hmap_find(&f->ix, h, func_eq, &p);
	if (i >= 0)
		return &f->v[i];
	if (f->n >= UINT32_MAX || amd_grow(&f->v, f->n, &f->cap, sizeof *f->v, 256) < 0 ||
	    amd_hmap_put(&f->ix, h, (uint32_t)f->n) < 0)
		return NULL;
	f->v[f->n] = (struct func){.name = s->name, .file = s->file,
				   .prefix = amd_str_prefix(s->name)};
	return &f->v[f->n++];
}

/* func_of, a numbered frame's (records.h) remembered by its id: the
 * texts are hashed once a frame, not once a stack. */
static struct func *func_at(struct amd_pyspy_funcs *f, const struct amd_stack_frame *s)
{
	if (s->id && s->id <= f->cap_of_frame && f->of_frame[s->id - 1])
		return &f->v[f->of_frame[s->id - 1] - 1];
	struct func *fn = func_of(f, s);
	if (!fn || !s->id)
		return fn;
	if (amd_grow_zeroed(&f->of_frame, s->id, &f->cap_of_frame, sizeof *f->of_frame, 256) < 0)
		return NULL;
	f->of_frame[s->id - 1] = (uint32_t)(fn - f->v) + 1;
	return fn;
}

int amd_pyspy_funcs_count(struct amd_pyspy_funcs *f, const struct amd_stack_rec *r)
{
	uint64_t stamp = ++f->stacks;
	struct func *fn = NULL;
	for (size_t i = 0; i < r->depth; i++) {
		if (!(fn = func_at(f, &r->frames[i])))
			return -1;
		if (fn->stamp != stamp) {
			fn->stamp = stamp;
			fn->total += r->seconds;
		}
	}
	if (fn)
		fn->self += r->seconds;
	return 0;
}

static int cmp_func(const void *x, const void *y)
{
	const struct func *a = x, *b = y;
	if (a->prefix != b->prefix)
		return a->prefix < b->prefix ? -1 : 1;
	int c = strcmp(a->name, b->name);
	if (c || a->file == b->file)
		return c;
	return !a->file ? -1 : !b->file ? 1 : strcmp(a->file, b->file);
}

/* x seconds in ns, rounded half away from zero. */
static int64_t round_ns(double s)
{
	double r = s * 1e9;
	return r < 0 ? -(int64_t)(-r + 0.5) : (int64_t)(r + 0.5);
}

int amd_pyspy_funcs_emit(struct amd_pyspy_funcs *f, struct amd_sink *sink, struct amd_err *err)
{
	if (!sink->region)
		return 0;
	amd_hmap_free(&f->ix); /* the places move */
	free(f->of_frame);
	f->of_frame = NULL;
	f->cap_of_frame = 0;
	qsort(f->v, f->n, sizeof *f->v, cmp_func);
	for (size_t i = 0; i < f->n; i++) {
		struct amd_region_rec r = {
			.name = f->v[i].name, .kind = AMD_REGION_FUNCTION, .profiler = "py-spy",
			.file = f->v[i].file, .rank = -1, .device = -1, .calls = -1,
			.prim_calls = -1, .self_ns = round_ns(f->v[i].self),
			.total_ns = round_ns(f->v[i].total), .bytes = -1,
		};
		if (sink->region(sink, &r, err) < 0)
			return -1;
	}
	f->n = 0;
	return 0;
}
