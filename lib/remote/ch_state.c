/* ch_state.c — a unit's state against the committed sources of a
 * ClickHouse store (ch_state.h). The server answers, for each path it
 * asks about, the sha256 of the path's latest commit; a unit is SAME or
 * CHANGED by its own path's row, else DUPLICATE when a path that puts
 * them in its run holds its bytes, else NEW. One unit's rows come from
 * one query (its path, and the paths holding its bytes: push, an ingest
 * into a store too large to list); an ingest batch's from one list,
 * made at the batch's first question (ch_target.c): 16 one-run units ask
 * once, not 32 times. The list holds every path, or, when the units to
 * come are expected (amd_ch_sources_expect), only theirs and those
 * holding their bytes. */
#include "ch_state.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "buf.h"
#include "ch_ship.h"
#include "clickhouse.h"
#include "file.h"

/* A path (len bytes, NUL after them) and its latest commit's sha256
 * ("" for a forgotten path: ch_ship.h). */
struct ch_source_row {
	const char *path;
	size_t len;
	const char *sha;
};

/* A path and the sha256 of its latest commit, for the paths chosen
 * between the two (query_rows reads these rows). */
#define LATEST_HEAD "SELECT hex(path), argMax(sha256, (committed_ns, id)) FROM source"
#define LATEST_TAIL " GROUP BY path"
/* ... of each path that is path or holds sha */
#define STATE_SQL LATEST_HEAD " WHERE path = %s OR path IN (SELECT path FROM source WHERE" \
	" sha256 = %s)" LATEST_TAIL " FORMAT TabSeparated"
/* ... of every path, one more than a list takes */
#define LIST_TAIL LATEST_TAIL " LIMIT %d FORMAT TabSeparated"
#define LIST_SQL LATEST_HEAD LIST_TAIL

