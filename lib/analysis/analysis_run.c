/* analysis_run.c — one run's value under the exclusion rules (epoch 0 as
 * warm-up, epochs overlapping a profiler window, NaN epochs), its MAD
 * outlier flags, samples and seconds of the kept epochs, and its trace
 * shares; see analysis_run.h. */
#include "analysis_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_energy.h"
#include "buf.h"
#include "explain.h"
#include "metric_points.h"
#include "num.h"
#include "run_facts.h"

/* ---- which epochs count ---- */

/* Does epoch i of pts (span from the previous point, or start_ms, to its
 * own timestamp) overlap a known profiler window? */
static int overlaps_window(const struct amd_point *pts, size_t i, int64_t start_ms,
			   const struct amd_trace_row *tr, size_t ntr)
{
	int64_t end = pts[i].ts_ms, beg = i ? pts[i - 1].ts_ms : start_ms;
	if (!beg || beg > end)
		beg = end;
	for (size_t t = 0; t < ntr; t++) {
		if (tr[t].start_ns <= 0 || tr[t].end_ns <= 0)
			continue;
		double ws = (double)tr[t].start_ns / 1e6, we = (double)tr[t].end_ns / 1e6;
		if (ws < (double)end && we > (double)beg)
			return 1;
	}
	return 0;
}

static int known_windows(const struct amd_trace_row *tr, size_t ntr)
{
	for (size_t t = 0; t < ntr; t++)
		if (tr[t].start_ns > 0 && tr[t].end_ns > tr[t].start_ns)
			return 1;
	return 0;
}

/* Marks profiled epochs in prof[]; returns the rule used (see analysis.h). */
static int profiled_epochs(const struct amd_point *pts, size_t n, int64_t start_ms,
			   const struct amd_trace_row *tr, size_t ntr, int *prof)
{
	memset(prof, 0, n * sizeof *prof);
	if (ntr == 0 || n == 0)
		return 0;
	if (!known_windows(tr, ntr)) {
		prof[n - 1] = 1;
		return 2;
	}
	for (size_t i = 0; i < n; i++)
		prof[i] = overlaps_window(pts, i, start_ms, tr, ntr);
	return 1;
}

/* Appends "epoch STEP (WHY)" to the list in b. */
static int note(struct amd_buf *b, int64_t step, const char *why)
{
	return amd_buf_printf(b, "%sepoch %lld (%s)", b->len ? ", " : "", (long long)step, why);
}

/* Appends "epoch STEP (impossible METRIC: VALUE)": a time or a rate that
 * is negative, zero or infinite, which no speedup can be taken of. */
static int note_impossible(struct amd_buf *b, int64_t step, const char *metric, double v)
{
	char why[160];
	snprintf(why, sizeof why, "impossible %s: %.6g", metric, v);
	return note(b, step, why);
}

/* The list in b as a string ("" when empty) in *out; -1 out of memory. */
static int list_text(struct amd_buf *b, int failed, char **out)
{
	if (failed) {
		amd_buf_free(b);
		return -1;
	}
	*out = b->data ? b->data : strdup("");
	return *out ? 0 : -1;
}

/* Chooses the kept epochs of pts; keep[i] set for them. */
static int choose_epochs(struct analysis_run *w, const struct amd_point *pts, size_t n,
			 const int *prof, const struct analysis_opts *o, int *keep)
{
	struct amd_buf ex = {0};
	int rc = 0;
	w->vals = malloc((n ? n : 1) * sizeof *w->vals);
	w->nvals = 0;
	if (!w->vals)
		return -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		keep[i] = 0;
		if (pts[i].step == 0 && !o->keep_first)
			rc = note(&ex, pts[i].step, "warm-up");
		else if (prof[i] && !o->keep_profiled)
			rc = note(&ex, pts[i].step, "profiled");
		else if (isnan(pts[i].value))
			rc = note(&ex, pts[i].step, "NaN");
		else if (!(isfinite(pts[i].value) && pts[i].value > 0))
			rc = note_impossible(&ex, pts[i].step, o->metric, pts[i].value);
		else {
			keep[i] = 1;
			w->vals[w->nvals++] = pts[i].value;
		}
	}
	w->v.epochs_kept = (int)w->nvals;
	w->v.epochs_total = (int)n;
	return list_text(&ex, rc < 0, &w->v.excluded);
}

