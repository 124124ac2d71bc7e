/* selector_hint.c — why a selector picks no run, in one line naming the
 * term that left none and the closest keys or values the store has
 * (amd_selector_explain, selector.h), and the edit-distance ranking
 * behind "closest: …". */
#include "selector.h"
#include "selector_hint.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"

#define MAX_LISTED 12

/* Levenshtein distance, case-insensitive, on the first 127 bytes. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strnlen(a, 127), lb = strnlen(b, 127);
	size_t row[128];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
			size_t best = diag + !same;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* Whether cand is near enough to word to be named: within a third of
 * word's length plus two edits, and not a rewrite of every letter (the
 * distance is below the longer length, so some letter stays in place):
 * 'zzz' names no 'run', 'dpp' still names 'fsdp'. */
static int near_enough(const char *word, const char *cand, size_t d)
{
	size_t lw = strlen(word), lc = strlen(cand);
	return d <= lw / 3 + 2 && d < (lw > lc ? lw : lc);
}

size_t sel_nearest(const char *word, const char *const *cand, size_t n, size_t *pick, size_t max)
{
	size_t used = 0, limit = strlen(word) / 3 + 2;
	for (size_t d = 0; d <= limit; d++)
		for (size_t i = 0; i < n && used < max; i++)
			if (cand[i] && strcmp(word, cand[i]) != 0 && edit_distance(word, cand[i]) == d &&
			    near_enough(word, cand[i], d))
				pick[used++] = i;
	return used;
}

void sel_closest(const char *word, const char *const *cand, size_t n, char *buf, size_t size)
{
	size_t pick[3], used = sel_nearest(word, cand, n, pick, 3);
	buf[0] = '\0';
	for (size_t k = 0; k < used; k++) {
		size_t len = strlen(buf);
		snprintf(buf + len, size - len, "%s'%s'", k ? ", " : "; closest: ", cand[pick[k]]);
	}
}

void sel_closest_in(struct amd_store *st, const char *sql, const char *word, char *buf,
		    size_t size)
{
	char **names = NULL;
	size_t n = 0;
	struct amd_err ignored = {{0}};
	buf[0] = '\0';
	if (sel_store_strings(st, sql, &names, &n, &ignored) == 0)
		sel_closest(word, (const char *const *)names, n, buf, size);
	sel_strings_free(names, n);
}

void sel_strings_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* "a, b, c, … (N in all)" into b; -1 out of memory. */
static int list_names(struct amd_buf *b, char *const *v, size_t n)
{
	for (size_t i = 0; i < n && i < MAX_LISTED; i++)
		if (amd_buf_printf(b, "%s%s", i ? ", " : "", v[i]) < 0)
			return -1;
	if (n > MAX_LISTED && amd_buf_printf(b, ", … (%zu in all)", n) < 0)
		return -1;
	return 0;
}

/* The distinct values of t's key among the runs alive[] marks. */
static int distinct_values(struct amd_store *st, const struct amd_sel_term *t,
			   const struct amd_run_view *runs, size_t n, const int *alive,
			   char ***out, size_t *nv, struct amd_err *err)
{
	size_t cap = 0;
	*out = NULL;
	*nv = 0;
	for (size_t i = 0; i < n; i++) {
		char *v;
		if (!alive[i])
			continue;
		if (amd_sel_value(st, t, &runs[i], &v, err) < 0)
			return -1;
		int seen = !v;
		for (size_t k = 0; !seen && k < *nv; k++)
			seen = strcmp((*out)[k], v) == 0;
		if (seen) {
			free(v);
			continue;
		}
		if (amd_grow(out, *nv, &cap, sizeof **out, 16) < 0) {
			free(v);
			return amd_fail(err, "out of memory");
		}
		(*out)[(*nv)++] = v;
	}
	return 0;
}

/* "runs start between 2026-01-02 and 2026-01-09" for since/until. */
static int start_range(struct amd_buf *b, char *const *v, size_t n)
{
	double lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++) {
		double x = strtod(v[i], NULL);
		lo = i == 0 || x < lo ? x : lo;
		hi = i == 0 || x > hi ? x : hi;
	}
	char a[32], z[32];
	time_t ta = (time_t)(lo / 1000), tz = (time_t)(hi / 1000);
	struct tm ma, mz;
	strftime(a, sizeof a, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&ta, &ma));
	strftime(z, sizeof z, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&tz, &mz));
	return amd_buf_printf(b, "; the runs started between %s and %s", a, z);
}

/* A param or tag that no run (left) has: name the store's closest ones. */
static int explain_no_key(struct amd_store *st, const struct amd_sel_term *t,
			  struct amd_buf *b, struct amd_err *err)
{
	char **keys;
	size_t nk;
	int tags = t->key == AMD_SEL_TAG;
	struct amd_store *whole; /* every key of the store, also from a part of it */
	if (amd_store_whole(st, &whole, err) < 0)
		return -1;
	int got = sel_store_keys(whole, tags, &keys, &nk, err);
	if (whole != st)
		amd_store_close(whole);
	if (got < 0)
		return -1;
	char near[512];
	sel_closest(t->name, (const char *const *)keys, nk, near, sizeof near);
	int rc = amd_buf_printf(b, " has %s '%s'%s (%s: ", tags ? "a tag" : "a param", t->name,
				near, tags ? "tags" : "params");
	if (rc == 0)
		rc = nk ? list_names(b, keys, nk) : amd_buf_printf(b, "none");
	if (rc == 0)
		rc = amd_buf_printf(b, ")");
	sel_strings_free(keys, nk);
	return rc < 0 ? amd_fail(err, "out of memory") : 0;
}

