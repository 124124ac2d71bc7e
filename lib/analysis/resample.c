/* resample.c — bootstrap resamples sorted by counting (resample.h). */
#include "resample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

/* Whether x holds a zero of each sign among its finite values. */
static int both_zeros(const double *x, size_t n)
{
	int neg = 0, pos = 0;
	for (size_t i = 0; i < n; i++)
		if (x[i] == 0)
			*(signbit(x[i]) ? &neg : &pos) = 1;
	return neg && pos;
}

int amd_resample_init(struct amd_resample *s, const double *x, size_t n)
{
	memset(s, 0, sizeof *s);
	if (both_zeros(x, n))
		return -1;
	s->x = x;
	s->n = n;
	s->order = malloc((n ? n : 1) * sizeof *s->order);
	s->counts = malloc((n ? n : 1) * sizeof *s->counts);
	if (!s->order || !s->counts) {
		amd_resample_free(s);
		return -1;
	}
	struct amd_ranked *rk = malloc((n ? n : 1) * sizeof *rk);
	if (!rk) {
		amd_resample_free(s);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			rk[s->m++] = (struct amd_ranked){x[i], i};
	qsort(rk, s->m, sizeof *rk, amd_ranked_cmp);
	for (size_t k = 0; k < s->m; k++)
		s->order[k] = rk[k].i;
	free(rk);
	return 0;
}

void amd_resample_free(struct amd_resample *s)
{
	free(s->order);
	free(s->counts);
	memset(s, 0, sizeof *s);
}

size_t amd_resample_draw(const struct amd_resample *s, const gsl_rng *r, double *out)
{
	memset(s->counts, 0, s->n * sizeof *s->counts);
	for (size_t i = 0; i < s->n; i++)
		s->counts[gsl_rng_uniform_int(r, s->n)]++;
	size_t k = 0;
	for (size_t o = 0; o < s->m; o++) {
		size_t i = s->order[o];
		for (size_t c = 0; c < s->counts[i]; c++)
			out[k++] = s->x[i];
	}
	return k;
}
