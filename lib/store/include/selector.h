/* selector.h — choosing runs by what they are (docs/design.md, "Run
 * selection"): a selector is terms joined by commas (AND), each KEY OP
 * VALUE, e.g. `sweep=nightly,param.variant=B,n>=4,since=2026-01-01`.
 *
 * Keys: sweep, strategy, name, id (the run's own id), status (FINISHED,
 * FAILED, …), n, nodes, repeat, since / until (the run's start, a date
 * YYYY-MM-DD[THH:MM[:SS]] in UTC), param.NAME, tag.NAME (a logical run's
 * own value, else its first child's). Operators: = and != (numbers
 * compare as numbers: n=8 matches "8.0"; otherwise text), <, <=, >, >=
 * (numbers only; a run whose value is not a number does not match), ~
 * (a shell glob: tag.branch~release-2026*). since=D is start >= D; until=D
 * is start < D.
 *
 * The one call the commands need is amd_select_runs (the runs a selector
 * picks); amd_analyse takes a selector wherever it takes a sweep name.
 * Unknown keys, params or tags no run has, and terms that leave no run
 * are errors naming the closest keys or values (selector_hint.c). */
#ifndef AMD_SELECTOR_H
#define AMD_SELECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "runs.h"
#include "store.h"

enum amd_sel_key {
	AMD_SEL_SWEEP, AMD_SEL_STRATEGY, AMD_SEL_NAME, AMD_SEL_ID, AMD_SEL_STATUS,
	AMD_SEL_N, AMD_SEL_NODES, AMD_SEL_REPEAT, AMD_SEL_SINCE, AMD_SEL_UNTIL,
	AMD_SEL_PARAM, AMD_SEL_TAG,
};

enum amd_sel_op { AMD_SEL_EQ, AMD_SEL_NE, AMD_SEL_LT, AMD_SEL_LE, AMD_SEL_GT, AMD_SEL_GE,
		  AMD_SEL_GLOB };

struct amd_sel_term {
	enum amd_sel_key key;
	char *name;      /* param or tag name (PARAM, TAG), else NULL */
	enum amd_sel_op op;
	char *value;     /* as written */
	int numeric;     /* value is a number (num) */
	double num;      /* the number, or since/until in ms since the epoch */
	char *text;      /* the term as written, for messages */
};

struct amd_selector {
	char *text;
	size_t nterms;
	struct amd_sel_term *terms;
};

/* The selector's syntax for a command's --help. */
#define AMD_SELECTOR_HELP \
	"A SELECTOR picks runs by what they are: terms KEY OP VALUE joined by\n" \
	"commas (all must hold), e.g. 'param.variant=B,n>=4,since=2026-01-31'.\n" \
	"Keys: sweep strategy name id status n nodes repeat since until\n" \
	"param.NAME tag.NAME; OP: = != < <= > >= (numbers) ~ (a shell glob).\n" \
	"since/until=DATE: started on or after / before DATE (UTC). A key or\n" \
	"value no run has is an error naming the closest ones.\n"

/* 1 when text is written as a selector (has one of = < > ~), so a
 * command can accept a sweep name or a selector in the same place. */
int amd_selector_is(const char *text);

/* amd_selector_is, unless a sweep of st has text for its very name: a
 * sweep named 'bs=256' or 'lr<0.1' (an MLflow experiment may be) is
 * that sweep wherever its name is passed on. */
int amd_store_selector_is(struct amd_store *st, const char *text);

/* Parses text; errors name the selector and the term. */
int amd_selector_parse(const char *text, struct amd_selector **out, struct amd_err *err);
void amd_selector_free(struct amd_selector *s);

/* The value of s's `key=VALUE` term (a plain key such as "strategy" or
 * "sweep"), or NULL when it has none. */
const char *amd_selector_eq(const struct amd_selector *s, const char *key);

/* The run's value for t's key as text in *out (malloc'd; NULL when the
 * run has none, e.g. no such param); -1 on a store error. */
int amd_sel_value(struct amd_store *st, const struct amd_sel_term *t,
		  const struct amd_run_view *r, char **out, struct amd_err *err);
/* 1 when value (NULL: the run has none) satisfies t. */
int amd_sel_term_holds(const struct amd_sel_term *t, const char *value);

/* *match = 1 when run r satisfies every term of s. */
int amd_selector_match(struct amd_store *st, const struct amd_selector *s,
		       const struct amd_run_view *r, int *match, struct amd_err *err);

/* The logical runs (runs.h) that selector text picks, in amd_runs_list's
 * order. A selector that picks nothing is an error naming the term that
 * left no run and the closest keys or values the store has. */
int amd_select_runs(struct amd_store *st, const char *text, struct amd_run_view **out,
		    size_t *n, struct amd_err *err);

/* The same for a listing (`runs --sweep SELECTOR`): a selector that
 * picks nothing is 0 with *n = 0 and the reason, naming the closest
 * values, in why (why->msg "" when runs were picked). A malformed term,
 * a param or tag no run of the store has (naming the closest keys) or a
 * store error is -1 with err. */
int amd_select_runs_or_none(struct amd_store *st, const char *text, struct amd_run_view **out,
			    size_t *n, struct amd_err *why, struct amd_err *err);

/* -1 naming the first param or tag term of s whose key no run of the
 * store has, with the closest keys (selector_hint.c); else 0. */
int amd_selector_keys_exist(struct amd_store *st, const struct amd_selector *s,
			    struct amd_err *err);

/* The ids of the logical runs selector text picks, sorted ascending, in
 * *ids (the caller frees; a search with bsearch and amd_id_cmp). */
int amd_select_run_ids(struct amd_store *st, const char *text, int64_t **ids, size_t *n,
		       struct amd_err *err);
/* qsort/bsearch order of int64_t ids. */
int amd_id_cmp(const void *a, const void *b);

/* Fills err with why s picks none of runs[0..n) (the first term that
 * leaves none, and the closest values); returns -1. selector_hint.c. */
int amd_selector_explain(struct amd_store *st, const struct amd_selector *s,
			 const struct amd_run_view *runs, size_t n, struct amd_err *err);

/* ---- groups ---- */

/* One value of a grouping key among the selected runs. */
struct amd_run_group {
	char *value;     /* the key's value ("" never: runs without it are left out) */
	char *selector;  /* the selection narrowed to this group ("SEL,KEY=VALUE") */
	size_t nruns;
	int64_t first_ms; /* earliest start among its runs (0 unknown) */
	struct amd_run_view *runs; /* its nruns runs, in the selection's order */
	size_t runs_cap;
};

/* Splits the runs selector text picks (NULL or "": every run) by key `by`
 * (param.NAME, tag.NAME, or a plain key such as strategy), groups in order
 * of first appearance by start time. Runs without the key are left out
 * (*skipped counts them). Fails when no run has the key, naming the
 * closest, or when a value cannot be written in a selector (has a comma). */
int amd_select_groups(struct amd_store *st, const char *text, const char *by,
		      struct amd_run_group **out, size_t *n, size_t *skipped,
		      struct amd_err *err);
void amd_run_groups_free(struct amd_run_group *g, size_t n);

#endif
