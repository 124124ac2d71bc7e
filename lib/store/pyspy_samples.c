/* store_pyspy.c — the py-spy queries of pyspy.h: resolving what the user
 * names, top functions by self and total samples (with the library
 * attribution), and the merged call trie. The store keeps stacks as a
 * trie per source (stack_node) with samples on leaves (stack_sample);
 * these functions load the selection's nodes once and walk them in C. */
#include "pyspy_samples.h"
#include "sqlite_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a small hash map from a few int64 to an index ---- */

#define KW 5 /* key width */

struct hmap {
	int64_t *keys;
	size_t *vals;
	size_t cap, n;
};

static uint64_t hash_key(const int64_t *k)
{
	uint64_t h = 1469598103934665603ULL;
	for (int i = 0; i < KW; i++) {
		h ^= (uint64_t)k[i];
		h *= 1099511628211ULL;
		h ^= h >> 29;
	}
	return h;
}

static int hmap_grow(struct hmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 1024;
	int64_t *keys = malloc(cap * KW * sizeof *keys);
	size_t *vals = malloc(cap * sizeof *vals);
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (size_t i = 0; i < cap; i++)
		vals[i] = SIZE_MAX;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->vals[i] == SIZE_MAX)
			continue;
		size_t j = hash_key(&m->keys[i * KW]) & (cap - 1);
		while (vals[j] != SIZE_MAX)
			j = (j + 1) & (cap - 1);
		memcpy(&keys[j * KW], &m->keys[i * KW], KW * sizeof *keys);
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

/* The index stored under k; when absent, stores fresh and returns it
 * (*added = 1). SIZE_MAX on out of memory. */
static size_t hmap_get(struct hmap *m, const int64_t *k, size_t fresh, int *added)
{
	*added = 0;
	if ((m->n + 1) * 2 > m->cap && hmap_grow(m) < 0)
		return SIZE_MAX;
	size_t j = hash_key(k) & (m->cap - 1);
	while (m->vals[j] != SIZE_MAX) {
		if (memcmp(&m->keys[j * KW], k, KW * sizeof *k) == 0)
			return m->vals[j];
		j = (j + 1) & (m->cap - 1);
	}
	memcpy(&m->keys[j * KW], k, KW * sizeof *k);
	m->vals[j] = fresh;
	m->n++;
	*added = 1;
	return fresh;
}

static void hmap_free(struct hmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

/* ---- resolving RUN ---- */

static int64_t one_id(struct amd_store *st, const char *sql, const char *text, int *count)
{
	sqlite3_stmt *q = amd_store_prepare(st, sql, NULL);
	int64_t id = 0;
	*count = 0;
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (!*count)
			id = sqlite3_column_int64(q, 0);
		(*count)++;
	}
	sqlite3_finalize(q);
	return id;
}

int amd_pyspy_resolve(struct amd_store *st, const char *what, struct amd_pyspy_sel *sel,
		      struct amd_err *err)
{
	memset(sel, 0, sizeof *sel);
	char real[PATH_MAX];
	int count;
	const char *paths[] = {what, realpath(what, real) ? real : NULL};
	for (int i = 0; i < 2; i++) {
		if (!paths[i])
			continue;
		int64_t id = one_id(st, "SELECT id FROM source WHERE path=?1", paths[i], &count);
		if (id > 0) {
			sel->source_id = id;
			snprintf(sel->label, sizeof sel->label, "%s", paths[i]);
			return 0;
		}
	}
	int64_t id = one_id(st, "SELECT id FROM run WHERE ext_id=?1", what, &count);
	if (id <= 0) {
		id = one_id(st, "SELECT id FROM run WHERE name=?1 ORDER BY start_ms DESC", what,
			    &count);
		if (count > 1)
			return amd_fail(err, "%s: %d runs have this name; name one by its id"
					" ('amdahl runs' lists them)", what, count);
	}
	if (id <= 0)
		return amd_fail(err, "%s: no run (name or id) or py-spy file of that path in the"
				" store", what);
	sel->run_id = id;
	snprintf(sel->label, sizeof sel->label, "%s", what);
	return 0;
}

