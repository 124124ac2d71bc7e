/* trace_links.c — the traces of the sweep's runs for the Perfetto UI
 * (trace_links.h): each run's traces from the store (amd_trace_list, as
 * `amdahl trace show` lists them), ranks in order. */
#include "trace_links.h"

#include <stdio.h>
#include <stdlib.h>

#include "traces.h"

/* The rows of run v's traces added to t (up to the cap; *more set when
 * some are left out); -1 on error. */
static int run_rows(struct amd_store *st, const struct amd_run_value *v, struct amd_table *t,
		    int *more, struct amd_err *err)
{
	int64_t run_id = 0;
	char *label = NULL;
	struct amd_trace_view *tv = NULL;
	size_t n = 0;
	if (amd_trace_list(st, v->ext_id, -1, &run_id, &label, &tv, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (t->nrows >= REPORT_TRACE_ROWS) {
			*more = 1;
			break;
		}
		char run[300], rank[24];
		snprintf(run, sizeof run, "%s (%.8s)", v->name ? v->name : "", v->ext_id);
		if (tv[i].rank >= 0)
			snprintf(rank, sizeof rank, "%d", tv[i].rank);
		else
			snprintf(rank, sizeof rank, "?");
		const char *row[] = {run, rank, tv[i].path ? tv[i].path : ""};
		amd_table_add(t, row);
	}
	amd_trace_views_free(tv, n);
	free(label);
	return 0;
}

struct amd_table *report_trace_table(struct amd_store *st, const struct amd_sweep_stats *s,
				     int *more, struct amd_err *err)
{
	const char *h[] = {"run", "rank", "trace file (open it in the Perfetto UI)"};
	struct amd_table *t = amd_table_new(3, h);
	*more = 0;
	if (!t) {
		amd_fail(err, "traces table: out of memory");
		return NULL;
	}
	amd_table_right(t, 1);
	for (size_t i = 0; i < s->nstrategies; i++)
		for (size_t k = 0; k < s->strategies[i].npoints; k++) {
			const struct amd_point_stats *p = &s->strategies[i].points[k];
			for (size_t r = 0; r < p->nruns && !*more; r++) /* no query past the cap */
				if (run_rows(st, &p->runs[r], t, more, err) < 0) {
					amd_table_free(t);
					return NULL;
				}
		}
	return t;
}
