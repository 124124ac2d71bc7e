/* verdict.h — the gate's verdict on a comparison, decided here only, for
 * `amdahl gate` (its exit code, JUnit, Markdown and --json), `report
 * build --baseline` (page 1, the comparison page, report.json) and so
 * for what `amdahl mail` relays.
 *
 * The rule: the gate fails (regression, exit 1) when a gated row is a
 * regression, or, with require_all, when a gated configuration is on one
 * side only; otherwise it is insufficient (exit 3) when a gated row
 * cannot reach alpha with its run counts; otherwise it passes (exit 0).
 * A configuration on one side only fails nothing without require_all.
 * With fallback_ci (asv's fallback), a gated row too small for the test
 * whose ratio interval lies wholly past the threshold in the bad
 * direction (a likely regression) fails the gate too.
 * Two sweeps that share no configuration are not compared at all
 * (amd_compare fails). */
#ifndef AMD_VERDICT_H
#define AMD_VERDICT_H

#include <stddef.h>

#include "compare.h"

enum amd_gate_result { AMD_GATE_PASS, AMD_GATE_REGRESSION, AMD_GATE_INSUFFICIENT };

/* The gate's exit codes (docs/amdahl.1); 2 is a usage or input error. */
enum { AMD_GATE_EXIT_PASS = 0, AMD_GATE_EXIT_REGRESSION = 1, AMD_GATE_EXIT_INSUFFICIENT = 3 };

struct amd_gate_opts {
	int require_all; /* a gated configuration on one side only fails the gate */
	int fallback_ci; /* a likely regression (detectable.h) fails the gate */
};

struct amd_gate_verdict {
	enum amd_gate_result result;
	int exit_code;      /* AMD_GATE_EXIT_* */
	const char *word;   /* "PASS", "FAIL", "INSUFFICIENT DATA" (gate's output) */
	const char *name;   /* "pass", "regression", "insufficient" (report.json) */
	size_t failing;     /* gated rows that fail the gate */
	char sentence[2048]; /* "gate: FAIL: rc against baseline v1, 11 gated rows: ..." */
};

/* The gate's result in JSON (the one verdict vocabulary, analysis_json.h):
 * "pass", "regression", "insufficient_data". */
const char *amd_gate_result_json(enum amd_gate_result r);
/* What a verdict read back from a document of schema_version 1 or later
 * is shown as: a JSON word of amd_gate_result_json as the gate prints it
 * ("PASS", "FAIL", "INSUFFICIENT DATA"; terminal 1) or as report.json
 * named it before schema_version 1 ("pass", "regression",
 * "insufficient"; terminal 0); any other text as it is (the same
 * pointer). A document without schema_version is shown as it says
 * (lib/deliver/mail_report.c). */
const char *amd_gate_result_shown(const char *json, int terminal);

/* 1 when row r fails the gate: a gated regression, with require_all a
 * gated row on one side only, with fallback_ci a gated likely regression.
 * o may be NULL (no options). */
int amd_gate_row_fails(const struct amd_cmp_row *r, const struct amd_gate_opts *o);

/* The verdict on c under o (NULL: no options), with its sentence. */
void amd_gate_verdict(const struct amd_comparison *c, const struct amd_gate_opts *o,
		      struct amd_gate_verdict *v);

#endif
