/* region_run.c — rr_top (region_run.h): the top regions of one run in
 * memory. The run's and its child workers' packs are read through
 * region_pack's index on run_id by rs_scan (region_scan.h), which
 * decodes only the columns used here; the rows are summed per (profiler,
 * kind, name, file, line, rank, device) in a hash table, ranked and
 * shared in C: the numbers, order and n_all of regions.c's SQL for a
 * run (top_run_sql), which stepped the region virtual table through
 * every region of the run. A sum past 64 bits (an error of SQL's sum)
 * and a dict id that is not in dict (a row the SQL's join dropped) are
 * one message naming the store and the region_pack row. */
#include "region_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hmap.h"
#include "region_rows.h"
#include "region_scan.h"
#include "sqlite_int.h"

/* The scan's columns: the pack, the run, the group's key (KEYS of
 * them, from C_PROF), the five sums (from C_SUM). */
enum { C_PACK, C_RUN, C_PROF, C_KIND, C_NAME, C_FILE, C_LINE, C_RANK, C_DEV, C_SUM };
#define KEYS 7
#define SUMS 5
#define NCOLS (C_SUM + SUMS)

static const char *const sum_names[SUMS] = { "calls", "prim_calls", "self_ns", "total_ns",
					     "bytes" };
static const char *const text_names[4] = { "profiler", "kind", "name", "file" };

/* The run and its child workers, each with the run its rows count for
 * (its parent, else itself), ordered by that run: a group's rows then
 * come with their logical runs ascending. */
static const char runs_sql[] =
	"SELECT ru.id, coalesce(pa.id, ru.id) FROM run ru LEFT JOIN run pa"
	" ON pa.ext_id = ru.parent_ext_id WHERE ru.id = ?1"
	" OR ru.parent_ext_id = (SELECT ext_id FROM run WHERE id = ?1) ORDER BY 2, 1";

struct rr_group {
	int64_t k[KEYS];  /* C_PROF ... C_DEV's values (0 when NULL) */
	uint32_t nulls;   /* bit i: k[i] is NULL */
	int64_t sum[SUMS];
	unsigned has;     /* bit k: sum[k] summed a value */
	int runs;
	int64_t last_logical, pack; /* pack: the first region's, for a message */
	const char *text[4];        /* profiler, kind, name, file (NULL: none) */
	double share;
};

struct rr {
	const char *path;
	int64_t kind, profiler; /* 0: any */
	int64_t *run_ids, *logical;
	size_t nruns, at;       /* at: the run of the last row */
	struct rr_group *g;
	size_t ng, cap_g;
	struct amd_hmap ix;
	struct amd_dict_text *t;
	size_t nt;
	struct amd_err bad; /* the consumer's error (not out of memory) */
	int has_bad;
};

static void rr_free(struct rr *r)
{
	for (size_t i = 0; i < r->nt; i++)
		free(r->t[i].s);
	free(r->t);
	free(r->run_ids);
	free(r->logical);
	free(r->g);
	amd_hmap_free(&r->ix);
}

static int load_runs(struct amd_store *st, int64_t run_id, struct rr *r, struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st, runs_sql, err);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run_id);
	size_t cap = 0, cap2 = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(&r->run_ids, r->nruns, &cap, sizeof *r->run_ids, 8) < 0 ||
		    amd_grow(&r->logical, r->nruns, &cap2, sizeof *r->logical, 8) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		r->run_ids[r->nruns] = sqlite3_column_int64(q, 0);
		r->logical[r->nruns++] = sqlite3_column_int64(q, 1);
	}
	return amd_store_rows_done(st, q, rc, err);
}

/* The kind and profiler asked (a NULL one is kept: it is reported). */
static int rr_keep(const void *arg, const struct rs_row *w)
{
	const struct rr *r = arg;
	return (!r->kind || (w->null >> C_KIND & 1) || w->v[C_KIND] == r->kind) &&
	       (!r->profiler || (w->null >> C_PROF & 1) || w->v[C_PROF] == r->profiler);
}

static uint32_t key_hash(const struct rr_group *k)
{
	uint64_t h = k->nulls;
	for (int i = 0; i < KEYS; i++)
		h = h * 0x100000001b3ULL + (uint64_t)k->k[i];
	return amd_hash_u64(h);
}

