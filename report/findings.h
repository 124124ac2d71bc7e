/* findings.h — the report's first page in sentences, worded from a
 * sweep's statistics and the points lib/analysis picks (highlights.h):
 * best speedup with its interval and where, efficiency at the largest
 * n, where a strategy stops scaling, fits, throughput and energy per
 * sample, communication, spread; and the data gaps. */
#ifndef AMD_REPORT_FINDINGS_H
#define AMD_REPORT_FINDINGS_H

#include "analysis.h"
#include "sentences.h"

/* Findings about the numbers, one sentence (or two) per entry. */
void report_findings(const struct amd_sweep_stats *s, struct report_text *out);
/* Data gaps: left-out runs, points without intervals, flagged epochs. */
void report_gaps(const struct amd_sweep_stats *s, struct report_text *out);

#endif
