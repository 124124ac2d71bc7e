/* trace_regions.c — a Kineto trace's regions (trace_regions.h): the
 * table of Kineto's categories and the region kind each stands for, and
 * the region rows of a trace summary's ops (category by category in the
 * table's order, each with its detail) and collectives (by name in byte
 * order), and
 * the categories whose ops a listing by self time leaves out
 * (trace_ops.h). */
#include "trace_regions.h"
#include "trace_ops.h"

#include <stdlib.h>
#include <string.h>

#define PROFILER "torch"

/* Kineto categories and the region kind each stands for; any other
 * category (cpu_op, Operator, …) is an operator. */
static const struct {
	const char *cat, *kind;
} cat_kinds[] = {
	{"kernel", AMD_REGION_KERNEL},        {"gpu_memcpy", AMD_REGION_MEMCPY},
	{"memcpy", AMD_REGION_MEMCPY},        {"gpu_memset", AMD_REGION_MEMSET},
	{"memset", AMD_REGION_MEMSET},        {"cuda_runtime", AMD_REGION_API},
	{"cuda_driver", AMD_REGION_API},      {"runtime", AMD_REGION_API},
	{"driver", AMD_REGION_API},           {"user_annotation", AMD_REGION_NVTX},
	{"gpu_user_annotation", AMD_REGION_NVTX}, {"python_function", AMD_REGION_FUNCTION},
	{"Trace", AMD_REGION_STEP}, /* "PyTorch Profiler (0)": the profiler's own span */
};
#define N_CAT_KINDS (sizeof cat_kinds / sizeof cat_kinds[0])

const char *const amd_trace_spanning_cats[] = {"Trace", "gpu_user_annotation", NULL};

/* cat's place in cat_kinds, N_CAT_KINDS for any other (or none). */
static size_t cat_place(const char *cat)
{
	size_t i = 0;
	while (cat && i < N_CAT_KINDS && strcmp(cat, cat_kinds[i].cat) != 0)
		i++;
	return cat ? i : N_CAT_KINDS;
}

/* The profiler's step annotations (ProfilerStep#N, written as user
 * annotations) are steps, not ranges of the user's code. */
static int is_profiler_step(const char *name)
{
	static const char step[] = "ProfilerStep#";
	return strncmp(name, step, sizeof step - 1) == 0 &&
	       name[sizeof step - 1] >= '0' && name[sizeof step - 1] <= '9';
}

const char *amd_trace_region_kind(const char *cat, const char *name)
{
	if (is_profiler_step(name))
		return AMD_REGION_STEP;
	size_t i = cat_place(cat);
	return i < N_CAT_KINDS ? cat_kinds[i].kind : AMD_REGION_OP;
}

static int region(struct amd_sink *sink, const struct amd_trace_summary *s, const char *name,
		  const char *kind, int64_t calls, int64_t self_ns, int64_t total_ns,
		  int64_t bytes, const struct amd_region_detail *detail, struct amd_err *err)
{
	struct amd_region_rec r = {
		.name = name, .kind = kind, .profiler = PROFILER, .rank = s->rank, .device = -1,
		.calls = calls, .prim_calls = calls, .self_ns = self_ns, .total_ns = total_ns,
		.bytes = bytes, .detail = detail,
	};
	return sink->region(sink, &r, err);
}

/* Every op, category by category in cat_kinds' order (then every other
 * category's), each with its detail: category, shortest and longest
 * call, and its place in the aggregator's order. The rows' order is the
 * one the sums over a sweep's regions (lib/store/region_join.c) take. */
static int emit_ops(const struct amd_trace_summary *s, struct amd_sink *sink,
		    struct amd_err *err)
{
	for (size_t k = 0; k <= N_CAT_KINDS; k++)
		for (size_t i = 0; i < s->n_ops; i++) {
			const struct amd_trace_op *o = &s->ops[i];
			struct amd_region_detail d = {o->cat, o->min_ns, o->max_ns, (int64_t)i + 1};
			if (cat_place(o->cat) == k &&
			    region(sink, s, o->name, amd_trace_region_kind(o->cat, o->name),
				   o->count, o->self_ns, o->total_ns, -1, &d, err) < 0)
				return -1;
		}
	return 0;
}

static int cmp_coll(const void *x, const void *y)
{
	const struct amd_trace_coll *a = *(const struct amd_trace_coll *const *)x;
	const struct amd_trace_coll *b = *(const struct amd_trace_coll *const *)y;
	int c = strcmp(a->name, b->name);
	return c ? c : a < b ? -1 : a > b;
}

/* One region per collective name: its calls, their time (self = total:
 * nothing nests in a collective) and the bytes of those that name them
 * (-1 when none does). */
static int emit_colls(const struct amd_trace_summary *s, struct amd_sink *sink,
		      const char *path, struct amd_err *err)
{
	const struct amd_trace_coll **v = malloc((s->n_colls ? s->n_colls : 1) * sizeof *v);
	if (!v)
		return amd_fail(err, "%s: out of memory", path);
	for (size_t i = 0; i < s->n_colls; i++)
		v[i] = &s->colls[i];
	qsort(v, s->n_colls, sizeof *v, cmp_coll);
	int rc = 0;
	for (size_t i = 0, j; i < s->n_colls && rc == 0; i = j) {
		int64_t ns = 0, bytes = -1, calls = 0;
		for (j = i; j < s->n_colls && strcmp(v[j]->name, v[i]->name) == 0; j++, calls++) {
			int64_t b = v[j]->bytes >= 0 ? v[j]->bytes : 0;
			if (__builtin_add_overflow(ns, v[j]->dur_ns, &ns) ||
			    (v[j]->bytes >= 0 &&
			     __builtin_add_overflow(bytes < 0 ? 0 : bytes, b, &bytes))) {
				rc = amd_fail(err, "%s: collective %s: its times or bytes add up "
						   "past int64", path, v[i]->name);
				break;
			}
		}
		if (rc == 0)
			rc = region(sink, s, v[i]->name,
				    is_profiler_step(v[i]->name) ? AMD_REGION_STEP
								 : AMD_REGION_COLLECTIVE,
				    calls, ns, ns, bytes, NULL, err);
	}
	free(v);
	return rc;
}

int amd_trace_emit_regions(const struct amd_trace_summary *s, struct amd_sink *sink,
			   const char *path, struct amd_err *err)
{
	if (!sink->region)
		return 0;
	return emit_ops(s, sink, err) < 0 ? -1 : emit_colls(s, sink, path, err);
}