struct find {
	const struct rr_group *g, *key;
};

static int same_key(const void *ctx, uint32_t idx)
{
	const struct find *f = ctx;
	return f->g[idx].nulls == f->key->nulls &&
	       memcmp(f->g[idx].k, f->key->k, sizeof f->key->k) == 0;
}

/* The group of key, added when new; NULL out of memory. */
static struct rr_group *group_of(struct rr *r, const struct rr_group *key)
{
	uint32_t h = key_hash(key);
	struct find f = { r->g, key };
	int64_t at = amd_hmap_find(&r->ix, h, same_key, &f);
	if (at >= 0)
		return &r->g[at];
	if (amd_grow(&r->g, r->ng, &r->cap_g, sizeof *r->g, 256) < 0 ||
	    amd_hmap_put(&r->ix, h, (uint32_t)r->ng) < 0)
		return NULL;
	r->g[r->ng] = *key;
	r->g[r->ng].last_logical = INT64_MIN;
	return &r->g[r->ng++];
}

/* The run a row counts for (rows come run after run). */
static int64_t logical_of(struct rr *r, int64_t run)
{
	if (r->run_ids[r->at] != run)
		for (r->at = 0; r->at + 1 < r->nruns && r->run_ids[r->at] != run; r->at++)
			;
	return r->logical[r->at];
}

/* Row w into its group; -1 out of memory or a sum past 64 bits (r->bad). */
static int add_row(struct rr *r, const struct rs_row *w)
{
	struct rr_group key = { .pack = w->v[C_PACK] };
	memcpy(key.k, &w->v[C_PROF], sizeof key.k);
	key.nulls = (w->null >> C_PROF) & ((1u << KEYS) - 1);
	struct rr_group *g = group_of(r, &key);
	if (!g)
		return -1;
	for (int k = 0; k < SUMS; k++) {
		if (w->null >> (C_SUM + k) & 1)
			continue;
		if (__builtin_add_overflow(g->sum[k], w->v[C_SUM + k], &g->sum[k])) {
			r->has_bad = 1;
			return amd_fail(&r->bad, "%s: region_pack row %lld: the sum of a region's %s"
					" is past 64 bits", r->path, (long long)w->v[C_PACK],
					sum_names[k]);
		}
		g->has |= 1u << k;
	}
	int64_t logical = logical_of(r, w->v[C_RUN]);
	if (g->last_logical != logical) { /* ascending: a new one */
		g->last_logical = logical;
		g->runs++;
	}
	return 0;
}

static int add_rows(void *ctx, const struct rs_row *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (add_row(ctx, &w[i]) < 0)
			return -1;
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The text of dict id in r->t (sorted), NULL when not in dict. */
static const char *text_of(const struct rr *r, int64_t id)
{
	const struct amd_dict_text *t = bsearch(&id, r->t, r->nt, sizeof *r->t, cmp_i64);
	return t ? t->s : NULL;
}

/* The distinct dict ids of the groups' texts, sorted, in r->t. */
static int text_ids(struct rr *r)
{
	int64_t *ids = malloc((4 * r->ng + 1) * sizeof *ids);
	if (!ids)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < r->ng; i++)
		for (int j = 0; j < 4; j++)
			if (!(r->g[i].nulls >> j & 1))
				ids[n++] = r->g[i].k[j];
	qsort(ids, n, sizeof *ids, cmp_i64);
	r->t = calloc(n + 1, sizeof *r->t);
	for (size_t i = 0; r->t && i < n; i++)
		if (!i || ids[i] != ids[i - 1])
			r->t[r->nt++].id = ids[i];
	free(ids);
	return r->t ? 0 : -1;
}

/* Each group's texts from dict; a NULL profiler, kind or name, or an
 * id not in dict, is named by its group's pack. */