/* Flags kept epochs whose modified z-score exceeds k (never dropped). */
static int flag_outliers(struct analysis_run *w, const struct amd_point *pts, size_t n,
			 const int *keep, double k)
{
	int *fl = calloc(w->nvals ? w->nvals : 1, sizeof *fl);
	struct amd_buf b = {0};
	int rc = fl ? 0 : -1;
	if (fl && amd_mad_flags(w->vals, w->nvals, k, fl)) {
		double med = amd_median(w->vals, w->nvals), mad = amd_mad(w->vals, w->nvals);
		for (size_t i = 0, j = 0; rc == 0 && i < n; i++) {
			if (!keep[i])
				continue;
			if (fl[j]) {
				char why[96];
				snprintf(why, sizeof why, "%.6g, modified z %.1f", pts[i].value,
					 0.6745 * fabs(pts[i].value - med) / mad);
				rc = note(&b, pts[i].step, why);
			}
			j++;
		}
	}
	free(fl);
	return list_text(&b, rc < 0, &w->v.flagged);
}

/* ---- samples and seconds ---- */

/* Value at the given step of the points p[0..n) of one rank, sorted by
 * step (the earliest logged when a step repeats), NAN if absent. */
static double at_step(const struct amd_point *p, size_t n, int64_t step)
{
	size_t i = amd_points_find_step(p, n, step);
	return i < n ? p[i].value : NAN;
}

/* Samples per epoch from global_batch_size × steps_per_epoch, NAN when
 * either is missing. */
static int batch_samples(struct amd_store *st, int64_t run, double *b, struct amd_err *err)
{
	char *gbs = NULL, *spe = NULL;
	int rc = amd_run_param_find(st, run, "global_batch_size", &gbs, err) < 0 ||
		 amd_run_param_find(st, run, "steps_per_epoch", &spe, err) < 0 ? -1 : 0;
	double s = NAN;
	*b = NAN;
	if (gbs && spe && amd_parse_double(gbs, b) == 0 && amd_parse_double(spe, &s) == 0)
		*b *= s;
	else
		*b = NAN;
	free(gbs);
	free(spe);
	return rc;
}

/* Notes a kept epoch whose epoch time or throughput is impossible (left
 * out of the run's samples and seconds). */
static int impossible_pair(struct amd_buf *b, int64_t step, double t, double rate, int has_rate)
{
	if (!(isfinite(t) && t > 0))
		return note_impossible(b, step, "epoch_time_s", t);
	return has_rate ? note_impossible(b, step, "throughput_samples_per_s", rate) : 0;
}

/* Appends the notes in b to the run's list of left-out epochs. */
static int append_notes(char **list, struct amd_buf *b)
{
	struct amd_buf all = {0};
	int rc = b->len == 0 ? 0
		 : amd_buf_printf(&all, "%s%s%s", *list && **list ? *list : "",
				  *list && **list ? ", " : "", b->data);
	amd_buf_free(b);
	if (rc < 0 || !all.data)
		return rc;
	free(*list);
	*list = all.data;
	return 0;
}

/* Samples and seconds of the kept epochs: samples from the logged
 * throughput × epoch time, else global_batch_size × steps_per_epoch. */
