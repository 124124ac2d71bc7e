/* compare_cmd.h — what `amdahl compare` and `amdahl gate` share: their
 * options, running the comparison, and the terminal and JSON outputs.
 * Private to cmd/ (compare.c, gate.c; report.c parses --baseline with
 * compare_split_spec). */
#ifndef AMD_CMD_COMPARE_H
#define AMD_CMD_COMPARE_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "cmd.h"

#define COMPARE_MAX_ONLY 16

/* The command line of compare and gate, parsed once (compare_parse):
 * what the comparison reads goes straight into o, the library's options
 * (compare.h), and what the gate's verdict reads into gate (verdict.h);
 * both go down as they are. The rest is the front end's own. */
struct compare_args {
	const char *name;              /* "compare" or "gate" */
	struct amd_compare_opts o;     /* its sweep and strategy strings owned here */
	struct amd_gate_opts gate;     /* --require-all, --fallback ci */
	const char *only[COMPARE_MAX_ONLY + 1]; /* --only, o.only_metrics once given */
	size_t nonly;
	const char *base_store;        /* NULL: the same store */
	int json;
	const char *format;            /* NULL/"table", "benchstat", "csv" */
	const char *by, *select;       /* compare --by KEY [--sweep SEL] */
	const char *base_value;        /* with --by: the baseline group's value */
	const char *cand_value;        /* gate --history: the candidate group's value */
	long history;                  /* gate --history N (0: off) */
	const char *junit, *markdown;  /* gate only */
	const char *on_insufficient;   /* gate --on-insufficient fail|warn|pass (NULL: amdahl.yaml's) */
	int step_summary;              /* gate --step-summary: append to $GITHUB_STEP_SUMMARY */
	const char *json_file;         /* gate --json-file FILE: the --json document, written there */
	long baseline_last;            /* gate --baseline-last N (0: off): the N groups of --by
					* before the candidate, pooled, are the baseline */
};

/* Splits SWEEP[:STRATEGY] (also `report build --baseline`'s) into fresh
 * copies, freeing the previous ones; EXIT_USAGE with the message printed. */
int compare_split_spec(const char *cmd, const char *spec, char **sweep, char **strategy);
/* The same into a side of the library's options (o->base_sweep and
 * o->base_strategy, or the candidate's), whose strings the caller owns
 * until compare_sides_free. */
int compare_side(const char *cmd, const char *spec, const char **sweep, const char **strategy);
void compare_sides_free(struct amd_compare_opts *o);
/* Parses the shared options (and, for gate, --junit/--markdown) into a,
 * whose o.cfg the caller set; returns CMD_RUN, or the exit code to stop
 * with: EXIT_OK after --help, EXIT_USAGE with the message printed. */
int compare_parse(int argc, char **argv, struct compare_args *a, void (*help)(void));
void compare_args_free(struct compare_args *a);

/* What gate does when the verdict is insufficient data (exit 3):
 * fail (keeps exit 3), warn (a warning, exit 0), pass (exit 0). */
enum gate_insufficient { GATE_INSUFFICIENT_FAIL, GATE_INSUFFICIENT_WARN, GATE_INSUFFICIENT_PASS };
/* mode's value, or -1 when it is none of fail, warn, pass (gate.c). */
int gate_insufficient_mode(const char *mode);

/* compare --by: every group against the first or the named one
 * (compare_by.c). */
int compare_by(struct cmd_ctx *ctx, struct compare_args *a);

/* gate --history N (gate_history.c): the candidate group against the N
 * groups before it; returns the exit code. */
int gate_history(struct cmd_ctx *ctx, const struct compare_args *a);

/* Opens ctx->store for what a reads: the two sides (the candidate only
 * with --baseline-store), or the one selection of --by and --history. */
int compare_open(struct cmd_ctx *ctx, const struct compare_args *a);

/* Opens the baseline store when asked and runs the comparison with a->o. */
int compare_run(struct cmd_ctx *ctx, const struct compare_args *a, struct amd_comparison **out);

/* The terminal table (gated rows, shown rows, notes, summary line); -1
 * when out of memory. */
