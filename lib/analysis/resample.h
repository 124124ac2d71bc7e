/* resample.h — a bootstrap resample laid out in ascending order without a
 * sort. Drawing n values of x with replacement and sorting them gives the
 * drawn indices' values in value order; counting the draws per index and
 * walking x's indices in value order gives the very same array, in O(n)
 * instead of O(n log n) — the bootstrap's resamples (2,000 per interval)
 * were most of compare's and stats' time at hundreds of runs. */
#ifndef AMD_RESAMPLE_H
#define AMD_RESAMPLE_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

/* x's finite values in value order, and room to count a resample's draws. */
struct amd_resample {
	const double *x;
	size_t n;      /* draws are of x[0 .. n-1], NaN and infinities included */
	size_t *order; /* the finite values' indices, ascending by value (ties by index) */
	size_t m;      /* their count */
	size_t *counts; /* n */
};

/* Prepares a resample of x's n values. -1 when out of memory, and when x
 * holds both -0 and +0: they compare equal, so a sort may lay them out in
 * either order and counting could not promise the same bits; the caller
 * then draws and sorts as before. */
int amd_resample_init(struct amd_resample *s, const double *x, size_t n);
void amd_resample_free(struct amd_resample *s);

/* Draws n indices as the sort-based bootstrap does (gsl_rng_uniform_int(r,
 * n) each, in turn) and writes the finite drawn values, ascending, to out
 * (room for n); returns their count. */
size_t amd_resample_draw(const struct amd_resample *s, const gsl_rng *r, double *out);

#endif