static int run_throughput(struct amd_store *st, struct analysis_run *w,
			  const struct amd_point *pts, size_t n, const int *keep,
			  struct amd_err *err)
{
	struct amd_point *tp = NULL, *ep = NULL;
	struct amd_buf left_out = {0};
	size_t ntp = 0, nep = 0;
	double b, samples = 0, secs = 0;
	int rc = amd_run_metric(st, w->rv->id, "throughput_samples_per_s", &tp, &ntp, err) < 0 ||
		 amd_run_metric(st, w->rv->id, "epoch_time_s", &ep, &nep, err) < 0 ||
		 batch_samples(st, w->rv->id, &b, err) < 0 ? -1 : 0;
	ntp = rc == 0 ? amd_points_lowest_rank(tp, ntp) : 0;
	nep = rc == 0 ? amd_points_lowest_rank(ep, nep) : 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (!keep[i])
			continue;
		double t = at_step(ep, nep, pts[i].step);
		double rate = ntp ? at_step(tp, ntp, pts[i].step) : 1;
		double per = ntp ? rate * t : b;
		if (isfinite(t) && isfinite(per) && t > 0 && rate > 0 && per > 0) {
			samples += per;
			secs += t;
		} else if (!isnan(t) && !isnan(rate) && (t <= 0 || rate <= 0 || isinf(t) || isinf(rate)))
			rc = impossible_pair(&left_out, pts[i].step, t, rate, ntp > 0);
	}
	rc = rc < 0 ? -1 : append_notes(&w->v.excluded, &left_out);
	w->v.samples = secs > 0 ? samples : NAN;
	w->v.time_s = secs > 0 ? secs : NAN;
	w->v.throughput = secs > 0 ? samples / secs : NAN;
	free(tp);
	free(ep);
	return rc;
}

/* ---- trace shares ---- */

static void run_trace_shares(struct analysis_run *w, const struct amd_trace_row *tr,
			     size_t ntr)
{
	size_t k = 0, kc = 0;
	double cf = 0;
	size_t ncf = 0;
	w->comm_share = 0;
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		w->share[p] = 0;
	for (size_t t = 0; t < ntr; t++) {
		if (isfinite(tr[t].comp_fraction)) {
			cf += tr[t].comp_fraction;
			ncf++;
		}
		double win = (double)(tr[t].end_ns - tr[t].start_ns);
		if (!tr[t].has_phases || !(win > 0))
			continue;
		for (int p = 0; p < AMD_PHASE_COUNT; p++)
			w->share[p] += (double)tr[t].phase_ns[p] / win;
		k++;
		double c = (double)tr[t].phase_ns[AMD_PHASE_COMPUTE];
		double m = (double)tr[t].phase_ns[AMD_PHASE_COMM];
		if (c + m > 0) {
			w->comm_share += m / (c + m);
			kc++;
		}
	}
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		w->share[p] = k ? w->share[p] / (double)k : NAN;
	w->comm_share = kc ? w->comm_share / (double)kc : NAN;
	w->comp_fraction = ncf ? cf / (double)ncf : NAN;
	w->has_trace = ntr > 0;
	w->ntraces_gpu = w->ntraces_cpu = 0;
	for (size_t t = 0; t < ntr; t++)
		*(tr[t].has_gpu ? &w->ntraces_gpu : &w->ntraces_cpu) += 1;
}

/* ---- the whole evaluation ---- */

/* Leaves the run out of the statistics, saying why: the whole of it (arg
 * may be the list of every epoch the rules dropped, w->v.excluded itself;
 * a 255-byte buffer cut a long one mid-word in stats --json). */
static int exclude(struct analysis_run *w, const char *fmt, const char *arg)
{
	struct amd_buf why = {0};
	int rc = amd_buf_printf(&why, fmt, arg);
	free(w->v.excluded);
	w->v.excluded = NULL;
	w->ok = 0;
	return list_text(&why, rc < 0, &w->v.excluded);
}

/* The run's value and flags from its kept epochs; 1 when none are kept
 * (the run is then left out), 0, or -1 out of memory. */
static int run_value(struct analysis_run *w, const struct amd_point *pts, size_t np,
		     const struct amd_trace_row *tr, size_t ntr, const struct analysis_opts *o,
		     int *keep)
{
	int *prof = calloc(np + 1, sizeof *prof);
	if (!prof)
		return -1;
	w->v.profiled_rule = profiled_epochs(pts, np, w->rv->start_ms, tr, ntr, prof);
	int rc = choose_epochs(w, pts, np, prof, o, keep);
	free(prof);
	if (rc < 0)
		return -1;
	if (np == 0)
		return exclude(w, "no %s logged", o->metric) < 0 ? -1 : 1;
	if (w->nvals == 0)
		return exclude(w, "no epoch left after the rules (%s)", w->v.excluded) < 0 ? -1 : 1;
	w->v.value = amd_median(w->vals, w->nvals);
	return flag_outliers(w, pts, np, keep, o->mad_k);
}

