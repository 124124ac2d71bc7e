/* scaling_axis.c — the region rows of a weak-scaling sweep on a size
 * parameter's value (scaling_axis.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scaling_axis.h"
#include "sweep_keys.h"
#include "analysis_run.h"
#include "runs.h"
#include "selector.h"

struct run_x {
	int64_t id;
	int x;
};

static int cmp_run_x(const void *a, const void *b)
{
	int64_t x = ((const struct run_x *)a)->id, y = ((const struct run_x *)b)->id;
	return (x > y) - (x < y);
}

/* By strategy, then n, repeat, run and trace (k: those four). */
static int cmp_place(const char *s1, const long long *k1, const char *s2, const long long *k2)
{
	int c = strcmp(s1, s2);
	for (int i = 0; !c && i < 4; i++)
		if (k1[i] != k2[i])
			c = k1[i] < k2[i] ? -1 : 1;
	return c;
}

static int cmp_row(const void *a, const void *b)
{
	const struct amd_region_time *x = a, *y = b;
	long long p[4] = { x->n, x->repeat, x->run_id, x->trace_id };
	long long q[4] = { y->n, y->repeat, y->run_id, y->trace_id };
	return cmp_place(x->strategy, p, y->strategy, q);
}

static int cmp_trace(const void *a, const void *b)
{
	const struct amd_region_trace *x = a, *y = b;
	long long p[4] = { x->n, x->repeat, x->run_id, x->trace_id };
	long long q[4] = { y->n, y->repeat, y->run_id, y->trace_id };
	return cmp_place(x->strategy, p, y->strategy, q);
}

/* The axis value of every run of sweep, sorted by run id, in *out. */
static int runs_on_axis(struct amd_store *st, const char *sweep, const char *axis,
			struct run_x **out, size_t *n, struct amd_err *err)
{
	struct amd_run_view *v;
	int rc = sweep && amd_store_selector_is(st, sweep) ? amd_select_runs(st, sweep, &v, n, err)
						 : amd_runs_list(st, sweep, &v, n, err);
	if (rc < 0)
		return -1;
	*out = malloc((*n ? *n : 1) * sizeof **out);
	if (!*out)
		rc = amd_fail(err, "scaling: out of memory");
	for (size_t i = 0; rc == 0 && i < *n; i++) {
		double x = NAN;
		rc = amd_run_axis_value(st, &v[i], axis, &x, err);
		(*out)[i] = (struct run_x){ v[i].id, isfinite(x) && x == floor(x) && x >= 1
						     && x <= (1 << 24) ? (int)x : 0 };
	}
	amd_runs_free(v, *n);
	if (rc == 0)
		qsort(*out, *n, sizeof **out, cmp_run_x);
	return rc;
}

/* Run run_id's value in rx[0..n) (0 when it has none). */
static int axis_of(const struct run_x *rx, size_t n, long long run_id)
{
	struct run_x key = { run_id, 0 };
	const struct run_x *f = bsearch(&key, rx, n, sizeof *rx, cmp_run_x);
	return f ? f->x : 0;
}

/* A run without a whole value of axis: a param no run has (a misspelt
 * --axis) is named with the closest params, else the run. */
static int no_axis_value(struct amd_store *st, const char *sweep, const char *axis,
			 long long run_id, struct amd_err *err)
{
	const char *in = sweep && amd_store_selector_is(st, sweep) ? NULL : sweep;
	if (amd_keys_require(st, in, AMD_KEY_PARAM, axis, err) < 0)
		return -1;
	return amd_fail(err, "%s: run %lld: param %s is not a whole number in 1..2^24",
			amd_store_path(st), run_id, axis);
}

int amd_scaling_axis_rows(struct amd_store *st, const char *sweep, const char *axis,
			  struct amd_region_set *set, struct amd_err *err)
{
	struct amd_region_time *rows = set->rows;
	size_t m = set->nrows;
	struct run_x *rx = NULL;
	size_t n = 0;
	if (runs_on_axis(st, sweep, axis, &rx, &n, err) < 0) {
		free(rx);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < m; i++) {
		rows[i].n = axis_of(rx, n, rows[i].run_id);
		if (rows[i].n == 0)
			rc = no_axis_value(st, sweep, axis, rows[i].run_id, err);
	}
	for (size_t i = 0; rc == 0 && i < set->ntraces; i++)
		set->traces[i].n = axis_of(rx, n, set->traces[i].run_id); /* a row's run: not 0 */
	free(rx);
	if (rc == 0 && m > 1)
		qsort(rows, m, sizeof *rows, cmp_row);
	if (rc == 0 && set->ntraces > 1)
		qsort(set->traces, set->ntraces, sizeof *set->traces, cmp_trace);
	return rc;
}
