/* trace_links.h — report.html's table of the profiler traces behind the
 * sweep's statistics, one row per rank trace with its local path, for
 * opening in the Perfetto UI (the page may link nowhere: the address is
 * text and the page says how to open a file there). */
#ifndef AMD_REPORT_TRACE_LINKS_H
#define AMD_REPORT_TRACE_LINKS_H

#include <stddef.h>

#include "analysis.h"
#include "err.h"
#include "store.h"
#include "table.h"

/* Rows the page lists at most (its note says when there are more). */
#define REPORT_TRACE_ROWS 256
/* The Perfetto UI's address, shown as text. */
#define REPORT_PERFETTO_UI "https://ui.perfetto.dev"

/* The table (run, rank, trace file) of the traces of the runs in s's
 * statistics, in the runs table's order and by rank, at most
 * REPORT_TRACE_ROWS rows (*more: 1 when some are left out). NULL with
 * err filled on a store error or out of memory; a table of no rows when
 * no run has a trace. */
struct amd_table *report_trace_table(struct amd_store *st, const struct amd_sweep_stats *s,
				     int *more, struct amd_err *err);

#endif
