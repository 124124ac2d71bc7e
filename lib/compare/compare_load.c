/* compare_load.c — analyses the baseline and the candidate sweep (each
 * from its own store) with amd_analyse, once for the time metric and once
 * per extra metric amdahl.yaml lists under gate.metrics, hands the
 * results to amd_compare_stats, and refuses two sweeps that share no
 * configuration. */
#include <stdlib.h>
#include <string.h>

#include "compare.h"

static int analyse(struct amd_store *st, const char *sweep, const char *metric,
		   const struct amd_compare_opts *o, struct amd_sweep_stats **out,
		   struct amd_err *err)
{
	struct amd_analysis_opts a = {0};
	a.sweep = sweep;
	a.metric = metric;
	a.axis = o->axis;
	a.mad_k = 3.5;
	a.resamples = o->resamples >= 2000 ? o->resamples : 4000;
	a.seed = o->seed ? o->seed : 20260101UL;
	a.level = o->level > 0 && o->level < 1 ? o->level : 0.95;
	return amd_analyse(st, &a, out, err);
}

static void free_stats(struct amd_sweep_stats *s)
{
	if (s)
		amd_sweep_stats_free(s);
}

/* Names under gate.metrics that are not built in: analysed separately. */
static size_t extra_metrics(const struct amd_config *cfg, const char *time_metric,
			    const char **names, size_t max)
{
	size_t k = 0;
	const struct amd_node *m = amd_config_get(cfg, "gate.metrics");
	for (const struct amd_node *c = amd_node_first(m); c && k < max; c = c->next)
		if (c->key && !amd_compare_builtin(c->key, time_metric))
			names[k++] = c->key;
	return k;
}

#define MAX_EXTRA 32

/* A comparison needs one configuration on both sides: otherwise every row
 * is on one side only and there is nothing to judge. */
static int check_shared(struct amd_comparison **c, const struct amd_compare_opts *o,
			struct amd_err *err)
{
	for (size_t i = 0; i < (*c)->nrows; i++)
		if ((*c)->rows[i].verdict != AMD_MISSING)
			return 0;
	amd_comparison_free(*c);
	*c = NULL;
	return amd_fail(err, "baseline '%s' and candidate '%s' share no configuration",
			o->base_sweep, o->cand_sweep);
}

int amd_compare(struct amd_store *base_st, struct amd_store *cand_st,
		const struct amd_compare_opts *o, struct amd_comparison **out,
		struct amd_err *err)
{
	const char *metric = o->metric ? o->metric : "epoch_time_s";
	struct amd_sweep_stats *base = NULL, *cand = NULL;
	struct amd_sweep_stats *bx[MAX_EXTRA] = {0}, *cx[MAX_EXTRA] = {0};
	const char *names[MAX_EXTRA];
	size_t nextra = extra_metrics(o->cfg, metric, names, MAX_EXTRA);
	int rc = -1;
	if (analyse(base_st, o->base_sweep, metric, o, &base, err) < 0) {
		amd_fail_prefix(err, "baseline");
		goto done;
	}
	if (analyse(cand_st, o->cand_sweep, metric, o, &cand, err) < 0) {
		amd_fail_prefix(err, "candidate");
		goto done;
	}
	for (size_t i = 0; i < nextra; i++) {
		if (analyse(base_st, o->base_sweep, names[i], o, &bx[i], err) < 0) {
			amd_fail_prefix(err, "baseline, gate.metrics.%s", names[i]);
			goto done;
		}
		if (analyse(cand_st, o->cand_sweep, names[i], o, &cx[i], err) < 0) {
			amd_fail_prefix(err, "candidate, gate.metrics.%s", names[i]);
			goto done;
		}
	}
	rc = amd_compare_stats(base, cand, (const struct amd_sweep_stats *const *)bx,
			       (const struct amd_sweep_stats *const *)cx, nextra, o, out, err);
	if (rc == 0)
		rc = check_shared(out, o, err);
done:
	free_stats(base);
	free_stats(cand);
	for (size_t i = 0; i < nextra; i++) {
		free_stats(bx[i]);
		free_stats(cx[i]);
	}
	return rc;
}
