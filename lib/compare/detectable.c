/* detectable.c — the smallest detectable change per row and the likely
 * regressions of rows too small for the test (detectable.h). */
#include "detectable.h"

#include <math.h>
#include <stdio.h>

#include <gsl/gsl_cdf.h>

#include "compare_table.h"
#include "num.h"
#include "stats.h"

static double row_level(const struct amd_comparison *c, const struct amd_cmp_row *r)
{
	return r->gated && c->family > 1 ? r->alpha / (double)c->family : r->alpha;
}

static double detectable(const struct amd_comparison *c, const struct amd_cmp_row *r)
{
	if (r->nb < 2 || r->nc < 2 || !amd_num_ok(r->med_base) || r->med_base == 0)
		return NAN;
	double a = row_level(c, r);
	if (r->p_min > a)
		return INFINITY;
	double sb = amd_sd(r->base, r->nb), sc = amd_sd(r->cand, r->nc);
	double z = gsl_cdf_ugaussian_Pinv(1 - a / 2) + gsl_cdf_ugaussian_Pinv(AMD_DETECT_POWER);
	return z * sqrt(sb * sb / (double)r->nb + sc * sc / (double)r->nc) / fabs(r->med_base);
}

static int likely(const struct amd_cmp_row *r)
{
	if (r->verdict != AMD_INSUFFICIENT || !r->ci.valid)
		return 0;
	double up = 1 + r->threshold, down = 1 - r->threshold;
	int above = r->ci.lo > up, below = r->ci.hi < down;
	if (r->dir == AMD_LOWER_IS_BETTER)
		return above ? 1 : below ? -1 : 0;
	return below ? 1 : above ? -1 : 0;
}

void amd_cmp_noise(struct amd_comparison *c)
{
	c->likely_regressions = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		struct amd_cmp_row *r = &c->rows[i];
		r->detectable = r->verdict == AMD_MISSING ? NAN : detectable(c, r);
		r->likely = likely(r);
		c->likely_regressions += r->gated && r->likely == 1;
	}
}

void amd_cmp_detectable_range(const struct amd_comparison *c, double *lo, double *hi,
			      size_t *none)
{
	*lo = *hi = NAN;
	*none = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		if (!r->gated || isnan(r->detectable))
			continue;
		if (isinf(r->detectable)) {
			++*none;
			continue;
		}
		*lo = isnan(*lo) || r->detectable < *lo ? r->detectable : *lo;
		*hi = isnan(*hi) || r->detectable > *hi ? r->detectable : *hi;
	}
}

static int likely_lines(const struct amd_comparison *c, const char *prefix, struct amd_buf *b)
{
	for (size_t i = 0; i < c->nrows; i++) {
		const struct amd_cmp_row *r = &c->rows[i];
		if (!r->gated || r->likely != 1)
			continue;
		char cfg[160], ratio[96];
		amd_cmp_config(r, cfg, sizeof cfg);
		amd_cmp_ratio(r, "-", ratio, sizeof ratio);
		if (amd_buf_printf(b, "%slikely regression: %s %s ratio %s lies wholly past the %g%% "
				   "threshold, but %zu vs %zu runs cannot reach alpha; %d runs per "
				   "side would confirm it\n", prefix, r->metric, cfg, ratio,
				   r->threshold * 100, r->nc, r->nb, r->runs_needed) < 0)
			return -1;
	}
	return 0;
}

int amd_cmp_noise_text(const struct amd_comparison *c, const char *prefix, struct amd_buf *b)
{
	double lo, hi;
	size_t none;
	amd_cmp_detectable_range(c, &lo, &hi, &none);
	int rc = 0;
	if (!isnan(lo))
		rc = amd_buf_printf(b, "%ssmallest change these runs could detect (80%% power at the"
				    " test's level, from the runs' spread): %.1f%% to %.1f%% across"
				    " the gated rows", prefix, lo * 100, hi * 100);
	else if (none)
		rc = amd_buf_printf(b, "%ssmallest change these runs could detect: none", prefix);
	if (rc == 0 && none)
		rc = amd_buf_printf(b, "%s%zu gated row%s cannot detect any change with %s run"
				    " counts", isnan(lo) ? " — " : "; ", none, none == 1 ? "" : "s",
				    none == 1 ? "its" : "their");
	if (rc == 0 && (!isnan(lo) || none))
		rc = amd_buf_printf(b, "\n");
	return rc < 0 ? -1 : likely_lines(c, prefix, b);
}

const char *amd_cmp_detectable_value(const struct amd_cmp_row *r, char *buf, size_t n)
{
	if (isinf(r->detectable))
		snprintf(buf, n, "none");
	else if (isnan(r->detectable))
		snprintf(buf, n, "unknown");
	else
		snprintf(buf, n, "%.10g", r->detectable);
	return buf;
}

const char *amd_cmp_detectable_sentence(const struct amd_cmp_row *r, char *buf, size_t n)
{
	if (isinf(r->detectable))
		snprintf(buf, n, "smallest change these runs could detect: none (%zu vs %zu runs "
			 "cannot reach the test's level)", r->nc, r->nb);
	else if (isnan(r->detectable))
		snprintf(buf, n, "smallest change these runs could detect: unknown (a side has "
			 "fewer than 2 runs or no median)");
	else
		snprintf(buf, n, "smallest change these runs could detect (80%% power at the test's "
			 "level, from the runs' spread): %.1f%%", r->detectable * 100);
	return buf;
}