/* ---- a run's value reduced by the server (store.h amd_run_reduced) ---- */

/* The exclusions and flags of the reduced points, as choose_epochs and
 * flag_outliers write them from the points. */
static int reduced_lists(struct analysis_run *w, const struct amd_run_reduced *r,
			 const struct analysis_opts *o)
{
	struct amd_buf ex = {0}, fl = {0};
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < r->nleft; i++) {
		const struct amd_reduced_point *p = &r->left[i];
		if (p->step == 0 && !o->keep_first)
			rc = note(&ex, p->step, "warm-up");
		else if (isnan(p->value))
			rc = note(&ex, p->step, "NaN");
		else
			rc = note_impossible(&ex, p->step, o->metric, p->value);
	}
	/* amd_mad_flags: at least 3 values and a MAD above 0 */
	for (size_t i = 0; rc == 0 && r->kept >= 3 && r->mad > 0 && i < r->nfar; i++) {
		const struct amd_reduced_point *p = &r->far[i];
		double z = 0.6745 * fabs(p->value - r->median) / r->mad;
		char why[96];
		snprintf(why, sizeof why, "%.6g, modified z %.1f", p->value, z);
		if (z > o->mad_k)
			rc = note(&fl, p->step, why);
	}
	w->v.epochs_kept = (int)r->kept;
	w->v.epochs_total = (int)r->total;
	if (list_text(&ex, rc < 0, &w->v.excluded) < 0) {
		amd_buf_free(&fl);
		return -1;
	}
	return list_text(&fl, rc < 0, &w->v.flagged);
}

/* run_throughput's samples and seconds from the reduced sums. */
static int reduced_throughput(struct amd_store *st, struct analysis_run *w,
			      const struct amd_run_reduced *r, struct amd_err *err)
{
	double b, samples = 0, secs = 0;
	if (batch_samples(st, w->rv->id, &b, err) < 0)
		return -1;
	if (r->has_rate) {
		samples = r->samples;
		secs = r->secs;
	} else if (isfinite(b) && b > 0) {
		for (int64_t i = 0; i < r->nvalid; i++) /* run_throughput's order */
			samples += b;
		secs = r->secs;
	}
	struct amd_buf left_out = {0};
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < r->npairs; i++)
		rc = impossible_pair(&left_out, r->pairs[i].step, r->pairs[i].t,
				     r->has_rate ? r->pairs[i].rate : 1, r->has_rate);
	rc = rc < 0 ? -1 : append_notes(&w->v.excluded, &left_out);
	w->v.samples = secs > 0 ? samples : NAN;
	w->v.time_s = secs > 0 ? secs : NAN;
	w->v.throughput = secs > 0 ? samples / secs : NAN;
	return rc < 0 ? amd_fail(err, "out of memory") : 0;
}

/* The run's value from the server's reduction: 1 when it had one (and
 * w is filled as run_value and run_throughput fill it), 0 when the run's
 * points must be read (traces mark profiled epochs; child runs and
 * energy counters read the points), -1 on error. */
