/* selector.c — run selectors (selector.h): parsing `KEY OP VALUE,…`, a
 * run's value for a key (params and tags read here), whether a value
 * satisfies a term, and amd_select_runs. Why a selector picks nothing,
 * with the closest names, is selector_hint.c; grouping, selector_group.c. */
#include "selector.h"
#include "sqlite_int.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "buf.h"
#include "isotime.h"
#include "num.h"
#include "selector_hint.h"

static const char *const plain_keys[] = {
	[AMD_SEL_SWEEP] = "sweep", [AMD_SEL_STRATEGY] = "strategy", [AMD_SEL_NAME] = "name",
	[AMD_SEL_ID] = "id", [AMD_SEL_STATUS] = "status", [AMD_SEL_N] = "n",
	[AMD_SEL_NODES] = "nodes", [AMD_SEL_REPEAT] = "repeat", [AMD_SEL_SINCE] = "since",
	[AMD_SEL_UNTIL] = "until", [AMD_SEL_PARAM] = "param.NAME", [AMD_SEL_TAG] = "tag.NAME",
};
#define NPLAIN_KEYS (sizeof plain_keys / sizeof plain_keys[0])

/* A selector's first term starts with a key — letters, digits, '_', '-'
 * and '.' (param.NAME) — then an operator; SWEEP:STRATEGY whose strategy
 * holds '<' or '=' is not one (the ':' is no key character). */
int amd_selector_is(const char *text)
{
	const char *op = text ? strpbrk(text, "=<>~!") : NULL;
	if (!op)
		return 0;
	while (*text == ' ')
		text++;
	const char *end = op;
	while (end > text && end[-1] == ' ')
		end--;
	if (end == text)
		return 0;
	for (const char *p = text; p < end; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
			return 0;
	return *op != '!' || op[1] == '=';
}

int amd_store_selector_is(struct amd_store *st, const char *text)
{
	if (!amd_selector_is(text))
		return 0;
	struct amd_err ignored = {{0}}; /* a failed look-up: a selector, as before */
	return amd_store_first_id(st, "SELECT id FROM sweep WHERE name=?1", text, NULL, &ignored) <= 0;
}

/* "YYYY-MM-DD[THH:MM[:SS]][Z]" (also a blank for T) in UTC, to ms. */
/* since/until: an ISO 8601 date or time, zone offsets allowed
 * (isotime.h, the MLflow CSV reader's too), as epoch ms. */
static int parse_date(const char *s, double *ms)
{
	int64_t v;
	if (amd_parse_iso_time_ms(s, &v) < 0)
		return -1;
	*ms = (double)v;
	return 0;
}

static int parse_key(struct amd_sel_term *t, const char *key, size_t len, const char *sel,
		     struct amd_err *err)
{
	for (size_t k = 0; k < NPLAIN_KEYS; k++)
		if (k != AMD_SEL_PARAM && k != AMD_SEL_TAG && strlen(plain_keys[k]) == len &&
		    strncmp(plain_keys[k], key, len) == 0) {
			t->key = (enum amd_sel_key)k;
			return 0;
		}
	size_t pre = strncmp(key, "param.", 6) == 0 ? 6 : strncmp(key, "tag.", 4) == 0 ? 4 : 0;
	if (pre && len > pre) {
		t->key = pre == 6 ? AMD_SEL_PARAM : AMD_SEL_TAG;
		return (t->name = strndup(key + pre, len - pre)) ? 0 : amd_fail(err, "out of memory");
	}
	char *k = strndup(key, len);
	if (!k)
		return amd_fail(err, "out of memory");
	char near[256];
	sel_closest(k, plain_keys, NPLAIN_KEYS, near, sizeof near);
	amd_fail(err, "selector '%s': unknown key '%s'%s (keys: sweep, strategy, name, id, status,"
		 " n, nodes, repeat, since, until, param.NAME, tag.NAME)", sel, k, near);
	free(k);
	return -1;
}

static const char *parse_op(const char *p, enum amd_sel_op *op)
{
	static const struct { const char *s; enum amd_sel_op op; } ops[] = {
		{"!=", AMD_SEL_NE}, {"<=", AMD_SEL_LE}, {">=", AMD_SEL_GE}, {"=", AMD_SEL_EQ},
		{"<", AMD_SEL_LT}, {">", AMD_SEL_GT}, {"~", AMD_SEL_GLOB},
	};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strncmp(p, ops[i].s, strlen(ops[i].s)) == 0) {
			*op = ops[i].op;
			return p + strlen(ops[i].s);
		}
	return NULL;
}

