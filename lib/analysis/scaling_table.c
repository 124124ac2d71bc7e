/* scaling_table.c — the tables and sentences of a strategy's scaling
 * model (scaling_table.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scaling_table.h"

/* "61% [48, 70]" from a share prediction. */
static const char *share_cell(char *b, size_t n, const struct amd_scaling_pred *p)
{
	if (!isfinite(p->value))
		return AMD_CELL_NONE;
	if (isfinite(p->lo) && isfinite(p->hi))
		snprintf(b, n, "%.0f%% [%.0f, %.0f]", 100 * p->value, 100 * p->lo, 100 * p->hi);
	else
		snprintf(b, n, "%.0f%%", 100 * p->value);
	return b;
}

/* "1.23 [1.10, 1.40]" (a value with its interval, in unit scale). */
static const char *pred_cell(char *b, size_t n, const struct amd_scaling_pred *p, double scale)
{
	char v[32], lo[32], hi[32];
	if (!isfinite(p->value))
		return AMD_CELL_NONE;
	amd_cell_sig(v, sizeof v, p->value * scale);
	if (isfinite(p->lo) && isfinite(p->hi))
		snprintf(b, n, "%s [%s, %s]", v, amd_cell_sig(lo, sizeof lo, p->lo * scale),
			 amd_cell_sig(hi, sizeof hi, p->hi * scale));
	else
		snprintf(b, n, "%s", v);
	return b;
}

struct amd_table *amd_scaling_region_table(const struct amd_scaling_strategy *s, size_t top)
{
	double mx = s->ns[s->nn - 1];
	char h3[32], h4[32], h5[32];
	snprintf(h3, sizeof h3, "share n=%g", mx);
	snprintf(h4, sizeof h4, "n=%g", 2 * mx);
	snprintf(h5, sizeof h5, "n=%g", 4 * mx);
	const char *const head[] = { "region", "kind", "model t(n), s/step", "growth", h3, h4, h5,
				     "overtakes at n" };
	struct amd_table *t = amd_table_new(8, head);
	for (size_t c = 4; c < 8; c++)
		amd_table_right(t, c);
	if (t)
		t->elastic = 0;
	size_t k = top && top < s->nregions ? top : s->nregions;
	for (size_t i = 0; i < k; i++) {
		const struct amd_region_model *r = &s->regions[i];
		char model[160], sh[32], a[48], b[48], cx[32];
		amd_rfit_model_text(&r->fit, model, sizeof model);
		const char *row[] = { r->name, r->kind, model, r->growth,
				      amd_cell_pct(sh, sizeof sh, "%.0f%%", r->share_max_n),
				      share_cell(a, sizeof a, amd_region_model_share(r, 2 * mx)),
				      share_cell(b, sizeof b, amd_region_model_share(r, 4 * mx)),
				      amd_cell(cx, sizeof cx, "%.3g", r->crossover_n) };
		amd_table_add(t, row);
	}
	amd_table_note(t, "model chosen by %s with an F test (p < 0.05) per term; shares of the"
		       " step (measured at n=%g, predicted from the sum of the region models);"
		       " [95%% intervals] by bootstrap", AMD_RFIT_CRITERION, mx);
	return t;
}

struct amd_table *amd_scaling_whole_table(const struct amd_scaling_strategy *s)
{
	const char *const head[] = { "n", "", "step ms", "epoch s", "efficiency", "Amdahl s",
				     "USL s" };
	struct amd_table *t = amd_table_new(7, head);
	for (size_t c = 0; c < 7; c++)
		if (c != 1)
			amd_table_right(t, c);
	int any = 0;
	for (size_t i = 0; i < s->nwhole; i++) {
		const struct amd_scaling_whole *w = &s->whole[i];
		int measured = w->measured;
		char n[16], st[64], ep[64], ef[64], am[32], us[32];
		snprintf(n, sizeof n, "%g", w->n);
		struct amd_scaling_pred eff = { w->n, w->efficiency.value * 100,
			w->efficiency.lo * 100, w->efficiency.hi * 100 };
		const char *row[] = { n, measured ? "measured" : w->disagree ? "predicted *" : "predicted",
				      pred_cell(st, sizeof st, &w->step, 1e3),
				      pred_cell(ep, sizeof ep, &w->epoch, 1),
				      pred_cell(ef, sizeof ef, &eff, 1),
				      amd_cell_sig(am, sizeof am, w->amdahl_epoch),
				      amd_cell_sig(us, sizeof us, w->usl_epoch) };
		amd_table_add(t, row);
		any |= w->disagree && !measured;
	}
	amd_table_note(t, "measured rows: the profiled step time (mean over the traces), the epoch"
		       " time and efficiency %% `amdahl stats` prints [its intervals]; predicted rows:"
		       " the times measured at the largest measured n below, scaled by the sum of the"
		       " region models [95%% prediction intervals]");
	if (any)
		amd_table_note(t, "* the Amdahl or USL fit falls outside the region models' interval");
	return t;
}

/* Appends printf text to buf at *w; -1 when it did not fit. */
static int put(char *buf, size_t n, size_t *w, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int put(char *buf, size_t n, size_t *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *w, n - *w, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= n - *w)
		return -1;
	*w += (size_t)k;
	return 0;
}