static int run_reduced(struct amd_store *st, struct analysis_run *w,
		       const struct analysis_opts *o, struct amd_err *err)
{
	struct amd_point *e = NULL;
	struct amd_trace_row *tr = NULL;
	size_t ne = 0, ntr = 0;
	struct amd_run_reduced r;
	/* a SQLite store answers 0 at once: no query more than run_epochs' */
	int got = w->rv->children ? 0 : amd_store_run_reduced(st, w->rv->id, o->metric,
							      o->keep_first, o->mad_k, &r, err);
	if (got <= 0)
		return got;
	if (amd_store_run_traces(st, w->rv->id, &tr, &ntr, err) < 0 ||
	    (ntr == 0 && amd_run_metric(st, w->rv->id, "gpu_energy_J", &e, &ne, err) < 0))
		got = -1;
	free(tr);
	free(e);
	if (got < 0 || ntr || ne) {
		amd_run_reduced_free(&r);
		return got < 0 ? -1 : 0;
	}
	int rc = reduced_lists(w, &r, o) < 0 ? amd_fail(err, "out of memory") : 0;
	if (rc == 0 && r.kept == 0) { /* run_value leaves no flag list then */
		free(w->v.flagged);
		w->v.flagged = NULL;
	}
	if (rc == 0 && r.total == 0)
		rc = exclude(w, "no %s logged", o->metric) < 0 ? amd_fail(err, "out of memory") : 0;
	else if (rc == 0 && r.kept == 0)
		rc = exclude(w, "no epoch left after the rules (%s)", w->v.excluded) < 0
			     ? amd_fail(err, "out of memory")
			     : 0;
	else if (rc == 0) {
		w->v.value = r.median;
		w->nvals = (size_t)r.kept;
		if (reduced_throughput(st, w, &r, err) < 0 ||
		    analysis_run_energy(st, w->rv->id, NULL, 0, NULL, &w->v, err) < 0 ||
		    (w->v.gpu_from_nvsmi = analysis_run_energy_nvsmi(st, w->rv, &w->v, err)) < 0 ||
		    amd_store_run_op_fraction(st, w->rv->id, &w->op_comp_us, &w->op_total_us,
					      err) < 0 ||
		    amd_explain_arrival_spread_in(st, o->colls, w->rv->id, &w->straggler_ns,
						  err) < 0)
			rc = -1;
		else
			run_trace_shares(w, NULL, 0);
	}
	amd_run_reduced_free(&r);
	return rc < 0 ? -1 : 1;
}

/* The run's value from the server's reduction, else w->reads_points
 * set: analysis_run_read_points reads its points. */
static int run_epochs(struct amd_store *st, struct analysis_run *w,
		      const struct analysis_opts *o, struct amd_err *err)
{
	int reduced = run_reduced(st, w, o, err);
	w->reads_points = reduced == 0;
	return reduced < 0 ? -1 : 0;
}

int analysis_run_read_points(struct amd_store *st, struct analysis_run *w,
			     const struct analysis_opts *o, struct amd_err *err)
{
	struct amd_point *pts = NULL;
	struct amd_trace_row *tr = NULL;
	size_t np = 0, ntr = 0;
	int rc = -1, *keep = NULL;
	if (!w->reads_points)
		return 0;
	if (amd_run_metric(st, w->rv->id, o->metric, &pts, &np, err) < 0 ||
	    amd_store_run_traces(st, w->rv->id, &tr, &ntr, err) < 0)
		goto out;
	np = amd_points_lowest_rank(pts, np);
	keep = calloc(np + 1, sizeof *keep);
	int got = keep ? run_value(w, pts, np, tr, ntr, o, keep) : -1;
	if (got != 0) {
		rc = got < 0 ? amd_fail(err, "out of memory") : 0;
		goto out;
	}
	/* energy and utilisation the run logged, else from nvidia-smi samples
	 * linked to it or in its start..end window */
	if (run_throughput(st, w, pts, np, keep, err) < 0 ||
	    analysis_run_energy(st, w->rv->id, pts, np, keep, &w->v, err) < 0 ||
	    (w->v.gpu_from_nvsmi = analysis_run_energy_nvsmi(st, w->rv, &w->v, err)) < 0 ||
	    amd_store_run_op_fraction(st, w->rv->id, &w->op_comp_us, &w->op_total_us, err) < 0 ||
	    amd_explain_arrival_spread_in(st, o->colls, w->rv->id, &w->straggler_ns, err) < 0)
		goto out;
	run_trace_shares(w, tr, ntr);
	rc = 0;
out:
	free(pts);
	free(tr);
	free(keep);
	return rc;
}