int amd_pyspy_runs(struct amd_store *st, struct amd_pyspy_sel *out, size_t max,
		   struct amd_err *err)
{
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT run.id, CASE WHEN run.name IS NULL THEN run.ext_id"
		" ELSE run.name || ' (' || run.ext_id || ')' END FROM run WHERE run.id IN"
		" (SELECT DISTINCT run_id FROM stack_sample) ORDER BY run.start_ms DESC, run.id",
		err);
	if (!q)
		return -1;
	int n = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		if ((size_t)n < max) {
			memset(&out[n], 0, sizeof out[n]);
			out[n].run_id = sqlite3_column_int64(q, 0);
			snprintf(out[n].label, sizeof out[n].label, "%s",
				 (const char *)sqlite3_column_text(q, 1));
		}
		n++;
	}
	sqlite3_finalize(q);
	return n;
}

/* ---- loading the selection ---- */

struct node {
	int64_t id, frame_id, name_id, file_id;
	int line;
	size_t parent; /* index, SIZE_MAX for a root */
};

struct sample {
	size_t leaf;
	int64_t process_id, thread_id, samples;
	double seconds;
};

struct loaded {
	struct node *nodes;
	size_t n_nodes;
	struct sample *samples;
	size_t n_samples;
};

static const char *sel_where(const struct amd_pyspy_sel *sel)
{
	return sel->run_id > 0 ? "run_id=?1" : "source_id=?1";
}

static void bind_sel(sqlite3_stmt *q, const struct amd_pyspy_sel *sel)
{
	sqlite3_bind_int64(q, 1, sel->run_id > 0 ? sel->run_id : sel->source_id);
}

static int cmp_node_id(const void *key, const void *elem)
{
	int64_t k = *(const int64_t *)key, e = ((const struct node *)elem)->id;
	return k < e ? -1 : k > e;
}

static size_t node_index(const struct loaded *l, int64_t id)
{
	const struct node *n = bsearch(&id, l->nodes, l->n_nodes, sizeof *l->nodes, cmp_node_id);
	return n ? (size_t)(n - l->nodes) : SIZE_MAX;
}

static int load_nodes(struct amd_store *st, const struct amd_pyspy_sel *sel, struct loaded *l,
		      struct amd_err *err)
{
	char sql[512];
	snprintf(sql, sizeof sql,
		 "SELECT n.id, COALESCE(n.parent_id, 0), n.frame_id, f.name_id,"
		 " COALESCE(f.file_id, 0), COALESCE(f.line, 0) FROM stack_node n"
		 " JOIN frame f ON f.id=n.frame_id WHERE n.source_id IN"
		 " (SELECT DISTINCT source_id FROM stack_sample WHERE %s) ORDER BY n.id",
		 sel_where(sel));
	sqlite3_stmt *q = amd_store_prepare(st, sql, err);
	if (!q)
		return -1;
	bind_sel(q, sel);
	size_t cap = 0;
	int64_t *parent_ids = NULL;
	int rc = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (l->n_nodes == cap) {
			cap = cap ? 2 * cap : 1024;
			struct node *v = realloc(l->nodes, cap * sizeof *v);
			int64_t *p = realloc(parent_ids, cap * sizeof *p);
			if (v)
				l->nodes = v;
			if (p)
				parent_ids = p;
			if (!v || !p) {
				rc = amd_fail(err, "%s: out of memory", st->path);
				break;
			}
		}
		struct node *n = &l->nodes[l->n_nodes];
		n->id = sqlite3_column_int64(q, 0);
		parent_ids[l->n_nodes] = sqlite3_column_int64(q, 1);
		n->frame_id = sqlite3_column_int64(q, 2);
		n->name_id = sqlite3_column_int64(q, 3);
		n->file_id = sqlite3_column_int64(q, 4);
		n->line = sqlite3_column_int(q, 5);
		l->n_nodes++;
	}
	sqlite3_finalize(q);
	for (size_t i = 0; rc == 0 && i < l->n_nodes; i++)
		l->nodes[i].parent = parent_ids[i] ? node_index(l, parent_ids[i]) : SIZE_MAX;
	free(parent_ids);
	return rc;
}