int amd_selector_keys_exist(struct amd_store *st, const struct amd_selector *s,
			    struct amd_err *err)
{
	for (size_t ti = 0; ti < s->nterms; ti++) {
		const struct amd_sel_term *t = &s->terms[ti];
		if (t->key != AMD_SEL_PARAM && t->key != AMD_SEL_TAG)
			continue;
		char **keys;
		size_t nk, found = 0;
		struct amd_store *whole;
		if (amd_store_whole(st, &whole, err) < 0)
			return -1;
		int got = sel_store_keys(whole, t->key == AMD_SEL_TAG, &keys, &nk, err);
		if (whole != st)
			amd_store_close(whole);
		if (got < 0)
			return -1;
		for (size_t k = 0; k < nk && !found; k++)
			found = strcmp(keys[k], t->name) == 0;
		sel_strings_free(keys, nk);
		if (found)
			continue;
		struct amd_buf b = {0};
		int rc = amd_buf_printf(&b, "%s: selector '%s': no run", amd_store_path(st), s->text)
			 < 0 ? amd_fail(err, "out of memory") : explain_no_key(st, t, &b, err);
		if (rc == 0)
			amd_fail(err, "%s", b.data);
		amd_buf_free(&b);
		return -1;
	}
	return 0;
}

static int explain_term(struct amd_store *st, const struct amd_selector *s, size_t ti,
			const struct amd_run_view *runs, size_t n, const int *alive, size_t nalive,
			struct amd_err *err)
{
	const struct amd_sel_term *t = &s->terms[ti];
	char **vals;
	size_t nv;
	if (distinct_values(st, t, runs, n, alive, &vals, &nv, err) < 0) {
		sel_strings_free(vals, nv);
		return -1;
	}
	struct amd_buf b = {0};
	int rc = amd_buf_printf(&b, "%s: selector '%s': ", amd_store_path(st), s->text);
	if (rc == 0 && nalive < n)
		rc = amd_buf_printf(&b, "of the %zu runs the terms before '%s' leave, none", nalive,
				    t->text);
	else if (rc == 0)
		rc = amd_buf_printf(&b, "no run");
	if (rc == 0 && nv == 0 && (t->key == AMD_SEL_PARAM || t->key == AMD_SEL_TAG))
		rc = explain_no_key(st, t, &b, err) < 0 ? -2 : 0;
	else if (rc == 0 && nv == 0)
		rc = amd_buf_printf(&b, " has a value for '%.*s'", (int)strcspn(t->text, "!<>=~"),
				    t->text);
	else if (rc == 0) {
		char near[512] = "";
		if (t->op == AMD_SEL_EQ || t->op == AMD_SEL_GLOB)
			sel_closest(t->value, (const char *const *)vals, nv, near, sizeof near);
		rc = amd_buf_printf(&b, " matches '%s'%s", t->text, near);
		if (rc == 0 && (t->key == AMD_SEL_SINCE || t->key == AMD_SEL_UNTIL))
			rc = start_range(&b, vals, nv);
		else if (rc == 0)
			rc = amd_buf_printf(&b, " (values: ") < 0 || list_names(&b, vals, nv) < 0 ||
			     amd_buf_printf(&b, ")") < 0 ? -1 : 0;
	}
	if (rc != -2)
		rc = rc < 0 ? amd_fail(err, "out of memory") : amd_fail(err, "%s", b.data);
	amd_buf_free(&b);
	sel_strings_free(vals, nv);
	return -1;
}

int amd_selector_explain(struct amd_store *st, const struct amd_selector *s,
			 const struct amd_run_view *runs, size_t n, struct amd_err *err)
{
	int *alive = malloc((n ? n : 1) * sizeof *alive);
	int *holds = malloc((n ? n : 1) * sizeof *holds);
	int rc = alive && holds ? 0 : amd_fail(err, "out of memory");
	size_t nalive = n;
	for (size_t i = 0; rc == 0 && i < n; i++)
		alive[i] = 1;
	for (size_t ti = 0; rc == 0 && ti < s->nterms; ti++) {
		size_t left = 0;
		for (size_t i = 0; rc == 0 && i < n; i++) {
			char *v = NULL;
			holds[i] = 0;
			if (alive[i] && (rc = amd_sel_value(st, &s->terms[ti], &runs[i], &v, err)) == 0)
				holds[i] = amd_sel_term_holds(&s->terms[ti], v);
			left += holds[i] != 0;
			free(v);
		}
		if (rc == 0 && left == 0)
			rc = explain_term(st, s, ti, runs, n, alive, nalive, err);
		memcpy(alive, holds, n * sizeof *alive);
		nalive = left;
	}
	if (rc == 0)
		rc = amd_fail(err, "%s: selector '%s' picks no run", amd_store_path(st), s->text);
	free(alive);
	free(holds);
	return -1;
}