int analysis_run_init(struct analysis_run *w, struct amd_run_view *rv)
{
	memset(w, 0, sizeof *w);
	w->rv = rv;
	w->ok = 1;
	struct amd_run_value *v = &w->v;
	v->run_id = rv->id;
	v->ext_id = strdup(rv->ext_id ? rv->ext_id : "");
	v->name = strdup(rv->name ? rv->name : "");
	v->strategy = strdup(rv->strategy ? rv->strategy : "");
	v->repeat = rv->repeat;
	v->status = rv->status;
	v->value = v->throughput = v->energy_epoch_j = v->energy_run_j = NAN;
	v->power_w = v->util_pct = v->samples = v->time_s = v->energy_kept_j = NAN;
	v->n = NAN;
	w->comp_fraction = w->straggler_ns = w->comm_share = NAN;
	w->op_comp_us = w->op_total_us = NAN;
	for (int p = 0; p < AMD_PHASE_COUNT; p++)
		w->share[p] = NAN;
	return v->ext_id && v->name && v->strategy ? 0 : -1;
}

int amd_run_axis_value(struct amd_store *st, const struct amd_run_view *rv, const char *axis,
		       double *x, struct amd_err *err)
{
	*x = NAN;
	if (!axis) {
		if (rv->n > 0)
			*x = rv->n;
		return 0;
	}
	char *s;
	if (amd_run_param_find(st, rv->id, axis, &s, err) < 0)
		return -1;
	double v;
	if (s && amd_parse_double(s, &v) == 0 && isfinite(v))
		*x = v;
	free(s);
	return 0;
}

int analysis_run_evaluate(struct amd_store *st, struct analysis_run *w,
			  const struct analysis_opts *o, struct amd_err *err)
{
	if (amd_run_axis_value(st, w->rv, o->axis, &w->v.n, err) < 0)
		return -1;
	/* on the world-size axis, the rule `runs` shows (runs.h) */
	const char *why = o->axis ? (amd_status_ok(w->rv->status) ? NULL
				     : amd_status_name(w->rv->status))
				  : amd_run_left_out(w->rv);
	int rc = 0;
	if (why)
		rc = exclude(w, "%s", why);
	else if (isnan(w->v.n))
		rc = exclude(w, "no axis value (%s unknown)", o->axis);
	else
		return run_epochs(st, w, o, err);
	return rc < 0 ? amd_fail(err, "out of memory") : 0;
}

void analysis_run_release(struct analysis_run *w)
{
	analysis_value_free(&w->v);
	free(w->vals);
	w->vals = NULL;
}

static char *dup0(const char *s)
{
	return strdup(s ? s : "");
}

int analysis_value_copy(struct amd_run_value *c, const struct amd_run_value *v)
{
	*c = *v;
	c->ext_id = dup0(v->ext_id);
	c->name = dup0(v->name);
	c->excluded = dup0(v->excluded);
	c->flagged = dup0(v->flagged);
	c->strategy = dup0(v->strategy);
	if (c->ext_id && c->name && c->excluded && c->flagged && c->strategy)
		return 0;
	analysis_value_free(c);
	return -1;
}

void analysis_value_free(struct amd_run_value *v)
{
	free(v->ext_id);
	free(v->name);
	free(v->excluded);
	free(v->flagged);
	free(v->strategy);
	v->ext_id = v->name = v->excluded = v->flagged = v->strategy = NULL;
}

char *amd_epochs_shown(const char *list, size_t shown)
{
	static const char sep[] = ", epoch ";
	const char *p = list, *cut = NULL;
	size_t n = *list != '\0';
	for (const char *q; (q = strstr(p, sep)); p = q + 1)
		if (n++ == shown)
			cut = q;
	if (!cut)
		return strdup(list);
	size_t open = 0, len = (size_t)(cut - list);
	for (size_t i = 0; i < len; i++)
		if (list[i] == '(')
			open++;
		else if (list[i] == ')' && open)
			open--;
	struct amd_buf b = {0};
	int rc = amd_buf_printf(&b, "%.*s and %zu more", (int)len, list, n - shown);
	for (size_t i = 0; rc == 0 && i < open; i++)
		rc = amd_buf_append(&b, ")", 1);
	if (rc < 0) {
		amd_buf_free(&b);
		return NULL;
	}
	return b.data;
}