/* What the key and operator ask of the value. */
static int check_value(struct amd_sel_term *t, const char *sel, struct amd_err *err)
{
	int order = t->op == AMD_SEL_LT || t->op == AMD_SEL_LE || t->op == AMD_SEL_GT ||
		    t->op == AMD_SEL_GE;
	t->numeric = amd_parse_double(t->value, &t->num) == 0 && amd_num_ok(t->num);
	if (t->key == AMD_SEL_SINCE || t->key == AMD_SEL_UNTIL) {
		if (t->op != AMD_SEL_EQ)
			return amd_fail(err, "selector '%s': term '%s': since and until take '=' "
					"(since=2026-01-31 means started on or after)", sel, t->text);
		if (parse_date(t->value, &t->num) < 0)
			return amd_fail(err, "selector '%s': term '%s': '%s' is not a date "
					"YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM|+HHMM|+HH] (no zone: UTC)",
					sel, t->text, t->value);
		t->numeric = 1;
		return 0;
	}
	if (order && !t->numeric)
		return amd_fail(err, "selector '%s': term '%s': '%s' is not a number (<, <=, >, >= "
				"compare numbers)", sel, t->text, t->value);
	int numkey = t->key == AMD_SEL_N || t->key == AMD_SEL_NODES || t->key == AMD_SEL_REPEAT;
	if (numkey && t->op != AMD_SEL_GLOB && !t->numeric)
		return amd_fail(err, "selector '%s': term '%s': '%s' is not a number", sel, t->text,
				t->value);
	if (t->key == AMD_SEL_STATUS && t->op != AMD_SEL_GLOB) {
		for (char *c = t->value; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		if (amd_status_parse(t->value) == 0 && strcmp(t->value, "UNKNOWN") != 0)
			return amd_fail(err, "selector '%s': term '%s': no status '%s' (FINISHED, FAILED,"
					" KILLED, RUNNING, SCHEDULED, UNKNOWN)", sel, t->text, t->value);
	}
	return 0;
}

static int parse_term(struct amd_sel_term *t, const char *s, size_t len, const char *sel,
		      struct amd_err *err)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (!(t->text = strndup(s, len)))
		return amd_fail(err, "out of memory");
	if (!len)
		return amd_fail(err, "selector '%s': an empty term (terms are KEY=VALUE joined by"
				" commas)", sel);
	size_t klen = strcspn(t->text, "!<>=~");
	if (klen == 0 || !t->text[klen])
		return amd_fail(err, "selector '%s': term '%s' is not KEY OP VALUE (OP one of = != < "
				"<= > >= ~)", sel, t->text);
	const char *v = parse_op(t->text + klen, &t->op);
	if (!v)
		return amd_fail(err, "selector '%s': term '%s': no operator after '%.*s' (= != < <= >"
				" >= ~)", sel, t->text, (int)klen, t->text);
	if (!*v)
		return amd_fail(err, "selector '%s': term '%s' has no value", sel, t->text);
	if (parse_key(t, t->text, klen, sel, err) < 0)
		return -1;
	if (!(t->value = strdup(v)))
		return amd_fail(err, "out of memory");
	return check_value(t, sel, err);
}

int amd_selector_parse(const char *text, struct amd_selector **out, struct amd_err *err)
{
	*out = NULL;
	struct amd_selector *s = calloc(1, sizeof *s);
	if (!s || !(s->text = strdup(text))) {
		free(s);
		return amd_fail(err, "out of memory");
	}
	size_t cap = 0;
	for (const char *p = text;; p++) {
		size_t len = strcspn(p, ",");
		if (amd_grow(&s->terms, s->nterms, &cap, sizeof *s->terms, 4) < 0) {
			amd_selector_free(s);
			return amd_fail(err, "out of memory");
		}
		struct amd_sel_term *t = &s->terms[s->nterms++];
		memset(t, 0, sizeof *t);
		if (parse_term(t, p, len, text, err) < 0) {
			amd_selector_free(s);
			return -1;
		}
		p += len;
		if (!*p)
			break;
	}
	*out = s;
	return 0;
}

void amd_selector_free(struct amd_selector *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nterms; i++) {
		free(s->terms[i].name);
		free(s->terms[i].value);
		free(s->terms[i].text);
	}
	free(s->terms);
	free(s->text);
	free(s);
}