int compare_print_table(const struct amd_comparison *c, FILE *out);
/* The table in a->format (table, benchstat, csv); -1 when out of memory. */
int compare_print_format(const struct amd_comparison *c, const struct compare_args *a, FILE *out);
/* The comparison's JSON (lib/compare/compare_json.h) with both stores and
 * the bootstrap settings; NULL when out of memory. */
cJSON *compare_json(const struct amd_comparison *c, const struct compare_args *a,
		    const char *store_path);
/* Prints j on stdout and frees it; EXIT_OK, or the error when j is NULL
 * or cannot be printed (out of memory). */
int compare_print_json(cJSON *j, const char *cmd);

#define COMPARE_HELP_OPTIONS \
	"  --baseline SWEEP[:STRATEGY]   the baseline sweep (and one of its strategies)\n" \
	"  --candidate SWEEP[:STRATEGY]  the candidate; a strategy on each side is\n" \
	"                 matched by n, otherwise strategies are matched by name\n" \
	"  --baseline-store FILE  read the baseline from this store (read-only)\n" \
	"  --axis PARAM   scale on this numeric param instead of the world size\n" \
	"  --metric NAME  the time metric (default epoch_time_s)\n" \
	"  --only METRIC  judge only the rows of this metric (repeatable; others\n" \
	"                 are shown): the time metric, throughput, speedup,\n" \
	"                 efficiency or a gate.metrics name; another is an error\n" \
	"  --n N          compare only configurations with this n\n" \
	"  --require-all  a configuration on one side only fails the gate\n" \
	"  --fallback ci  a row too small for the test whose ratio interval lies\n" \
	"                 wholly past the threshold (a likely regression) fails\n" \
	"                 the gate (exit 1) instead of leaving it insufficient (3)\n" \
	"  --aggregate A  a configuration's runs to one value: median (default) or\n" \
	"                 mlperf (MLPerf's rule: drop the fastest and the slowest\n" \
	"                 run, the mean of the rest; below 3 runs the mean); the\n" \
	"                 ratio, its interval and the gate then use it\n" \
	"  --json         print the comparison as JSON\n" \
	"  --format F     table (default), benchstat (old ± spread, new ± spread,\n" \
	"                 delta or ~, p and runs; a geomean row per metric) or csv\n" \
	"                 (every row's numbers at full precision)\n"

#define COMPARE_HELP_METHOD \
	"Per metric and configuration (strategy, n): both medians and run counts,\n" \
	"the ratio of medians candidate/baseline with a bootstrap 95%% interval\n" \
	"(4000 resamples, fixed seed), a two-sided Mann-Whitney U (exact without\n" \
	"ties up to 2500 pairs, else normal with tie and continuity correction)\n" \
	"and Holm's correction across the gated rows. Gated by default: the time\n" \
	"metric and throughput per configuration, and speedup where both sweeps\n" \
	"have several n; other metrics are shown and fail nothing unless\n" \
	"amdahl.yaml lists them under gate.metrics. A regression needs a Holm-\n" \
	"adjusted p <= alpha (0.05) and a change past the threshold (5%%) in the\n" \
	"bad direction. A row is 'insufficient data' when its sample sizes cannot\n" \
	"reach alpha (smallest two-sided p = 2/C(m+n, m): 3 vs 3 gives 0.1),\n" \
	"also after Holm across the gated rows (Tarone's rule). This is asv's\n" \
	"rule: a change needs both p below alpha and a ratio past a factor\n" \
	"(1 + threshold). Every output says the smallest change the runs could\n" \
	"detect (80%% power, normal approximation on the runs' spread) and, for\n" \
	"rows too small for the test, whether the ratio interval lies wholly past\n" \
	"the threshold (a likely regression; asv's fallback), with the runs per\n" \
	"side that would confirm it.\n" \
	"\n" \
	"amdahl.yaml:\n" \
	"  gate:\n" \
	"    alpha: 0.05        # default significance level\n" \
	"    threshold: 0.05    # default minimum relative change\n" \
	"    metrics:\n" \
	"      gpu_energy_J: {direction: lower, threshold: 0.10, alpha: 0.05}\n"

#endif
