/* explain_run.c — one run of `amdahl explain` (explain_int.h): its
 * collectives matched across ranks by process group, name and sequence
 * number (the group when the trace gives it); per
 * instance each rank's arrival (its start), the last arrival, each
 * rank's wait (last arrival minus its own, within its call) and transfer
 * (the rest of its call); which rank arrived last and how much longer it
 * worked before; and each rank's step split into compute, idle, transfer
 * and wait, with communication that overlapped compute credited. Also
 * stats' "straggler ms" (amd_explain_arrival_spread): the mean spread of
 * arrivals over the same matched instances, one run at a time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "explain_int.h"
#include "buf.h"
#include "err.h"

struct ref {
	const struct amd_coll_call *c;
	size_t r; /* the rank's index in the run */
};

/* Per-rank accumulators over its traced steps (ns). */
struct acc {
	double coll, wait, transfer;
};

struct name_sum {
	const char *name;
	double transfer;
};

static int cmp_group(const char *a, const char *b)
{
	return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

static int cmp_ref(const void *x, const void *y)
{
	const struct ref *a = x, *b = y;
	int c = cmp_group(a->c->group, b->c->group);
	if (c)
		return c;
	c = strcmp(a->c->name, b->c->name);
	if (c)
		return c;
	if (a->c->seq != b->c->seq)
		return a->c->seq < b->c->seq ? -1 : 1;
	return (a->r > b->r) - (a->r < b->r);
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* The median of v[0..n) (reordered), as after a sort: the middle value
 * or the mean of the two. Picked by gsl_stats_select: sorting the 63
 * other ranks' gaps of each of 70,000 instances was 2.7% of a 1,000 x 64
 * sweep's `report build` (issue 38 item 4). With a NaN, whose place
 * cmp_dbl leaves to the sort, sorted as before. */
static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	int nan = 0;
	for (size_t i = 0; i < n; i++)
		nan |= isnan(v[i]);
	if (nan) {
		qsort(v, n, sizeof *v, cmp_dbl);
		return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	double hi = gsl_stats_select(v, 1, n, n / 2);
	return n % 2 ? hi : (gsl_stats_select(v, 1, n, n / 2 - 1) + hi) / 2;
}

static int in_steps(const struct amd_coll_trace *t, const struct amd_coll_call *c)
{
	return !t->nsteps || (c->start_ns >= t->steps_from && c->start_ns < t->steps_to);
}

static double steps_of(const struct amd_coll_trace *t)
{
	return t->nsteps > 0 ? (double)t->nsteps : 1.0;
}

/* The rank's idle gap before call c: from the end of its previous
 * collective (or its steps' start) to c's start, ns, not below 0. */
static double gap_before(const struct amd_coll_trace *t, const struct amd_coll_call *c)
{
	size_t i = (size_t)(c - t->calls);
	int64_t from = t->nsteps ? t->steps_from : t->start_ns;
	if (i > 0 && t->calls[i - 1].start_ns + t->calls[i - 1].dur_ns > from)
		from = t->calls[i - 1].start_ns + t->calls[i - 1].dur_ns;
	return c->start_ns > from ? (double)(c->start_ns - from) : 0;
}

static void add_transfer(struct name_sum *ns, size_t *nns, const char *name, double v)
{
	for (size_t i = 0; i < *nns; i++)
		if (ns[i].name == name || strcmp(ns[i].name, name) == 0) {
			ns[i].transfer += v;
			return;
		}
	ns[*nns].name = name;
	ns[(*nns)++].transfer = v;
}

/* One instance: g[0..k) its calls, one per rank. */
static void instance(const struct amd_coll_trace *t, const struct ref *g, size_t k,
		     struct acc *acc, struct expl_run *r, struct name_sum *ns, size_t *nns,
		     double *gaps)
{
	int64_t last = g[0].c->start_ns;
	size_t who = 0, ties = 0;
	for (size_t i = 1; i < k; i++)
		if (g[i].c->start_ns > last) {
			last = g[i].c->start_ns;
			who = i;
			ties = 0;
		} else if (g[i].c->start_ns == last)
			ties++;
	double caused = 0;
	for (size_t i = 0; i < k; i++) {
		const struct amd_coll_call *c = g[i].c;
		double wait = (double)(last - c->start_ns);
		if (wait > (double)c->dur_ns)
			wait = (double)c->dur_ns;
		double end_gap = (double)(last - (c->start_ns + c->dur_ns));
		if (end_gap * 1e-9 > r->skew_s)
			r->skew_s = end_gap * 1e-9;
		caused += wait;
		if (!in_steps(&t[g[i].r], c))
			continue;
		acc[g[i].r].coll += (double)c->dur_ns;
		acc[g[i].r].wait += wait;
		acc[g[i].r].transfer += (double)c->dur_ns - wait;
		add_transfer(ns, nns, c->name, ((double)c->dur_ns - wait) / steps_of(&t[g[i].r]));
	}
	r->instances++;
	if (ties || k != r->nranks)
		return; /* a sub-group's instance: its last rank is not tested against 1/n */
	r->unique_last++;
	size_t lr = g[who].r;
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		if (i != who)
			gaps[m++] = gap_before(&t[g[i].r], g[i].c);
	struct expl_rank *x = &r->ranks[lr];
	x->last++;
	x->caused_s += caused * 1e-9 / steps_of(&t[lr]);
	x->extra_s += (gap_before(&t[lr], g[who].c) - median(gaps, m)) * 1e-9;
}

/* Calls fn on every instance of t[0..k)'s collectives: the calls that
 * share a process group, name and sequence number, each trace at most
 * once; with all, only those on every trace or on every rank of their
 * (smaller) group as the trace gives its size, else those on two ranks
 * or more. -1 out of memory. */
static int each_instance(const struct amd_coll_trace *t, size_t k, int all,
			 void (*fn)(const struct ref *g, size_t m, void *ctx), void *ctx)
{
	size_t total = 0;
	for (size_t i = 0; i < k; i++)
		total += t[i].ncalls;
	struct ref *v = malloc((total ? total : 1) * sizeof *v);
	if (!v)
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < t[i].ncalls; j++)
			v[m++] = (struct ref){&t[i].calls[j], i};
	qsort(v, m, sizeof *v, cmp_ref);
	for (size_t a = 0, b; a < m; a = b) {
		for (b = a + 1; b < m && cmp_ref(&(struct ref){v[b].c, 0}, &(struct ref){v[a].c, 0}) == 0; b++)
			;
		int gsize = v[a].c->group ? v[a].c->group_size : -1;
		int ok = all ? b - a == k || (gsize >= 2 && (size_t)gsize < k && b - a == (size_t)gsize)
			     : b - a >= 2, ranks = 1;
		for (size_t i = a + 1; ok && i < b; i++) {
			ok = v[i].r != v[i - 1].r; /* each trace once (sorted by trace) */
			ranks += t[v[i].r].rank != t[v[a].r].rank;
		}
		if (ok && (all || ranks >= 2))
			fn(v + a, b - a, ctx);
	}
	free(v);
	return 0;
}

struct match_ctx {
	const struct amd_coll_trace *t;
	size_t k;
	struct acc *acc;
	struct expl_run *r;
	struct name_sum *ns;
	size_t nns;
	double *gaps;
};

static void match_one(const struct ref *g, size_t m, void *ctx)
{
	struct match_ctx *x = ctx;
	instance(x->t, g, m, x->acc, x->r, x->ns, &x->nns, x->gaps);
}

/* Matches the run's collectives; fills acc (per rank) and r's straggler
 * counts. -1 out of memory. */
static int match(const struct amd_coll_trace *t, size_t k, struct acc *acc, struct expl_run *r)
{
	size_t total = 0;
	for (size_t i = 0; i < k; i++)
		total += t[i].ncalls;
	struct match_ctx x = {t, k, acc, r, calloc(total ? total : 1, sizeof *x.ns), 0,
			      malloc(k * sizeof *x.gaps)};
	int rc = x.ns && x.gaps ? each_instance(t, k, 1, match_one, &x) : -1;
	double best = -1;
	for (size_t i = 0; rc == 0 && i < x.nns; i++)
		if (x.ns[i].transfer > best) {
			best = x.ns[i].transfer;
			r->top = x.ns[i].name;
		}
	free(x.ns);
	free(x.gaps);
	return rc;
}

struct spread_ctx {
	double sum;
	int64_t count;
};

static void spread_one(const struct ref *g, size_t m, void *ctx)
{
	struct spread_ctx *x = ctx;
	int64_t lo = g[0].c->start_ns, hi = lo;
	for (size_t i = 1; i < m; i++) {
		lo = g[i].c->start_ns < lo ? g[i].c->start_ns : lo;
		hi = g[i].c->start_ns > hi ? g[i].c->start_ns : hi;
	}
	x->sum += (double)(hi - lo);
	x->count++;
}

int expl_arrival_spread(const struct amd_coll_trace *t, size_t k, double *mean_ns)
{
	struct spread_ctx x = {0, 0};
	*mean_ns = NAN;
	if (each_instance(t, k, 0, spread_one, &x) < 0)
		return -1;
	if (x.count)
		*mean_ns = x.sum / (double)x.count;
	return 0;
}

/* Rank i's step split into compute and idle (per step, s) once its
 * collectives are known: the non-collective time (with the overlap
 * credited back) divided as the trace's phases divide it. */
static void split_rank(const struct amd_coll_trace *t, const struct acc *a, struct expl_run *r,
		       double *compute)
{
	double S = steps_of(t);
	double T = t->nsteps ? (double)t->step_ns / S * 1e-9 : (double)(t->end_ns - t->start_ns) * 1e-9;
	double W = (double)(t->end_ns - t->start_ns);
	const int64_t *ph = t->phase_ns;
	double work = (double)(ph[AMD_PHASE_COMPUTE] + ph[AMD_PHASE_MEMORY]);
	double comm = (double)ph[AMD_PHASE_COMM];
	double ov_ns = t->has_gpu ? (double)ph[AMD_PHASE_OVERLAP] : fmax(0, work + comm - W);
	double X = a->coll / S * 1e-9, wait = a->wait / S * 1e-9, tr = a->transfer / S * 1e-9;
	double credit = W > 0 ? fmin(X, ov_ns / W * T) : 0;
	double nonc = fmax(0, T - X + credit);
	double den = W - comm + (t->has_gpu ? 0 : ov_ns);
	double g = den > 0 ? fmin(1, fmax(0, work / den)) : 0;
	double ctr = fmin(credit, tr), cwait = credit - ctr;
	*compute = g * nonc;
	r->idle += nonc - *compute;
	r->transfer += tr - ctr;
	r->wait += wait - cwait;
	r->coll += X;
	r->overlap += credit;
	r->transfer_raw += tr;
	r->wait_raw += wait;
	r->R += T;
	r->other += T - (nonc + X - credit);
}

int expl_run_measure(const struct amd_coll_trace *t, size_t k, struct expl_run *r)
{
	for (size_t i = 0; i < k; i++)
		if (t[i].rank != (int)i)
			return 1; /* ranks 0..k-1, each once (the traces come by rank) */
	if ((int)k != t[0].n || k == 0)
		return 1;
	memset(r, 0, sizeof *r);
	r->strategy = t[0].strategy;
	r->n = t[0].n;
	r->repeat = t[0].repeat;
	r->nranks = k;
	r->ranks = calloc(k, sizeof *r->ranks);
	struct acc *acc = calloc(k, sizeof *acc);
	double *compute = malloc(k * sizeof *compute), *sorted = malloc(k * sizeof *sorted);
	int rc = r->ranks && acc && compute && sorted ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < k; i++)
		r->ranks[i].rank = (int)i;
	if (rc == 0)
		rc = match(t, k, acc, r);
	for (size_t i = 0; rc == 0 && i < k; i++) {
		split_rank(&t[i], &acc[i], r, &compute[i]);
		r->compute += compute[i];
	}
	for (size_t i = 0; rc == 0 && i < k; i++) {
		size_t m = 0; /* the others' median: one late rank of two counts whole */
		for (size_t j = 0; j < k; j++)
			if (j != i)
				sorted[m++] = compute[j];
		r->imbalance += m ? fmax(0, compute[i] - median(sorted, m)) : 0;
	}
	if (rc == 0) {
		r->compute -= r->imbalance;
		r->step_s = r->R / (double)k;
	}
	free(acc);
	free(compute);
	free(sorted);
	if (rc < 0)
		expl_run_free(r);
	return rc;
}

void expl_run_free(struct expl_run *r)
{
	free(r->ranks);
	r->ranks = NULL;
}

/* (here, not in explain.c: stats reads it, and explain.c reads stats) */
int amd_explain_arrival_spread(struct amd_store *st, int64_t run, double *out_ns,
			       struct amd_err *err)
{
	struct amd_coll_set set;
	*out_ns = NAN;
	if (amd_store_coll_run(st, run, &set, err) < 0)
		return -1;
	int rc = expl_arrival_spread(set.traces, set.ntraces, out_ns);
	amd_coll_set_free(&set);
	return rc < 0 ? amd_fail(err, "explain: out of memory") : 0;
}

int amd_explain_arrival_spread_in(struct amd_store *st, const struct amd_coll_set *set,
				  int64_t run, double *out_ns, struct amd_err *err)
{
	size_t n = 0;
	const struct amd_coll_trace *t = set ? amd_coll_set_run(set, run, &n) : NULL;
	if (!n) /* not in the set (a run that does not count) or without traces */
		return amd_explain_arrival_spread(st, run, out_ns, err);
	*out_ns = NAN;
	return expl_arrival_spread(t, n, out_ns) < 0 ? amd_fail(err, "explain: out of memory") : 0;
}