static int load_samples(struct amd_store *st, const struct amd_pyspy_sel *sel,
			struct loaded *l, struct amd_err *err)
{
	char sql[256];
	snprintf(sql, sizeof sql,
		 "SELECT leaf_id, COALESCE(process_id, 0), COALESCE(thread_id, 0), samples,"
		 " seconds FROM stack_sample WHERE %s", sel_where(sel));
	sqlite3_stmt *q = amd_store_prepare(st, sql, err);
	if (!q)
		return -1;
	bind_sel(q, sel);
	size_t cap = 0;
	int rc = 0;
	while (rc == 0 && sqlite3_step(q) == SQLITE_ROW) {
		if (l->n_samples == cap) {
			cap = cap ? 2 * cap : 1024;
			struct sample *v = realloc(l->samples, cap * sizeof *v);
			if (!v) {
				rc = amd_fail(err, "%s: out of memory", st->path);
				break;
			}
			l->samples = v;
		}
		struct sample *s = &l->samples[l->n_samples];
		s->leaf = node_index(l, sqlite3_column_int64(q, 0));
		s->process_id = sqlite3_column_int64(q, 1);
		s->thread_id = sqlite3_column_int64(q, 2);
		s->samples = sqlite3_column_int64(q, 3);
		s->seconds = sqlite3_column_double(q, 4);
		if (s->leaf == SIZE_MAX)
			rc = amd_fail(err, "%s: a py-spy sample whose stack is missing", st->path);
		else
			l->n_samples++;
	}
	sqlite3_finalize(q);
	return rc;
}

static int load(struct amd_store *st, const struct amd_pyspy_sel *sel, struct loaded *l,
		struct amd_err *err)
{
	memset(l, 0, sizeof *l);
	if (load_nodes(st, sel, l, err) < 0 || load_samples(st, sel, l, err) < 0)
		return -1;
	return 0;
}

static void loaded_free(struct loaded *l)
{
	free(l->nodes);
	free(l->samples);
}

/* ---- strings ---- */

struct strtab {
	char ***v;
	size_t *n;
	size_t cap;
	struct hmap ids; /* dict id → index in *v */
};

static const char *dict_text(struct amd_store *st, struct strtab *t, int64_t id)
{
	if (id <= 0)
		return NULL;
	int64_t key[KW] = {id};
	int added;
	size_t ix = hmap_get(&t->ids, key, *t->n, &added);
	if (ix == SIZE_MAX)
		return NULL;
	if (!added)
		return (*t->v)[ix];
	if (*t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		char **nv = realloc(*t->v, t->cap * sizeof *nv);
		if (!nv)
			return NULL;
		*t->v = nv;
	}
	char *s = NULL;
	sqlite3_stmt *q = amd_store_prepare(st, "SELECT s FROM dict WHERE id=?1", NULL);
	if (q) {
		sqlite3_bind_int64(q, 1, id);
		if (sqlite3_step(q) == SQLITE_ROW)
			s = strdup((const char *)sqlite3_column_text(q, 0));
		sqlite3_finalize(q);
	}
	(*t->v)[(*t->n)++] = s;
	return s;
}

/* ---- top functions ---- */

struct row {
	int64_t key[KW]; /* process, thread, name, file, library frame */
	int64_t self_samples, total_samples;
	double self_seconds, total_seconds;
};

struct rows {
	struct row *v;
	size_t n, cap;
	struct hmap map;
};

static struct row *row_of(struct rows *r, const int64_t *key)
{
	int added;
	size_t ix = hmap_get(&r->map, key, r->n, &added);
	if (ix == SIZE_MAX)
		return NULL;
	if (!added)
		return &r->v[ix];
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		struct row *v = realloc(r->v, r->cap * sizeof *v);
		if (!v)
			return NULL;
		r->v = v;
	}
	struct row *w = &r->v[r->n++];
	memset(w, 0, sizeof *w);
	memcpy(w->key, key, sizeof w->key);
	return w;
}

/* Whether a file's path contains the library text (cached per id). */
static int in_library(struct amd_store *st, struct strtab *t, struct hmap *cache,
		      int64_t file_id, const char *library)
{
	if (file_id <= 0)
		return 0;
	int64_t key[KW] = {file_id};
	int added;
	const char *path = dict_text(st, t, file_id);
	size_t v = hmap_get(cache, key, path && strstr(path, library) ? 1 : 0, &added);
	return v == 1;
}

static int add_total(struct rows *r, const struct loaded *l, const struct sample *s,
		     const int64_t *group, size_t **seen, size_t *seen_cap)
{
	size_t n_seen = 0;
	for (size_t i = s->leaf; i != SIZE_MAX; i = l->nodes[i].parent) {
		const struct node *nd = &l->nodes[i];
		int dup = 0;
		for (size_t k = 0; k < n_seen && !dup; k++) {
			const struct node *o = &l->nodes[(*seen)[k]];
			dup = o->name_id == nd->name_id && o->file_id == nd->file_id;
		}
		if (dup)
			continue; /* recursion: once per stack */
		if (n_seen == *seen_cap) {
			*seen_cap = *seen_cap ? 2 * *seen_cap : 64;
			size_t *v = realloc(*seen, *seen_cap * sizeof *v);
			if (!v)
				return -1;
			*seen = v;
		}
		(*seen)[n_seen++] = i;
		int64_t key[KW] = {group[0], group[1], nd->name_id, nd->file_id, 0};
		struct row *w = row_of(r, key);
		if (!w)
			return -1;
		w->total_samples += s->samples;
		w->total_seconds += s->seconds;
	}
	return 0;
}