const char *amd_selector_eq(const struct amd_selector *s, const char *key)
{
	for (size_t i = 0; s && i < s->nterms; i++)
		if (s->terms[i].op == AMD_SEL_EQ && s->terms[i].key < AMD_SEL_PARAM &&
		    strcmp(plain_keys[s->terms[i].key], key) == 0)
			return s->terms[i].value;
	return NULL;
}

static int dup_text(const char *s, char **out, struct amd_err *err)
{
	*out = NULL;
	if (s && !(*out = strdup(s)))
		return amd_fail(err, "out of memory");
	return 0;
}

static int dup_num(long long v, int known, char **out, struct amd_err *err)
{
	char b[32];
	snprintf(b, sizeof b, "%lld", v);
	return dup_text(known ? b : NULL, out, err);
}

int amd_sel_value(struct amd_store *st, const struct amd_sel_term *t,
		  const struct amd_run_view *r, char **out, struct amd_err *err)
{
	switch (t->key) {
	case AMD_SEL_SWEEP: return dup_text(r->sweep, out, err);
	case AMD_SEL_STRATEGY: return dup_text(r->strategy, out, err);
	case AMD_SEL_NAME: return dup_text(r->name, out, err);
	case AMD_SEL_ID: return dup_text(r->ext_id, out, err);
	case AMD_SEL_STATUS: return dup_text(amd_status_name(r->status), out, err);
	case AMD_SEL_N: return dup_num(r->n, r->n != 0, out, err);
	case AMD_SEL_NODES: return dup_num(r->nodes, r->nodes != 0, out, err);
	case AMD_SEL_REPEAT: return dup_num(r->repeat, 1, out, err);
	case AMD_SEL_SINCE:
	case AMD_SEL_UNTIL: return dup_num(r->start_ms, r->start_ms != 0, out, err);
	case AMD_SEL_PARAM: return amd_run_param_find(st, r->id, t->name, out, err);
	case AMD_SEL_TAG: return amd_run_tag_find(st, r->id, t->name, out, err);
	}
	*out = NULL;
	return 0;
}

int amd_sel_term_holds(const struct amd_sel_term *t, const char *value)
{
	if (!value)
		return 0;
	double v;
	int num = amd_parse_double(value, &v) == 0 && amd_num_ok(v);
	switch (t->op) {
	case AMD_SEL_GLOB: return fnmatch(t->value, value, FNM_EXTMATCH) == 0; /* @(a|b) too */
	case AMD_SEL_EQ:
	case AMD_SEL_NE: {
		int eq = t->numeric && num && t->key != AMD_SEL_SINCE && t->key != AMD_SEL_UNTIL
			 ? v == t->num : strcmp(value, t->value) == 0;
		if (t->key == AMD_SEL_SINCE)
			return num && v >= t->num;
		if (t->key == AMD_SEL_UNTIL)
			return num && v < t->num;
		return t->op == AMD_SEL_EQ ? eq : !eq;
	}
	case AMD_SEL_LT: return num && v < t->num;
	case AMD_SEL_LE: return num && v <= t->num;
	case AMD_SEL_GT: return num && v > t->num;
	case AMD_SEL_GE: return num && v >= t->num;
	}
	return 0;
}

int amd_selector_match(struct amd_store *st, const struct amd_selector *s,
		       const struct amd_run_view *r, int *match, struct amd_err *err)
{
	*match = 1;
	for (size_t i = 0; *match && i < s->nterms; i++) {
		char *v;
		if (amd_sel_value(st, &s->terms[i], r, &v, err) < 0)
			return -1;
		*match = amd_sel_term_holds(&s->terms[i], v);
		free(v);
	}
	return 0;
}

/* Keeps the runs keep[] marks at the front of v, releasing the others. */
static size_t compact(struct amd_run_view *v, size_t n, const int *keep)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		if (keep[i])
			v[kept++] = v[i];
		else
			amd_run_view_release(&v[i]);
	}
	return kept;
}

static int select_in(struct amd_store *st, const char *text, struct amd_run_view **out,
		     size_t *n, struct amd_err *why, struct amd_err *err);

int amd_id_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