int amd_scaling_region_finding(const struct amd_scaling_strategy *s, size_t i, char *buf,
				size_t n)
{
	const struct amd_region_model *r = &s->regions[i];
	const struct amd_scaling_pred *p = amd_region_model_share(r, s->target);
	char sh[48];
	size_t w = 0;
	buf[0] = '\0';
	if (!isfinite(r->share_max_n) || !p)
		return 0;
	int rc = put(buf, n, &w, "At n = %g, %s (%s, %s) is predicted to take %s of the step, %s %.0f%%"
		     " at n = %g", p->n, r->name, r->kind, r->growth, share_cell(sh, sizeof sh, p),
		     p->value >= r->share_max_n ? "up from" : "down from", 100 * r->share_max_n,
		     s->ns[s->nn - 1]);
	if (rc == 0 && isfinite(r->crossover_n))
		rc = put(buf, n, &w, "; it overtakes the work that shrinks at n ≈ %.3g", r->crossover_n);
	return rc == 0 ? put(buf, n, &w, ".") : -1;
}

int amd_scaling_whole_finding(const struct amd_scaling_strategy *s, char *buf, size_t n)
{
	size_t w = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < s->nwhole; i++) {
		const struct amd_scaling_whole *h = &s->whole[i];
		if (h->n <= s->ns[s->nn - 1])
			continue;
		if (h->disagree)
			return put(buf, n, &w, "At n = %g the region models give an epoch time of %.3g s [%.3g,"
				   " %.3g]; the Amdahl fit says %.3g s and the USL fit %.3g s: the models"
				   " disagree.", h->n, h->epoch.value, h->epoch.lo, h->epoch.hi,
				   h->amdahl_epoch, h->usl_epoch);
		return put(buf, n, &w, "At n = %g the region models give an epoch time of %.3g s [%.3g,"
			   " %.3g], in line with the Amdahl and USL fits.", h->n, h->epoch.value,
			   h->epoch.lo, h->epoch.hi);
	}
	return 0;
}

/* How close "what to measure next" came to the narrowing realised in
 * simulation where it is printed (amd_rfit_narrowing_holds;
 * tests/eval/coverage_eval, make eval; docs/methods.md). */
#define NARROWING_ACCURACY "in simulation within 10% of the narrowing realised where, as here," \
	" every region's model has one term, with 3 or more runs per n and noise below 2.5% at 95%" \
	" confidence"

int amd_scaling_advice_finding(const struct amd_scaling_strategy *s, char *buf, size_t n)
{
	size_t w = 0;
	int rc = 0;
	buf[0] = '\0';
	if (s->nadvice && s->advice[0].why)
		rc = put(buf, n, &w, "What to measure next: %s. ", s->advice[0].why);
	else if (s->nadvice && isfinite(s->advice[0].narrowing))
		rc = put(buf, n, &w, "Measure n = %g next (%d repeat%s): the interval of the time at n = %g"
			 " narrows to %.0f%% of its width (%s). ", s->advice[0].n, s->advice[0].repeats,
			 s->advice[0].repeats == 1 ? "" : "s", s->target, 100 * s->advice[0].narrowing,
			 NARROWING_ACCURACY);
	if (rc == 0 && s->repeats_needed > 0)
		rc = put(buf, n, &w, "The run-to-run noise (CV %.1f%%) asks for %d repeats per n for a"
			 " mean within ±5%% at 95%%.", 100 * (isfinite(s->noise_cv) ? s->noise_cv
							   : s->step.fit.rel_noise), s->repeats_needed);
	return rc;
}

int amd_scaling_findings(const struct amd_scaling_strategy *s, size_t top, char *buf, size_t n)
{
	size_t w = 0, k = top && top < s->nregions ? top : s->nregions;
	char line[1024];
	buf[0] = '\0';
	for (size_t i = 0; i < k; i++)
		if (amd_scaling_region_finding(s, i, line, sizeof line) < 0
		    || (*line && put(buf, n, &w, "%s\n", line) < 0))
			return -1;
	if (amd_scaling_whole_finding(s, line, sizeof line) < 0 || (*line && put(buf, n, &w, "%s\n", line) < 0))
		return -1;
	if (amd_scaling_advice_finding(s, line, sizeof line) < 0 || (*line && put(buf, n, &w, "%s\n", line) < 0))
		return -1;
	return 0;
}

int amd_scaling_curve(const struct amd_region_model *r, double from, double to, double level,
		      double *x, double *y, double *lo, double *hi, size_t m)
{
	for (size_t k = 0; k < m; k++) {
		x[k] = from * pow(to / from, m > 1 ? (double)k / (double)(m - 1) : 0);
		y[k] = amd_rfit_value(&r->fit, x[k]);
		if (amd_rfit_interval(&r->fit, x[k], level, &lo[k], &hi[k]) < 0)
			return -1;
		if (!(y[k] > 0))
			y[k] = lo[k] = hi[k] = NAN;
		else if (!(lo[k] > 0))
			lo[k] = y[k] * 1e-3;
	}
	return 0;
}
