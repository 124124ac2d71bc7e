/* fit_curves.c — model curves sampled in log n (see fit_curves.h). */
#include "fit_curves.h"

#include <math.h>

/* x[j] = b·(nmax/b)^(j/(m−1)), j = 0 … m−1. */
static void log_grid(double b, double nmax, double *x, size_t m)
{
	for (size_t j = 0; j < m; j++)
		x[j] = b * pow(nmax / b, (double)j / (double)(m - 1));
}

void amd_ideal_curve(double base, double nmax, double *x, double *y, size_t m)
{
	log_grid(base, nmax, x, m);
	for (size_t j = 0; j < m; j++)
		y[j] = x[j] / base;
}

int amd_amdahl_curve(const struct amd_strategy_stats *st, double nmax, int efficiency,
		     double *x, double *y, size_t m)
{
	if (!st->amdahl.ok || st->npoints < 2 || !(st->amdahl.serial_fraction >= 0) ||
	    st->amdahl.serial_fraction >= 1)
		return 0;
	double b = st->base_n;
	double tb = st->amdahl.a + st->amdahl.b / b;
	log_grid(b, nmax, x, m);
	for (size_t j = 0; j < m; j++) {
		double sp = tb / (st->amdahl.a + st->amdahl.b / x[j]);
		y[j] = efficiency ? sp * b / x[j] : sp;
	}
	return 1;
}

int amd_usl_curve(const struct amd_strategy_stats *st, double nmax, double *x, double *y,
		  size_t m)
{
	const struct amd_fit *u = &st->usl;
	if (!u->ok || st->npoints < 3 || !isfinite(u->alpha) || !isfinite(u->beta))
		return 0;
	double b = st->base_n;
	double xb = b / (1 + u->alpha * (b - 1) + u->beta * b * (b - 1));
	log_grid(b, nmax, x, m);
	for (size_t j = 0; j < m; j++) {
		y[j] = x[j] / (1 + u->alpha * (x[j] - 1) + u->beta * x[j] * (x[j] - 1)) / xb;
		if (!(y[j] > 0))
			y[j] = NAN;
	}
	return 1;
}