static int add_sample(struct amd_store *st, struct strtab *t, struct hmap *libcache,
		      struct rows *r, const struct loaded *l, const struct sample *s,
		      const struct amd_pyspy_top_opts *o, size_t **seen, size_t *seen_cap)
{
	int64_t group[2] = {o->per_thread ? s->process_id : 0, o->per_thread ? s->thread_id : 0};
	const struct node *leaf = &l->nodes[s->leaf];
	int64_t lib = 0;
	if (o->library)
		for (size_t i = s->leaf; i != SIZE_MAX && !lib; i = l->nodes[i].parent)
			if (in_library(st, t, libcache, l->nodes[i].file_id, o->library))
				lib = l->nodes[i].frame_id;
	int64_t key[KW] = {group[0], group[1], leaf->name_id, leaf->file_id, lib};
	struct row *w = row_of(r, key);
	if (!w)
		return -1;
	w->self_samples += s->samples;
	w->self_seconds += s->seconds;
	if (o->library)
		return 0;
	return add_total(r, l, s, group, seen, seen_cap);
}

static const struct amd_pyspy_top_opts *sort_opts;
static struct amd_store *sort_st;
static struct strtab *sort_tab;

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int64_t vx = sort_opts->order == AMD_PYSPY_TOTAL ? x->total_samples : x->self_samples;
	int64_t vy = sort_opts->order == AMD_PYSPY_TOTAL ? y->total_samples : y->self_samples;
	if (vx != vy)
		return vx > vy ? -1 : 1;
	for (int i = 0; i < KW; i++) {
		if (x->key[i] == y->key[i])
			continue;
		if (i == 2 || i == 3) { /* function name, file: alphabetical */
			const char *sx = dict_text(sort_st, sort_tab, x->key[i]);
			const char *sy = dict_text(sort_st, sort_tab, y->key[i]);
			int c = strcmp(sx ? sx : "", sy ? sy : "");
			if (c)
				return c;
		}
		return x->key[i] < y->key[i] ? -1 : 1;
	}
	return 0;
}

static int lib_frame(struct amd_store *st, struct strtab *t, int64_t frame_id,
		     struct amd_pyspy_fn *f)
{
	sqlite3_stmt *q = amd_store_prepare(st,
		"SELECT name_id, COALESCE(file_id, 0), COALESCE(line, 0) FROM frame WHERE id=?1",
		NULL);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, frame_id);
	if (sqlite3_step(q) == SQLITE_ROW) {
		f->lib_name = dict_text(st, t, sqlite3_column_int64(q, 0));
		f->lib_file = dict_text(st, t, sqlite3_column_int64(q, 1));
		f->lib_line = sqlite3_column_int(q, 2);
	}
	sqlite3_finalize(q);
	return 0;
}

static int fill_rows(struct amd_store *st, struct strtab *t, struct rows *r,
		     const struct amd_pyspy_top_opts *o, struct amd_pyspy_top *out,
		     struct amd_err *err)
{
	sort_opts = o;
	sort_st = st;
	sort_tab = t;
	if (r->n)
		qsort(r->v, r->n, sizeof *r->v, cmp_row);
	out->n_all = r->n;
	out->n = o->limit && o->limit < r->n ? o->limit : r->n;
	out->v = calloc(out->n ? out->n : 1, sizeof *out->v);
	if (!out->v)
		return amd_fail(err, "%s: out of memory", st->path);
	for (size_t i = 0; i < out->n; i++) {
		const struct row *w = &r->v[i];
		struct amd_pyspy_fn *f = &out->v[i];
		f->process = dict_text(st, t, w->key[0]);
		f->thread = dict_text(st, t, w->key[1]);
		f->name = dict_text(st, t, w->key[2]);
		f->file = dict_text(st, t, w->key[3]);
		if (w->key[4] && lib_frame(st, t, w->key[4], f) < 0)
			return amd_fail(err, "%s: %s", st->path, sqlite3_errmsg(st->db));
		f->self_samples = w->self_samples;
		f->self_seconds = w->self_seconds;
		f->total_samples = w->total_samples;
		f->total_seconds = w->total_seconds;
		if (!f->name)
			return amd_fail(err, "%s: a frame name missing from the dictionary", st->path);
	}
	return 0;
}