static int load_texts(struct amd_store *st, struct rr *r, struct amd_err *err)
{
	if (text_ids(r) < 0)
		return amd_fail(err, "%s: out of memory", r->path);
	if (amd_store_texts(st, r->t, r->nt, err) < 0)
		return -1;
	for (size_t i = 0; i < r->ng; i++) {
		struct rr_group *g = &r->g[i];
		for (int j = 0; j < 4; j++) {
			int null = g->nulls >> j & 1;
			g->text[j] = null ? NULL : text_of(r, g->k[j]);
			if (null && j < 3)
				return amd_fail(err, "%s: region_pack row %lld: a region with no %s",
						r->path, (long long)g->pack, text_names[j]);
			if (!null && !g->text[j])
				return amd_fail(err, "%s: region_pack row %lld: %s id %lld is not in"
						" dict", r->path, (long long)g->pack, text_names[j],
						(long long)g->k[j]);
		}
	}
	return 0;
}

static int cmp_text(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL); /* NULL first, as SQL orders */
	return strcmp(a, b);
}

/* A NULL first, then by value. */
static int cmp_opt(const struct rr_group *x, const struct rr_group *y, int i)
{
	int nx = x->nulls >> i & 1, ny = y->nulls >> i & 1;
	if (nx || ny)
		return ny - nx;
	return (x->k[i] > y->k[i]) - (x->k[i] < y->k[i]);
}

/* Key i (rank, device) as coalesce(k, -1). */
static int64_t or_minus1(const struct rr_group *g, int i)
{
	return g->nulls >> i & 1 ? -1 : g->k[i];
}

/* Sum k descending, groups without one last. */
static int cmp_sum(const struct rr_group *x, const struct rr_group *y, int k)
{
	int hx = x->has >> k & 1, hy = y->has >> k & 1;
	if (!hx || !hy)
		return hy - hx;
	return (x->sum[k] < y->sum[k]) - (x->sum[k] > y->sum[k]);
}

/* top_run_sql's row_number order of two indexes into the groups g:
 * self and total time descending (unmeasured last), the profiler, kind,
 * name and file texts, the line (NULL first), the rank and device
 * (coalesced to -1). */
static int cmp_rank(const void *pa, const void *pb, void *g)
{
	const struct rr_group *x = (const struct rr_group *)g + *(const size_t *)pa,
			      *y = (const struct rr_group *)g + *(const size_t *)pb;
	int c;
	if ((c = cmp_sum(x, y, 2)) || (c = cmp_sum(x, y, 3)))
		return c;
	for (int j = 0; j < 4; j++)
		if ((c = cmp_text(x->text[j], y->text[j])) != 0)
			return c;
	if ((c = cmp_opt(x, y, C_LINE - C_PROF)))
		return c;
	for (int i = C_RANK - C_PROF; i <= C_DEV - C_PROF; i++) {
		int64_t a = or_minus1(x, i), b = or_minus1(y, i);
		if (a != b)
			return (a > b) - (a < b);
	}
	return 0;
}

/* top_run_sql's share partition of two indexes into the groups g:
 * profiler, kind, coalesce(rank, -1). */
static int cmp_part(const void *pa, const void *pb, void *g)
{
	const struct rr_group *x = (const struct rr_group *)g + *(const size_t *)pa,
			      *y = (const struct rr_group *)g + *(const size_t *)pb;
	int64_t a[3] = { x->k[0], x->k[1], or_minus1(x, C_RANK - C_PROF) },
		b[3] = { y->k[0], y->k[1], or_minus1(y, C_RANK - C_PROF) };
	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return (a[i] > b[i]) - (a[i] < b[i]);
	return 0;
}

/* Each group's self time over its partition's (NAN when either is not
 * measured or the partition's is 0, as SQL's division by 0 is NULL);
 * ix: room for ng indexes. */
static int shares(struct rr *r, size_t *ix, struct amd_err *err)
{
	for (size_t i = 0; i < r->ng; i++)
		ix[i] = i;
	qsort_r(ix, r->ng, sizeof *ix, cmp_part, r->g);
	for (size_t a = 0, b; a < r->ng; a = b) {
		int64_t sum = 0;
		int any = 0;
		for (b = a; b < r->ng && cmp_part(&ix[a], &ix[b], r->g) == 0; b++) {
			const struct rr_group *g = &r->g[ix[b]];
			if (!(g->has >> 2 & 1))
				continue;
			if (__builtin_add_overflow(sum, g->sum[2], &sum))
				return amd_fail(err, "%s: region_pack row %lld: the sum of self_ns"
						" over a profiler and kind is past 64 bits",
						r->path, (long long)g->pack);
			any = 1;
		}
		for (size_t k = a; k < b; k++) {
			struct rr_group *g = &r->g[ix[k]];
			g->share = (g->has >> 2 & 1) && any && sum != 0
				? (double)g->sum[2] / (double)sum : NAN;
		}
	}
	return 0;
}