int amd_select_run_ids(struct amd_store *st, const char *text, int64_t **ids, size_t *n,
		       struct amd_err *err)
{
	struct amd_run_view *v;
	*ids = NULL;
	if (amd_select_runs(st, text, &v, n, err) < 0)
		return -1;
	*ids = malloc((*n ? *n : 1) * sizeof **ids);
	for (size_t i = 0; *ids && i < *n; i++)
		(*ids)[i] = v[i].id;
	amd_runs_free(v, *n);
	if (!*ids)
		return amd_fail(err, "%s: out of memory", amd_store_path(st));
	qsort(*ids, *n, sizeof **ids, amd_id_cmp);
	return 0;
}

/* On a part of a store, a selector that picks nothing is explained by
 * the whole store (its runs, keys and values), as SQLite's would be. */
int amd_select_runs(struct amd_store *st, const char *text, struct amd_run_view **out,
		    size_t *n, struct amd_err *err)
{
	struct amd_store *whole;
	int rc = select_in(st, text, out, n, NULL, err);
	if (rc == 0 || amd_store_whole(st, &whole, err) < 0 || whole == st)
		return rc;
	rc = select_in(whole, text, out, n, NULL, err);
	amd_runs_free(*out, *n);
	*out = NULL;
	*n = 0;
	amd_store_close(whole);
	return rc < 0 ? -1 : amd_fail(err, "%s: selector '%s' picks runs the part read lacks",
				      amd_store_path(st), text);
}

int amd_select_runs_or_none(struct amd_store *st, const char *text, struct amd_run_view **out,
			    size_t *n, struct amd_err *why, struct amd_err *err)
{
	why->msg[0] = '\0';
	return select_in(st, text, out, n, why, err);
}

/* No run picked: an error saying why (why NULL); else 0 with the reason
 * in why, unless a param or tag the terms name is in no run of the store
 * (a wrong key, not a value that matches nothing): that stays an error. */
static int picked_none(struct amd_store *st, const struct amd_selector *s,
		       const struct amd_run_view *v, size_t all, struct amd_err *why,
		       struct amd_err *err)
{
	if (why && amd_selector_keys_exist(st, s, err) < 0)
		return -1;
	struct amd_err *to = why ? why : err;
	if (all)
		amd_selector_explain(st, s, v, all, to);
	else
		amd_fail(to, "%s: selector '%s': no runs in the store", amd_store_path(st), s->text);
	return why ? 0 : -1;
}

/* The runs of st that text picks; when none is picked, an error (why
 * NULL) or 0 with the reason in why (the keys the terms name exist). */
static int select_in(struct amd_store *st, const char *text, struct amd_run_view **out,
		     size_t *n, struct amd_err *why, struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	struct amd_selector *s;
	if (amd_selector_parse(text, &s, err) < 0)
		return -1;
	struct amd_run_view *v = NULL;
	size_t all = 0, kept = 0;
	int *keep = NULL;
	int rc = amd_runs_list(st, NULL, &v, &all, err);
	if (rc == 0 && all && !(keep = calloc(all, sizeof *keep)))
		rc = amd_fail(err, "out of memory");
	for (size_t i = 0; rc == 0 && i < all; i++) {
		rc = amd_selector_match(st, s, &v[i], &keep[i], err);
		kept += keep[i] != 0;
	}
	if (rc == 0 && kept == 0)
		rc = picked_none(st, s, v, all, why, err);
	if (rc == 0) {
		*n = compact(v, all, keep);
		*out = v;
	} else
		amd_runs_free(v, all);
	free(keep);
	amd_selector_free(s);
	return rc;
}

/* ---- names in the store (for the hints) ---- */

int sel_store_keys(struct amd_store *st, int tags, char ***out, size_t *n, struct amd_err *err)
{
	return sel_store_strings(st, tags
		? "SELECT DISTINCT d.s FROM tag x JOIN dict d ON d.id = x.key_id ORDER BY 1"
		: "SELECT DISTINCT d.s FROM param x JOIN dict d ON d.id = x.key_id ORDER BY 1",
		out, n, err);
}

int sel_store_strings(struct amd_store *st, const char *sql, char ***out, size_t *n,
		      struct amd_err *err)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *q = amd_store_prepare(st, sql, err);
	if (!q)
		return -1;
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (amd_grow(out, *n, &cap, sizeof **out, 16) < 0 ||
		    amd_store_col_text(q, 0, &(*out)[*n]) < 0) {
			rc = SQLITE_NOMEM;
			break;
		}
		(*n)++;
	}
	if (amd_store_rows_done(st, q, rc, err) < 0) {
		sel_strings_free(*out, *n);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}