static void count_threads(const struct loaded *l, struct amd_pyspy_top *out)
{
	struct hmap m = {0};
	for (size_t i = 0; i < l->n_samples; i++) {
		int64_t key[KW] = {l->samples[i].process_id, l->samples[i].thread_id};
		int added;
		hmap_get(&m, key, 0, &added);
		out->samples += l->samples[i].samples;
		out->seconds += l->samples[i].seconds;
	}
	out->threads = m.n;
	hmap_free(&m);
}

static size_t count_sources(struct amd_store *st, const struct amd_pyspy_sel *sel)
{
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT COUNT(DISTINCT source_id) FROM stack_sample WHERE %s",
		 sel_where(sel));
	sqlite3_stmt *q = amd_store_prepare(st, sql, NULL);
	size_t n = 0;
	if (q) {
		bind_sel(q, sel);
		if (sqlite3_step(q) == SQLITE_ROW)
			n = (size_t)sqlite3_column_int64(q, 0);
		sqlite3_finalize(q);
	}
	return n;
}

int amd_pyspy_top_query(struct amd_store *st, const struct amd_pyspy_sel *sel,
			const struct amd_pyspy_top_opts *o, struct amd_pyspy_top *out,
			struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	struct loaded l;
	struct rows r = {0};
	struct hmap libcache = {0};
	struct strtab t = {.v = &out->strings, .n = &out->n_strings};
	size_t *seen = NULL, seen_cap = 0;
	int rc = load(st, sel, &l, err);
	for (size_t i = 0; rc == 0 && i < l.n_samples; i++)
		if (add_sample(st, &t, &libcache, &r, &l, &l.samples[i], o, &seen, &seen_cap) < 0)
			rc = amd_fail(err, "%s: out of memory", st->path);
	if (rc == 0) {
		count_threads(&l, out);
		out->sources = count_sources(st, sel);
		rc = fill_rows(st, &t, &r, o, out, err);
	}
	free(seen);
	free(r.v);
	hmap_free(&r.map);
	hmap_free(&libcache);
	hmap_free(&t.ids);
	loaded_free(&l);
	if (rc < 0)
		amd_pyspy_top_free(out);
	return rc;
}

void amd_pyspy_top_free(struct amd_pyspy_top *t)
{
	for (size_t i = 0; i < t->n_strings; i++)
		free(t->strings[i]);
	free(t->strings);
	free(t->v);
	memset(t, 0, sizeof *t);
}

/* ---- the merged trie ---- */

struct mnode {
	size_t parent; /* SIZE_MAX: root */
	int64_t frame_id, name_id, file_id;
	int line;
	int64_t total, self;
	double total_s, self_s;
	size_t first_child, next_sibling; /* SIZE_MAX: none */
};

static const struct mnode *cmp_nodes;

static int cmp_child(const void *a, const void *b)
{
	const struct mnode *x = &cmp_nodes[*(const size_t *)a], *y = &cmp_nodes[*(const size_t *)b];
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->frame_id < y->frame_id ? -1 : x->frame_id > y->frame_id;
}

/* Merges the sources' tries by path; map[i] = merged index of node i. */
static int merge_nodes(const struct loaded *l, struct mnode **out, size_t *n, size_t *map)
{
	struct hmap m = {0};
	*out = calloc(l->n_nodes ? l->n_nodes : 1, sizeof **out);
	if (!*out)
		return -1;
	*n = 0;
	for (size_t i = 0; i < l->n_nodes; i++) {
		const struct node *nd = &l->nodes[i];
		size_t parent = nd->parent == SIZE_MAX ? SIZE_MAX : map[nd->parent];
		int64_t key[KW] = {(int64_t)parent, nd->frame_id};
		int added;
		size_t ix = hmap_get(&m, key, *n, &added);
		if (ix == SIZE_MAX) {
			hmap_free(&m);
			return -1;
		}
		if (added) {
			struct mnode *w = &(*out)[(*n)++];
			w->parent = parent;
			w->frame_id = nd->frame_id;
			w->name_id = nd->name_id;
			w->file_id = nd->file_id;
			w->line = nd->line;
			w->first_child = w->next_sibling = SIZE_MAX;
		}
		map[i] = ix;
	}
	hmap_free(&m);
	return 0;
}