static int by_path(const void *x, const void *y)
{
	const struct ch_source_row *a = x, *b = y;
	int c = memcmp(a->path, b->path, a->len < b->len ? a->len : b->len);
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

static int by_sha(const void *x, const void *y)
{
	return strcmp((*(struct ch_source_row *const *)x)->sha,
		      (*(struct ch_source_row *const *)y)->sha);
}

void amd_ch_sources_free(struct amd_ch_sources *l)
{
	free(l->text);
	free(l->paths);
	free(l->rows);
	free(l->by_sha);
	*l = (struct amd_ch_sources){.too_many = l->too_many, .exp_paths = l->exp_paths,
				     .exp_shas = l->exp_shas, .nexp_paths = l->nexp_paths,
				     .nexp_shas = l->nexp_shas};
}

static void strings_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void amd_ch_sources_release(struct amd_ch_sources *l)
{
	strings_free(l->exp_paths, l->nexp_paths);
	strings_free(l->exp_shas, l->nexp_shas);
	l->exp_paths = l->exp_shas = NULL;
	l->nexp_paths = l->nexp_shas = 0;
	amd_ch_sources_free(l);
}

static int by_string(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Copies of the n non-NULL strings of v, sorted, into *out; -1. */
static int strings_copy(const char *const *v, size_t n, char ***out, size_t *nout)
{
	*out = calloc(n ? n : 1, sizeof **out);
	*nout = 0;
	if (!*out)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (v[i] && !((*out)[(*nout)++] = strdup(v[i])))
			return -1;
	qsort(*out, *nout, sizeof **out, by_string);
	return 0;
}

int amd_ch_sources_expect(struct amd_ch_sources *l, const char *const *paths,
			  const char *const *shas, size_t n)
{
	amd_ch_sources_release(l);
	l->too_many = 0; /* each bounded list is tried */
	if (!n)
		return 0;
	if (strings_copy(paths, n, &l->exp_paths, &l->nexp_paths) < 0 ||
	    strings_copy(shas, n, &l->exp_shas, &l->nexp_shas) < 0) {
		amd_ch_sources_release(l);
		return -1;
	}
	return 0;
}

/* The list answers for (path, sha): every path is listed, or path and
 * sha ("" when not hashed: the path alone) are among the expected. */
static int expected(const struct amd_ch_sources *l, const char *path, const char *sha)
{
	if (!l->exp_paths)
		return 1;
	return bsearch(&path, l->exp_paths, l->nexp_paths, sizeof path, by_string) &&
	       (!*sha || bsearch(&sha, l->exp_shas, l->nexp_shas, sizeof sha, by_string));
}

/* The rows of the server's answer (l->text, "hex(path)\tsha256" lines,
 * cut in place) into l, sorted both ways; -1 with err, naming the path
 * asked about. Paths come as hex: TSV would escape a tab, newline or
 * backslash, and they are compared byte for byte. */
static int parse_rows(struct amd_ch *ch, struct amd_ch_sources *l, const char *path,
		      struct amd_err *err)
{
	size_t n = 0, room = 0;
	for (const char *p = l->text; *p; p++)
		n += *p == '\n';
	room = strlen(l->text) / 2 + n;
	if (!(l->rows = calloc(n + 1, sizeof *l->rows)) ||
	    !(l->by_sha = calloc(n + 1, sizeof *l->by_sha)) || !(l->paths = malloc(room + 1)))
		return amd_fail(err, "%s: out of memory", path);
	unsigned char *at = l->paths;
	for (char *line = l->text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		char *tab = nl ? memchr(line, '\t', (size_t)(nl - line)) : NULL;
		if (!tab)
			return amd_fail(err, "%s: %s: a line without a path and its bytes in"
					" the server's answer", path, amd_ch_name(ch));
		*tab = *nl = '\0';
		size_t len = 0;
		if (*line && !OPENSSL_hexstr2buf_ex(at, (size_t)(tab - line) / 2, &len, line, '\0'))
			return amd_fail(err, "%s: %s: a path that is not hex in the server's"
					" answer", path, amd_ch_name(ch));
		at[len] = '\0';
		l->rows[l->n++] = (struct ch_source_row){(const char *)at, len, tab + 1};
		at += len + 1;
	}
	qsort(l->rows, l->n, sizeof *l->rows, by_path);
	for (size_t i = 0; i < l->n; i++)
		l->by_sha[i] = &l->rows[i];
	qsort(l->by_sha, l->n, sizeof *l->by_sha, by_sha);
	return 0;
}

/* The rows of the answer to sql, asked about path, into l; -1 with err. */
static int query_rows(struct amd_ch *ch, const char *sql, struct amd_ch_sources *l,
		      const char *path, struct amd_err *err)
{
	struct amd_buf out = {0};
	int rc = amd_ch_query(ch, sql, &out, err);
	if (rc == 0 && amd_buf_append(&out, "", 1) < 0)
		rc = amd_fail(err, "%s: out of memory", path);
	if (rc < 0) {
		amd_buf_free(&out);
		return -1;
	}
	l->text = out.data;
	return parse_rows(ch, l, path, err);
}

/* The state of (path, sha) by the rows of l (see the head comment). */
static int state_of(const struct amd_ch_sources *l, const char *path, const char *sha,
		    amd_same_run_fn *same)
{
	struct ch_source_row key = {path, strlen(path), sha};
	const struct ch_source_row *own = bsearch(&key, l->rows, l->n, sizeof *l->rows, by_path);
	if (own) /* a forgotten path (sha256 "") is new again */
		return strcmp(own->sha, sha) == 0 ? AMD_SOURCE_SAME
		     : own->sha[0]		   ? AMD_SOURCE_CHANGED : AMD_SOURCE_NEW;
	const struct ch_source_row *pk = &key;
	struct ch_source_row *const *hit = bsearch(&pk, l->by_sha, l->n, sizeof *l->by_sha, by_sha);
	if (!hit)
		return AMD_SOURCE_NEW;
	while (hit > l->by_sha && strcmp(hit[-1]->sha, sha) == 0)
		hit--;
	/* the same bytes at another path: this file when that path puts
	 * them in the same run (sink.h) */
	for (; hit < l->by_sha + l->n && strcmp((*hit)->sha, sha) == 0; hit++)
		if ((same ? same : amd_same_run_folder)((*hit)->path, path))
			return AMD_SOURCE_DUPLICATE;
	return AMD_SOURCE_NEW;
}

int amd_ch_source_state(struct amd_ch *ch, const char *path, const char *sha,
			amd_same_run_fn *same, struct amd_err *err)
{
	struct amd_buf qp = {0}, qs = {0}, sql = {0};
	struct amd_ch_sources l = {0};
	int state = -1;
	if (amd_ch_quote(&qp, path) < 0 || amd_ch_quote(&qs, sha) < 0 ||
	    amd_buf_append(&qp, "", 1) < 0 || amd_buf_append(&qs, "", 1) < 0 ||
	    amd_buf_printf(&sql, STATE_SQL, qp.data, qs.data) < 0)
		amd_fail(err, "%s: out of memory", path);
	else if (query_rows(ch, sql.data, &l, path, err) == 0)
		state = state_of(&l, path, sha, same);
	amd_ch_sources_free(&l);
	amd_buf_free(&qp);
	amd_buf_free(&qs);
	amd_buf_free(&sql);
	return state;
}

/* Appends ", "-separated literals of v[0..n) to b; -1. */
static int quoted_list(struct amd_buf *b, char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((i && amd_buf_append(b, ", ", 2) < 0) || amd_ch_quote(b, v[i]) < 0)
			return -1;
	return 0;
}

/* LIST_SQL, of the expected units only when there are some (the WHERE
 * of STATE_SQL for all of them). */
static int list_sql(struct amd_buf *sql, const struct amd_ch_sources *l)
{
	if (!l->exp_paths)
		return amd_buf_printf(sql, LIST_SQL, AMD_CH_SOURCES_MAX + 1) < 0 ? -1 : 0;
	int bad = amd_buf_printf(sql, LATEST_HEAD " WHERE path IN (") < 0 ||
		  quoted_list(sql, l->exp_paths, l->nexp_paths) < 0 ||
		  amd_buf_append(sql, ")", 1) < 0;
	if (!bad && l->nexp_shas)
		bad = amd_buf_printf(sql, " OR path IN (SELECT path FROM source WHERE sha256 IN (") < 0 ||
		      quoted_list(sql, l->exp_shas, l->nexp_shas) < 0 ||
		      amd_buf_append(sql, "))", 2) < 0;
	return bad || amd_buf_printf(sql, LIST_TAIL, AMD_CH_SOURCES_MAX + 1) < 0 ? -1 : 0;
}

/* Lists every path of the store (or the expected units') into l, or
 * sets l->too_many; -1 with err naming the path asked about. */
static int list_sources(struct amd_ch *ch, struct amd_ch_sources *l, const char *path,
			struct amd_err *err)
{
	struct amd_buf sql = {0};
	if (list_sql(&sql, l) < 0 || amd_buf_append(&sql, "", 1) < 0) {
		amd_buf_free(&sql);
		return amd_fail(err, "%s: out of memory", path);
	}
	int rc = query_rows(ch, sql.data, l, path, err);
	amd_buf_free(&sql);
	int many = rc == 0 && l->n > AMD_CH_SOURCES_MAX;
	if (rc < 0 || many)
		amd_ch_sources_free(l);
	l->listed = rc == 0 && !many;
	l->too_many = many;
	return rc;
}

int amd_ch_listed_state(struct amd_ch *ch, struct amd_ch_sources *l, const char *path,
			const char *sha, amd_same_run_fn *same, struct amd_err *err)
{
	if (!expected(l, path, sha))
		return amd_ch_source_state(ch, path, sha, same, err);
	if (l->listed && l->asked >= AMD_CH_SOURCES_ASKS)
		amd_ch_sources_free(l);
	if (!l->listed && !l->too_many && list_sources(ch, l, path, err) < 0)
		return -1;
	l->asked++;
	return l->too_many ? amd_ch_source_state(ch, path, sha, same, err)
			   : state_of(l, path, sha, same);
}
