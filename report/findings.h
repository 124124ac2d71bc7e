/* findings.h — the report's first page in sentences computed from a
 * sweep's statistics (best speedup with its interval and where,
 * efficiency at the largest n, where a strategy stops scaling, fits,
 * throughput and energy per sample, spread), the data gaps, and the
 * number formats every part of the report shares. */
#ifndef AMD_REPORT_FINDINGS_H
#define AMD_REPORT_FINDINGS_H

#include <stddef.h>

#include "analysis.h"

struct report_text {
	char **v;
	size_t n;
};

void report_text_add(struct report_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_text_free(struct report_text *t);

/* Findings about the numbers, one sentence (or two) per entry. */
void report_findings(const struct amd_sweep_stats *s, struct report_text *out);
/* Data gaps: left-out runs, points without intervals, flagged epochs. */
void report_gaps(const struct amd_sweep_stats *s, struct report_text *out);

/* Numbers as the report prints them: 3-4 significant digits, no exponent. */
void report_num(double v, char *buf, size_t n);
/* "[lo–hi]" of an interval in report_num format (or its why). */
void report_ci(const struct amd_ci *ci, double scale, const char *suffix, char *buf, size_t n);

#endif