/* Preorder with children by decreasing total: order[k] = merged index. */
static int preorder(struct mnode *v, size_t n, size_t *order)
{
	size_t *kids = malloc((n ? n : 1) * sizeof *kids);
	size_t *stack = malloc((n ? n : 1) * sizeof *stack);
	if (!kids || !stack) {
		free(kids);
		free(stack);
		return -1;
	}
	cmp_nodes = v;
	/* roots, sorted, pushed in reverse so the largest pops first */
	size_t nk = 0, top = 0, k = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].parent == SIZE_MAX)
			kids[nk++] = i;
	qsort(kids, nk, sizeof *kids, cmp_child);
	for (size_t i = nk; i-- > 0;)
		stack[top++] = kids[i];
	/* child lists: link each node to its parent */
	for (size_t i = n; i-- > 0;)
		if (v[i].parent != SIZE_MAX) {
			v[i].next_sibling = v[v[i].parent].first_child;
			v[v[i].parent].first_child = i;
		}
	while (top) {
		size_t cur = stack[--top];
		order[k++] = cur;
		nk = 0;
		for (size_t c = v[cur].first_child; c != SIZE_MAX; c = v[c].next_sibling)
			kids[nk++] = c;
		qsort(kids, nk, sizeof *kids, cmp_child);
		for (size_t i = nk; i-- > 0;)
			stack[top++] = kids[i];
	}
	free(kids);
	free(stack);
	return 0;
}

static int trie_out(struct amd_store *st, struct mnode *v, size_t n, const size_t *order,
		    struct amd_pyspy_trie *out)
{
	struct strtab t = {.v = &out->strings, .n = &out->n_strings};
	size_t *pos = malloc((n ? n : 1) * sizeof *pos);
	out->v = calloc(n ? n : 1, sizeof *out->v);
	if (!pos || !out->v) {
		free(pos);
		hmap_free(&t.ids);
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		pos[order[k]] = k;
	for (size_t k = 0; k < n; k++) {
		const struct mnode *m = &v[order[k]];
		struct amd_pyspy_node *o = &out->v[k];
		o->parent = m->parent == SIZE_MAX ? -1 : (int64_t)pos[m->parent];
		o->depth = o->parent < 0 ? 0 : out->v[o->parent].depth + 1;
		o->name = dict_text(st, &t, m->name_id);
		o->file = dict_text(st, &t, m->file_id);
		o->line = m->line;
		o->total_samples = m->total;
		o->self_samples = m->self;
		o->total_seconds = m->total_s;
		o->self_seconds = m->self_s;
		if (o->parent < 0) {
			out->samples += m->total;
			out->seconds += m->total_s;
		}
	}
	out->n = n;
	free(pos);
	hmap_free(&t.ids);
	return 0;
}

int amd_pyspy_trie_query(struct amd_store *st, const struct amd_pyspy_sel *sel,
			 struct amd_pyspy_trie *out, struct amd_err *err)
{
	memset(out, 0, sizeof *out);
	struct loaded l;
	struct mnode *v = NULL;
	size_t n = 0, *map = NULL, *order = NULL;
	int rc = load(st, sel, &l, err);
	if (rc == 0) {
		map = malloc((l.n_nodes ? l.n_nodes : 1) * sizeof *map);
		if (!map || merge_nodes(&l, &v, &n, map) < 0)
			rc = amd_fail(err, "%s: out of memory", st->path);
	}
	for (size_t i = 0; rc == 0 && i < l.n_samples; i++) {
		const struct sample *s = &l.samples[i];
		size_t m = map[s->leaf];
		v[m].self += s->samples;
		v[m].self_s += s->seconds;
		for (; m != SIZE_MAX; m = v[m].parent) {
			v[m].total += s->samples;
			v[m].total_s += s->seconds;
		}
	}
	if (rc == 0) {
		order = malloc((n ? n : 1) * sizeof *order);
		if (!order || preorder(v, n, order) < 0 || trie_out(st, v, n, order, out) < 0)
			rc = amd_fail(err, "%s: out of memory", st->path);
	}
	free(order);
	free(map);
	free(v);
	loaded_free(&l);
	if (rc < 0)
		amd_pyspy_trie_free(out);
	return rc;
}

void amd_pyspy_trie_free(struct amd_pyspy_trie *t)
{
	for (size_t i = 0; i < t->n_strings; i++)
		free(t->strings[i]);
	free(t->strings);
	free(t->v);
	memset(t, 0, sizeof *t);
}
