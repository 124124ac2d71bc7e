/* compare_table.h — a comparison's rows as text: the labels and cells
 * every output of a comparison shows (formatted here only), the tables
 * (lib/core/table.h) of `amdahl compare` and `amdahl gate` (terminal and
 * Markdown) and of the report's comparison page, and the distinct notes. */
#ifndef AMD_COMPARE_TABLE_H
#define AMD_COMPARE_TABLE_H

#include <stddef.h>

#include "compare.h"
#include "table.h"

/* "ddp", or "ddp→fsdp" when the sides' strategies differ. */
void amd_cmp_strategy(const struct amd_cmp_row *r, char *buf, size_t n);
/* One side of a comparison as named: "SWEEP:STRATEGY", "SWEEP", or a
 * selector as written (its strategy is one of its terms); returns buf. */
const char *amd_cmp_side(const char *sweep, const char *strategy, char *buf, size_t n);
/* "ddp n=8" or "ddp→fsdp n=8". */
void amd_cmp_config(const struct amd_cmp_row *r, char *buf, size_t n);
/* "1.118 [1.050, 1.200]", "1.118 (no CI)", or none without a ratio. */
void amd_cmp_ratio(const struct amd_cmp_row *r, const char *none, char *buf, size_t n);

/* How a row's figures are written: the terminal's (medians and p "%.4g",
 * "-" for no value) or the report's (medians with amd_cell_sig, p "%.3g",
 * "–"). */
enum amd_cmp_style { AMD_CMP_TEXT, AMD_CMP_REPORT };

struct amd_cmp_cells {
	char n[32];             /* "%g" */
	char base[32], cand[32]; /* the medians */
	char nb[16], nc[16];     /* the run counts */
	char ratio[160];         /* amd_cmp_ratio (the terminal's cut at 79 bytes) */
	char p[32], p_holm[32];  /* Mann–Whitney p (none on one side only), Holm's p */
};
void amd_cmp_cells(const struct amd_cmp_row *r, enum amd_cmp_style style,
		   struct amd_cmp_cells *c);

/* Which rows a table holds: the gated ones (1), the others (0), or all,
 * gated first, with a "gated" column (AMD_CMP_ALL). */
#define AMD_CMP_ALL (-1)

/* The terminal's and the Markdown's table: metric, strategy, n, both
 * medians with their run counts, ratio [95% CI], p, p Holm, verdict; a
 * gated regression's verdict is emphasised. NULL when out of memory. */
struct amd_table *amd_cmp_table_text(const struct amd_comparison *c, int which);
/* The report's table of the gated (1) or the other rows (0): metric,
 * configuration (shortened when too wide), medians and runs apart,
 * ratio, p, Holm p, verdict. NULL when out of memory. */
struct amd_table *amd_cmp_table_report(const struct amd_comparison *c, int gated);

/* The rows whose notes (why insufficient, what is missing) are shown:
 * from *i on, the next row with a note that no earlier row had (among
 * gated rows only when gated_only); *i moves past it. NULL at the end. */
const struct amd_cmp_row *amd_cmp_next_note(const struct amd_comparison *c, size_t *i,
					    int gated_only);

#endif
