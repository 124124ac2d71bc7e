/* region_fit_eval.c — using a fitted region model (region_fit.h): its
 * value, its bootstrap draws and prediction interval at any n, its growth
 * class, and the model as text. The search is region_fit.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "region_fit.h"

double amd_rfit_value(const struct amd_rfit *f, double n)
{
	double v = f->c0;
	for (int t = 0; t < f->nterms; t++)
		v += f->term[t].coef * amd_rfit_basis(n, f->term[t].i, f->term[t].j);
	return v;
}

double amd_rfit_draw(const struct amd_rfit *f, int b, double n, int noisy)
{
	const double *c = f->draws + (size_t)b * AMD_RFIT_STRIDE;
	const struct amd_rmodel *md = &f->plausible[b % f->nplausible];
	double v = c[0];
	for (int t = 0; t < md->nt; t++)
		v += c[t + 1] * amd_rfit_basis(n, md->i[t], md->j[t]);
	return noisy ? v * (1 + f->noise[b]) : v;
}

int amd_rfit_interval(const struct amd_rfit *f, double n, double level, double *lo,
		      double *hi)
{
	*lo = *hi = NAN;
	if (f->B == 0)
		return 0;
	double *v = malloc((size_t)f->B * sizeof *v);
	if (!v)
		return -1;
	for (int b = 0; b < f->B; b++)
		v[b] = amd_rfit_draw(f, b, n, 1);
	amd_percentile_interval(v, (size_t)f->B, level, lo, hi);
	free(v);
	return 0;
}

const char *amd_rfit_growth(const struct amd_rfit *f, double n)
{
	if (f->nterms == 0)
		return "constant";
	double h = n * 1e-3, d = amd_rfit_value(f, n + h) - amd_rfit_value(f, n - h);
	return d > 0 ? "grows" : d < 0 ? "shrinks" : "constant";
}

/* The exponent i as text: "-1/2", "4/3", "2". */
static const char *exponent_text(double i, char *b, size_t n)
{
	static const struct { double v; const char *s; } frac[] = {
		{ -0.5, "-1/2" }, { 0.25, "1/4" }, { 1.0 / 3, "1/3" }, { 0.5, "1/2" },
		{ 2.0 / 3, "2/3" }, { 0.75, "3/4" }, { 1.25, "5/4" }, { 4.0 / 3, "4/3" },
		{ 1.5, "3/2" } };
	for (size_t k = 0; k < sizeof frac / sizeof frac[0]; k++)
		if (fabs(frac[k].v - i) < 1e-12)
			return frac[k].s;
	snprintf(b, n, "%g", i);
	return b;
}

void amd_rfit_model_text(const struct amd_rfit *f, char *buf, size_t n)
{
	int w = snprintf(buf, n, "%.3g", f->c0);
	for (int t = 0; t < f->nterms && w >= 0 && (size_t)w < n; t++) {
		const struct amd_rterm *r = &f->term[t];
		char e[32], pw[48] = "", lg[24] = "";
		if (r->i != 0)
			snprintf(pw, sizeof pw, r->i == 1 ? "·n" : "·n^(%s)", exponent_text(r->i, e, sizeof e));
		if (r->j)
			snprintf(lg, sizeof lg, r->j == 1 ? "·log2(n)" : "·log2(n)^%d", r->j);
		w += snprintf(buf + w, n - (size_t)w, " %s %.3g%s%s", r->coef < 0 ? "-" : "+",
			      fabs(r->coef), pw, lg);
	}
}
