/* limits_picker.c — report.html's picker of any region (limits_picker.h):
 * the JSON of every region of a strategy and the engine's chart of the
 * first. Values in ms as the chart draws them, to six significant
 * digits (as the page shows them); the band at REPORT_PICK_POINTS samples. */
#include "limits_picker.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "charts_limits.h"
#include "scaling_table.h"

/* v rounded to six significant digits (a finite number, else null). */
static cJSON *num6(double v)
{
	char b[40];
	if (!isfinite(v))
		return cJSON_CreateNull();
	snprintf(b, sizeof b, "%.6g", v);
	return cJSON_CreateNumber(strtod(b, NULL));
}

static cJSON *num(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* [a, b, c, d] of numbers made by f; NULL out of memory. */
static cJSON *row(cJSON *(*f)(double), const double *v, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; a && i < n; i++)
		if (!cJSON_AddItemToArray(a, f(v[i]))) {
			cJSON_Delete(a);
			return NULL;
		}
	return a;
}

static int add_rows(cJSON *o, const char *key, cJSON *(*f)(double), const double *v, size_t nrows,
		    int ncols)
{
	cJSON *a = cJSON_AddArrayToObject(o, key);
	for (size_t k = 0; a && k < nrows; k++)
		if (!cJSON_AddItemToArray(a, row(f, v + k * (size_t)ncols, ncols)))
			return -1;
	return a ? 0 : -1;
}

/* One region: name, kind, growth, model text, share at the largest n,
 * measured [n, ms], band [ms, lo, hi, level] at the curve's samples (n
 * from the smallest measured n to the target, evenly in log n: "band_n"
 * of the strategy) and predictions [n, ms, lo, hi, level]; level is what
 * the interval there covers (amd_rfit_interval_level: the asked level
 * inside the measured n, the simulated coverage of the regime beyond, as
 * scaling --json's ci.level and the engine's chart say). */
