/* phase_pairs.c — the Nsight phase split per run next to the traces'
 * (phase_pairs.h): Nsight phases from amd_region_across (summed over the
 * run's devices and ranks), trace phases from amd_store_run_traces. */
#include "phase_pairs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "phase.h"
#include "regions.h"
#include "run_facts.h"

const int amd_pair_phases[AMD_PAIR_PHASES] = {AMD_PHASE_COMPUTE, AMD_PHASE_COMM,
					      AMD_PHASE_MEMORY, AMD_PHASE_OTHER, AMD_PHASE_IDLE};

static struct amd_phase_pair *find(struct amd_phase_pair *v, size_t n, int64_t run)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].run_id == run)
			return &v[i];
	return NULL;
}

/* Adds phase k's points (ns) to their runs, new runs appended. */
static int add_points(struct amd_phase_pair **v, size_t *n, size_t *cap, int k,
		      const struct amd_region_point *p, size_t np)
{
	for (size_t i = 0; i < np; i++) {
		struct amd_phase_pair *r = find(*v, *n, p[i].run_id);
		if (!r) {
			if (amd_grow(v, *n, cap, sizeof **v, 8) < 0)
				return -1;
			r = &(*v)[(*n)++];
			memset(r, 0, sizeof *r);
			r->run_id = p[i].run_id;
			r->n = p[i].n;
			r->repeat = p[i].repeat;
			r->run = strdup(p[i].run);
			r->strategy = p[i].strategy ? strdup(p[i].strategy) : NULL;
			if (!r->run || (p[i].strategy && !r->strategy))
				return -1;
		}
		r->nsys[k] += p[i].self_ns > 0 ? (double)p[i].self_ns : 0;
	}
	return 0;
}

static void to_shares(double *v)
{
	double sum = 0;
	for (int k = 0; k < AMD_PAIR_PHASES; k++)
		sum += v[k];
	for (int k = 0; k < AMD_PAIR_PHASES; k++)
		v[k] = sum > 0 ? v[k] / sum : NAN;
}

/* The run's trace phases over its traces' windows, summed over ranks. */
static int trace_shares(struct amd_store *st, struct amd_phase_pair *r, struct amd_err *err)
{
	struct amd_trace_row *t;
	size_t n;
	if (amd_store_run_traces(st, r->run_id, &t, &n, err) < 0)
		return -1;
	double window = 0, ph[AMD_PAIR_PHASES] = {0};
	for (size_t i = 0; i < n; i++) {
		if (!t[i].has_phases || t[i].end_ns <= t[i].start_ns)
			continue;
		window += (double)(t[i].end_ns - t[i].start_ns);
		for (int k = 0; k < AMD_PAIR_PHASES; k++)
			ph[k] += (double)t[i].phase_ns[amd_pair_phases[k]];
	}
	free(t);
	for (int k = 0; k < AMD_PAIR_PHASES; k++)
		r->trace[k] = window > 0 ? ph[k] / window : NAN;
	return 0;
}

static int by_config(const void *a, const void *b)
{
	const struct amd_phase_pair *x = a, *y = b;
	int c = strcmp(x->strategy ? x->strategy : "", y->strategy ? y->strategy : "");
	if (c)
		return c;
	if (x->n != y->n)
		return (x->n > y->n) - (x->n < y->n);
	return (x->repeat > y->repeat) - (x->repeat < y->repeat);
}

int amd_phase_pairs(struct amd_store *st, int64_t sweep_id, struct amd_phase_pair **out,
		    size_t *n, struct amd_err *err)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	for (int k = 0; k < AMD_PAIR_PHASES; k++) {
		if (amd_pair_phases[k] == AMD_PHASE_OTHER)
			continue; /* a GPU timeline has none */
		struct amd_region_point *p;
		size_t np;
		if (amd_region_across(st, sweep_id, amd_phase_names[amd_pair_phases[k]], "phase",
				      "nsys", &p, &np, err) < 0)
			goto fail;
		int rc = add_points(out, n, &cap, k, p, np);
		amd_region_points_free(p, np);
		if (rc < 0) {
			amd_fail(err, "%s: out of memory", amd_store_path(st));
			goto fail;
		}
	}
	for (size_t i = 0; i < *n; i++) {
		to_shares((*out)[i].nsys);
		if (trace_shares(st, &(*out)[i], err) < 0)
			goto fail;
	}
	if (*n)
		qsort(*out, *n, sizeof **out, by_config);
	return 0;
fail:
	amd_phase_pairs_free(*out, *n);
	*out = NULL;
	*n = 0;
	return -1;
}

void amd_phase_pairs_free(struct amd_phase_pair *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].run);
		free(p[i].strategy);
	}
	free(p);
}
