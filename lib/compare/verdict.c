/* verdict.c — the gate's verdict on a comparison and its sentence; the
 * rule is in verdict.h. */
#include "verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compare_table.h"

/* One row per result: its JSON word, the gate's word, report.json's old name. */
static const struct {
	const char *json, *word, *name;
} results[] = {
	[AMD_GATE_PASS] = {"pass", "PASS", "pass"},
	[AMD_GATE_REGRESSION] = {"regression", "FAIL", "regression"},
	[AMD_GATE_INSUFFICIENT] = {"insufficient_data", "INSUFFICIENT DATA", "insufficient"},
};


int amd_gate_row_fails(const struct amd_cmp_row *r, const struct amd_gate_opts *o)
{
	int require_all = o && o->require_all, fallback = o && o->fallback_ci;
	return r->gated && (r->verdict == AMD_REGRESSION ||
			    (require_all && r->verdict == AMD_MISSING) ||
			    (fallback && r->likely == 1));
}

/* Text appended into a fixed buffer; once full, the rest is dropped. */
struct text {
	char *buf;
	size_t n, k;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
	if (t->k >= t->n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(t->buf + t->k, t->n - t->k, fmt, ap);
	va_end(ap);
	if (w > 0)
		t->k += (size_t)w;
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* A row that decides the result, in a clause. */
static void row_brief(const struct amd_cmp_row *r, char *buf, size_t n)
{
	char cfg[160], ratio[96];
	amd_cmp_config(r, cfg, sizeof cfg);
	amd_cmp_ratio(r, "–", ratio, sizeof ratio);
	snprintf(buf, n, "%s %s ratio %s (%s is better), Holm p %.3g", r->metric, cfg, ratio,
		 amd_direction_name(r->dir), r->p_adj);
}

/* The regressions (at most three by name) and, with require_all, the
 * gated configurations on one side only. */
static void failures(struct text *t, const struct amd_comparison *c, int require_all)
{
	if (c->regressions) {
		put(t, "%zu regression%s", c->regressions, plural(c->regressions));
		for (size_t i = 0, shown = 0; i < c->nrows && t->k < t->n; i++) {
			const struct amd_cmp_row *r = &c->rows[i];
			if (!r->gated || r->verdict != AMD_REGRESSION)
				continue;
			if (shown == 3) {
				put(t, "; and more (see the comparison page)");
				break;
			}
			char row[400];
			row_brief(r, row, sizeof row);
			put(t, "%s%s", shown++ ? "; " : " — ", row);
		}
	}
	if (require_all && c->missing)
		put(t, "%s%zu on one side only (a failure with --require-all)",
		    c->regressions ? "; " : "", c->missing);
	put(t, ".");
}

static void insufficient(struct text *t, const struct amd_comparison *c)
{
	const char *why = "";
	for (size_t i = 0; i < c->nrows && !*why; i++)
		if (c->rows[i].gated && c->rows[i].verdict == AMD_INSUFFICIENT)
			why = c->rows[i].note;
	put(t, "%zu cannot reach significance with their runs (%s)", c->insufficient, why);
	if (c->insufficient + c->missing < c->ngated)
		put(t, "; the other %zu: no regression, %zu improvement%s",
		    c->ngated - c->insufficient - c->missing, c->improvements, plural(c->improvements));
	put(t, ".");
}

/* The count of likely regressions (the rows are in the noise notes). */
static void likely(struct text *t, const struct amd_comparison *c, const char *what)
{
	put(t, " %zu likely regression%s: interval wholly past the threshold, too few runs to"
	    " confirm (%s).", c->likely_regressions, plural(c->likely_regressions), what);
}

static void sentence(const struct amd_comparison *c, int require_all, struct amd_gate_verdict *v)
{
	struct text t = {v->sentence, sizeof v->sentence, 0};
	char cand[512], base[512];
	put(&t, "gate: %s: %s against baseline %s, %zu gated row%s: ", v->word,
	    amd_cmp_side(c->cand_sweep, c->cand_strategy, cand, sizeof cand),
	    amd_cmp_side(c->base_sweep, c->base_strategy, base, sizeof base), c->ngated,
	    plural(c->ngated));
	if (v->result == AMD_GATE_REGRESSION && c->regressions + (require_all ? c->missing : 0))
		failures(&t, c, require_all);
	else if (v->result == AMD_GATE_REGRESSION)
		likely(&t, c, "failing with --fallback ci");
	else if (v->result == AMD_GATE_INSUFFICIENT)
		insufficient(&t, c);
	if (v->result == AMD_GATE_INSUFFICIENT && c->likely_regressions)
		likely(&t, c, "exit 3 unless --fallback ci");
	else
		put(&t, "no regression; %zu improvement%s, %zu without a significant change "
			"past the threshold.",
		    c->improvements, plural(c->improvements),
		    c->ngated - c->improvements - c->missing);
}

void amd_gate_verdict(const struct amd_comparison *c, const struct amd_gate_opts *o,
		      struct amd_gate_verdict *v)
{
	int require_all = o && o->require_all;
	v->failing = 0;
	for (size_t i = 0; i < c->nrows; i++)
		v->failing += amd_gate_row_fails(&c->rows[i], o) != 0;
	if (v->failing) {
		v->result = AMD_GATE_REGRESSION;
		v->exit_code = AMD_GATE_EXIT_REGRESSION;
		v->word = results[AMD_GATE_REGRESSION].word;
		v->name = results[AMD_GATE_REGRESSION].name;
	} else if (c->insufficient) {
		v->result = AMD_GATE_INSUFFICIENT;
		v->exit_code = AMD_GATE_EXIT_INSUFFICIENT;
		v->word = results[AMD_GATE_INSUFFICIENT].word;
		v->name = results[AMD_GATE_INSUFFICIENT].name;
	} else {
		v->result = AMD_GATE_PASS;
		v->exit_code = AMD_GATE_EXIT_PASS;
		v->word = results[AMD_GATE_PASS].word;
		v->name = results[AMD_GATE_PASS].name;
	}
	sentence(c, require_all, v);
}

const char *amd_gate_result_json(enum amd_gate_result r)
{
	return results[r].json;
}

const char *amd_gate_result_shown(const char *json, int terminal)
{
	for (size_t i = 0; json && i < sizeof results / sizeof *results; i++)
		if (strcmp(json, results[i].json) == 0)
			return terminal ? results[i].word : results[i].name;
	return json;
}
