/* explain_text.c — the budget of explain.h for a person: a table per
 * strategy (a row per n, the shares in points of efficiency) and the
 * sentences under it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"

static const char *const words[AMD_EXPLAIN_NPARTS] = {
	"data transfer", "waiting at collectives", "imbalance (extra work on late ranks)",
	"compute that does not shrink", "idle time", "other",
};

/* v as points ("21.3"), with its interval when it has one. */
static const char *points_cell(char *b, size_t n, const struct amd_explain_value *v)
{
	if (!isfinite(v->value))
		return AMD_CELL_NONE;
	if (v->has_ci)
		snprintf(b, n, "%.1f [%.1f, %.1f]", v->value * 100, v->lo * 100, v->hi * 100);
	else
		snprintf(b, n, "%.1f", v->value * 100);
	return b;
}

static void stragglers_cell(char *b, size_t n, const struct amd_explain_point *p)
{
	size_t used = 0;
	b[0] = 0;
	for (size_t i = 0; i < p->nranks && used + 1 < n; i++)
		if (p->ranks[i].straggler)
			used += (size_t)snprintf(b + used, n - used, "%s%d", used ? ", " : "rank ",
						 p->ranks[i].rank);
	if (!b[0])
		snprintf(b, n, "none");
}

struct amd_table *amd_explain_table(const struct amd_explain_strategy *s)
{
	static const char *const head[] = {
		"n", "runs", "E traces", "E epoch", "communication", "sync_wait", "imbalance",
		"compute_growth", "idle", "other", "stragglers",
	};
	struct amd_table *t = amd_table_new(11, head);
	for (size_t c = 0; c < 10; c++)
		amd_table_right(t, c);
	for (size_t i = 0; i < s->npoints; i++) {
		const struct amd_explain_point *p = &s->points[i];
		char b[13][64];
		snprintf(b[0], sizeof b[0], "%d", p->n);
		snprintf(b[1], sizeof b[1], "%zu", p->runs);
		const char *cells[11] = {b[0], b[1], amd_cell_pct(b[2], 64, "%.1f%%", p->efficiency.value),
					 amd_cell_pct(b[3], 64, "%.1f%%", p->epoch_efficiency)};
		for (int c = 0; c < AMD_EXPLAIN_NPARTS; c++)
			cells[4 + c] = points_cell(b[4 + c], 64, &p->share[c]);
		stragglers_cell(b[10], 64, p);
		cells[10] = b[10];
		amd_table_add(t, cells);
	}
	amd_table_note(t, "shares of the lost efficiency 1 - E in points of the total rank-time"
		       " per traced step, against n = %d; they add up to 100 - E", s->base_n);
	return t;
}

/* The named stragglers of p in a clause, or "". */
static void straggler_clause(const struct amd_explain_point *p, char *b, size_t n)
{
	size_t used = 0;
	b[0] = 0;
	for (size_t i = 0; i < p->nranks && used + 1 < n; i++) {
		const struct amd_explain_rank *r = &p->ranks[i];
		if (!r->straggler)
			continue;
		used += (size_t)snprintf(b + used, n - used,
			"%s rank %d, which arrives last at %.0f%% of %lld collectives (Holm p %.2g)",
			used ? " and" : " for", r->rank, r->last_share.value * 100,
			(long long)r->instances, r->p_holm);
	}
}

/* " (most in A 12.3, B 2.1)": compute_growth's largest regions (at most
 * 3 of 0.05 points or more; "yet growing:" when the whole shrank); the
 * characters written. */
static size_t regions_clause(const struct amd_explain_point *p, char *b, size_t n)
{
	size_t used = 0;
	const char *lead = p->share[AMD_EXPLAIN_GROWTH].value > 0 ? " (most in " : " (yet growing: ";
	for (size_t i = 0; i < p->nregions && i < 3 && used + 1 < n; i++)
		if (p->regions[i].share * 100 >= 0.05)
			used += (size_t)snprintf(b + used, n - used, "%s%s %.1f", used ? ", " : lead,
						 p->regions[i].name, p->regions[i].share * 100);
	if (used && used + 1 < n)
		used += (size_t)snprintf(b + used, n - used, ")");
	return used < n ? used : n - 1;
}

void amd_explain_sentences(const struct amd_explain_point *p, char *buf, size_t n)
{
	char who[512];
	double lost = (1 - p->efficiency.value) * 100;
	size_t used = lost >= 0 ? (size_t)snprintf(buf, n, "At n = %d, %.1f of the 100 points are lost:",
						   p->n, lost)
				: (size_t)snprintf(buf, n, "At n = %d, the traced steps scale %.1f points"
						   " better than linear (a negative share is a gain):",
						   p->n, -lost);
	straggler_clause(p, who, sizeof who);
	for (int c = 0; c < AMD_EXPLAIN_NPARTS && used + 1 < n; c++) {
		double v = p->share[c].value * 100;
		if (c == AMD_EXPLAIN_OTHER && fabs(v) < 0.05)
			continue;
		used += (size_t)snprintf(buf + used, n - used, "%s %.1f to %s", c ? "," : "", v, words[c]);
		if (c == AMD_EXPLAIN_COMM && p->top_collective[0] && used + 1 < n)
			used += (size_t)snprintf(buf + used, n - used, " (most in %s)", p->top_collective);
		if (c == AMD_EXPLAIN_GROWTH && used + 1 < n)
			used += regions_clause(p, buf + used, n - used);
		if (c == AMD_EXPLAIN_WAIT && who[0] && used + 1 < n)
			used += (size_t)snprintf(buf + used, n - used, ",%s", who);
	}
	if (used + 1 < n)
		used += (size_t)snprintf(buf + used, n - used, ".");
	if (!p->clock_ok && used + 1 < n)
		snprintf(buf + used, n - used, " The ranks' clocks disagree: a rank ended a collective"
			 " %.3g ms before another began it, so waits are uncertain by that much.",
			 p->clock_skew_s * 1e3);
}
