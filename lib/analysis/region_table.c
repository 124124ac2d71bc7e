/* region_table.c — builds the table of top regions (region_table.h). */
#include "region_table.h"

#include <math.h>
#include <stdio.h>

#include "buf.h"

#define MAX_COLS 12

static const char *count_cell(char *buf, size_t n, int64_t v)
{
	if (v < 0)
		return AMD_CELL_NONE;
	snprintf(buf, n, "%lld", (long long)v);
	return buf;
}

static const char *ms_cell(char *buf, size_t n, int64_t ns)
{
	return ns < 0 ? AMD_CELL_NONE : amd_cell(buf, n, "%.3f", (double)ns / 1e6);
}

/* calls, with the primitive (non-recursive) calls after a slash when
 * they differ, as pstats prints them */
static const char *calls_cell(char *buf, size_t n, const struct amd_region_row *r)
{
	if (r->calls >= 0 && r->prim_calls >= 0 && r->prim_calls != r->calls) {
		snprintf(buf, n, "%lld/%lld", (long long)r->calls, (long long)r->prim_calls);
		return buf;
	}
	return count_cell(buf, n, r->calls);
}

struct amd_table *amd_region_table(const struct amd_region_list *l, int sweep)
{
	const char *run_head[] = {"rank", "self ms", "share", "total ms", "calls", "bytes",
				  "kind", "profiler", "name"};
	const char *sweep_head[] = {"strategy", "n", "runs", "self ms", "share", "total ms",
				    "calls", "bytes", "kind", "profiler", "name"};
	size_t nc = sweep ? 11 : 9, first = sweep ? 1 : 0;
	struct amd_table *t = amd_table_new(nc, sweep ? sweep_head : run_head);
	for (size_t c = first; c + 3 < nc; c++)
		amd_table_right(t, c);
	if (t)
		t->elastic = (int)nc - 1;
	for (size_t i = 0; i < l->n; i++) {
		const struct amd_region_row *r = &l->v[i];
		char b[8][48];
		const char *cells[MAX_COLS];
		size_t k = 0;
		if (sweep) {
			cells[k++] = r->strategy ? r->strategy : AMD_CELL_NONE;
			cells[k++] = count_cell(b[0], 48, r->n);
			cells[k++] = count_cell(b[1], 48, r->runs);
		} else {
			cells[k++] = count_cell(b[1], 48, r->rank);
		}
		cells[k++] = ms_cell(b[2], 48, r->self_ns);
		cells[k++] = amd_cell_pct(b[3], 48, "%.1f%%", r->share);
		cells[k++] = ms_cell(b[4], 48, r->total_ns);
		cells[k++] = calls_cell(b[5], 48, r);
		cells[k++] = count_cell(b[6], 48, r->bytes);
		cells[k++] = r->kind;
		cells[k++] = r->profiler;
		struct amd_buf name = {0};
		if (r->file && r->line > 0)
			amd_buf_printf(&name, "%s (%s:%d)", r->name, r->file, r->line);
		else if (r->file)
			amd_buf_printf(&name, "%s (%s)", r->name, r->file);
		if (r->file && !name.data && t)
			t->failed = 1; /* out of memory: never a name without its place */
		cells[k++] = name.data ? name.data : r->name;
		amd_table_add(t, cells);
		amd_buf_free(&name);
	}
	return t;
}