static cJSON *region_json(const struct amd_scaling_strategy *s, const struct amd_region_model *r,
			  double level)
{
	double x[REPORT_PICK_POINTS], y[REPORT_PICK_POINTS], lo[REPORT_PICK_POINTS],
		hi[REPORT_PICK_POINTS], rows[5 * (REPORT_PICK_POINTS > 64 ? REPORT_PICK_POINTS : 64)];
	char model[160];
	amd_rfit_model_text(&r->fit, model, sizeof model);
	cJSON *o = cJSON_CreateObject();
	int ok = o && cJSON_AddStringToObject(o, "name", r->name) &&
		 cJSON_AddStringToObject(o, "kind", r->kind ? r->kind : "") &&
		 cJSON_AddStringToObject(o, "growth", r->growth) &&
		 cJSON_AddStringToObject(o, "model", model) &&
		 cJSON_AddItemToObject(o, "share_max_n", num(r->share_max_n));
	size_t m = 0;
	for (size_t q = 0; q < s->nn && q < 64; q++)
		if (r->measured[q] > 0) {
			rows[2 * m] = s->ns[q];
			rows[2 * m + 1] = r->measured[q] * 1e3;
			m++;
		}
	ok = ok && add_rows(o, "measured", num6, rows, m, 2) == 0;
	ok = ok && amd_scaling_curve(r, s->ns[0], s->target, level, x, y, lo, hi, REPORT_PICK_POINTS) == 0;
	for (size_t k = 0; ok && k < REPORT_PICK_POINTS; k++) { /* x: the page computes it */
		/* the interval as the model gives it (amd_scaling_curve lifts a
		 * lower end of 0 off the log axis; the page cuts it at the axis) */
		ok = amd_rfit_interval(&r->fit, x[k], level, &lo[k], &hi[k]) == 0;
		double v[4] = {y[k] * 1e3, lo[k] * 1e3, hi[k] * 1e3,
			       amd_rfit_interval_level(&r->fit, x[k], level)};
		memcpy(rows + 4 * k, v, sizeof v);
	}
	ok = ok && add_rows(o, "band", num6, rows, REPORT_PICK_POINTS, 4) == 0;
	m = 0;
	for (size_t k = 0; ok && k < r->npred && k < 64; k++, m++) {
		double v[5] = {r->pred[k].n, r->pred[k].value * 1e3, r->pred[k].lo * 1e3,
			       r->pred[k].hi * 1e3, amd_rfit_interval_level(&r->fit, r->pred[k].n, level)};
		memcpy(rows + 5 * k, v, sizeof v);
	}
	ok = ok && add_rows(o, "predictions", num6, rows, m, 5) == 0;
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* The strategy's regions as JSON text safe inside <script>: every "<"
 * (only ever inside a string) written \u003c; NULL out of memory. */
static char *picker_json(const struct amd_scaling_strategy *s, double level, double ylo,
			 double yhi)
{
	cJSON *o = cJSON_CreateObject();
	int ok = o && cJSON_AddStringToObject(o, "strategy", s->strategy) &&
		 cJSON_AddNumberToObject(o, "level", level) &&
		 cJSON_AddNumberToObject(o, "target", s->target) &&
		 cJSON_AddNumberToObject(o, "max_n", s->ns[s->nn - 1]) &&
		 cJSON_AddNumberToObject(o, "ylo", ylo) && cJSON_AddNumberToObject(o, "yhi", yhi);
	double x[REPORT_PICK_POINTS], y[REPORT_PICK_POINTS], lo[REPORT_PICK_POINTS], hi[REPORT_PICK_POINTS];
	ok = ok && amd_scaling_curve(&s->regions[0], s->ns[0], s->target, level, x, y, lo, hi,
				     REPORT_PICK_POINTS) == 0 && add_rows(o, "band_n", num, x, 1, REPORT_PICK_POINTS) == 0;
	cJSON *a = ok ? cJSON_AddArrayToObject(o, "regions") : NULL;
	for (size_t i = 0; a && i < s->nregions; i++)
		if (!cJSON_AddItemToArray(a, region_json(s, &s->regions[i], level)))
			a = NULL;
	char *text = a ? cJSON_PrintUnformatted(o) : NULL;
	cJSON_Delete(o);
	size_t n = text ? strlen(text) : 0, lt = 0;
	for (size_t i = 0; i < n; i++)
		lt += text[i] == '<';
	char *safe = text ? malloc(n + 5 * lt + 1) : NULL;
	size_t k = 0;
	for (size_t i = 0; safe && i < n; i++)
		if (text[i] == '<') {
			memcpy(safe + k, "\\u003c", 6);
			k += 6;
		} else
			safe[k++] = text[i];
	if (safe)
		safe[k] = '\0';
	cJSON_free(text);
	return safe;
}

/* The largest region on axes that hold every region's measured means
 * and model (log–log, as the PDF's chart). */
static struct chart *picker_chart(const struct amd_scaling_strategy *s, double level, double ylo,
				  double yhi)
{
	char title[160];
	snprintf(title, sizeof title, "Any region's scaling: %s", *s->strategy ? s->strategy : "(no strategy)");
	struct chart *c = chart_new(CHART_XY, title, "n (world size)", "time per step per rank (ms)");
	chart_xscale(c, CHART_LOG2);
	chart_yscale(c, CHART_LOG2);
	if (ylo < yhi)
		chart_yrange(c, ylo, yhi, 0);
	report_limits_region(c, s, &s->regions[0], 0, level, ylo, yhi, 0); /* named below it */
	chart_subtitle(c, "one of %zu regions: measured (points), model and %.0f%% prediction band to n = %g",
		       s->nregions, level * 100, s->target);
	return c;
}

/* What the chart shows, in the words the page's script uses for any
 * region (templates/report.html, pickCaption). */
static char *picker_caption(const struct amd_scaling_strategy *s)
{
	const struct amd_region_model *r = &s->regions[0];
	char model[160], *text = NULL;
	amd_rfit_model_text(&r->fit, model, sizeof model);
	if (asprintf(&text, "Region 1 of %zu: %s (%s, %s), %.3g%% of the regions' time at n = %g; "
			    "model: %s s.", s->nregions, r->name, r->kind ? r->kind : "", r->growth,
		     r->share_max_n * 100, s->ns[s->nn - 1], model) < 0)
		return NULL;
	return text;
}

int report_limits_picker(struct report_chart *rc, const struct amd_scaling_strategy *s,
			 double level)
{
	double ylo, yhi;
	report_limits_yrange(s, s->nregions, &ylo, &yhi);
	rc->pick = picker_chart(s, level, ylo, yhi);
	rc->pick_json = picker_json(s, level, ylo, yhi);
	rc->pick_caption = picker_caption(s);
	return rc->pick && !chart_failed(rc->pick) && rc->pick_json && rc->pick_caption ? 0 : -1;
}