static char *dup_opt(const char *s, int *oom)
{
	char *d = s ? strdup(s) : NULL;
	*oom |= s && !d;
	return d;
}

/* Group g as a row of the list. */
static int to_row(const struct rr_group *g, struct amd_region_row *o)
{
	int oom = 0;
	memset(o, 0, sizeof *o);
	o->profiler = dup_opt(g->text[0], &oom);
	o->kind = dup_opt(g->text[1], &oom);
	o->name = dup_opt(g->text[2], &oom);
	o->file = dup_opt(g->text[3], &oom);
	o->line = g->nulls >> (C_LINE - C_PROF) & 1 ? 0 : (int)g->k[C_LINE - C_PROF];
	o->rank = (int)or_minus1(g, C_RANK - C_PROF);
	o->device = (int)or_minus1(g, C_DEV - C_PROF);
	o->n = -1;
	o->runs = g->runs;
	int64_t *v[SUMS] = { &o->calls, &o->prim_calls, &o->self_ns, &o->total_ns, &o->bytes };
	for (int k = 0; k < SUMS; k++)
		*v[k] = g->has >> k & 1 ? g->sum[k] : -1;
	o->share = g->share;
	return oom ? -1 : 0;
}

/* The groups ranked, shared and cut to limit into out. */
static int make_list(struct rr *r, size_t limit, struct amd_region_list *out,
		     struct amd_err *err)
{
	size_t *ix = malloc((r->ng + 1) * sizeof *ix);
	if (!ix)
		return amd_fail(err, "%s: out of memory", r->path);
	if (shares(r, ix, err) < 0) {
		free(ix);
		return -1;
	}
	for (size_t i = 0; i < r->ng; i++)
		ix[i] = i;
	qsort_r(ix, r->ng, sizeof *ix, cmp_rank, r->g);
	size_t n = limit && limit < r->ng ? limit : r->ng;
	out->v = calloc(n + 1, sizeof *out->v);
	int rc = out->v ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		rc = to_row(&r->g[ix[i]], &out->v[i]);
		out->n = i + 1;
	}
	free(ix);
	out->n_all = r->ng;
	if (rc < 0) {
		amd_region_list_free(out);
		return amd_fail(err, "%s: out of memory", r->path);
	}
	return 0;
}

int rr_top(struct amd_store *st, int64_t run_id, int64_t kind, int64_t profiler, size_t limit,
	   struct amd_region_list *out, struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	struct rr r = { .path = amd_store_path(st), .kind = kind, .profiler = profiler };
	int rc = load_runs(st, run_id, &r, err);
	if (rc == 0 && r.nruns) {
		struct rs_query q = { .ncols = NCOLS, .keep = rr_keep, .arg = &r,
				      .runs = r.run_ids, .nruns = r.nruns };
		const signed char cols[NCOLS] = { RS_PACK, RS_RUN, AMD_RG_PROFILER, AMD_RG_KIND,
						  AMD_RG_NAME, AMD_RG_FILE, AMD_RG_LINE,
						  AMD_RG_RANK, AMD_RG_DEVICE, AMD_RG_CALLS,
						  AMD_RG_PRIM, AMD_RG_SELF, AMD_RG_TOTAL,
						  AMD_RG_BYTES };
		memcpy(q.cols, cols, sizeof cols);
		rc = rs_scan(st, &q, add_rows, &r, err);
		if (rc < 0 && r.has_bad)
			*err = r.bad;
		if (rc == 0)
			rc = load_texts(st, &r, err);
		if (rc == 0)
			rc = make_list(&r, limit, out, err);
	}
	rr_free(&r);
	return rc;
}
