/* amdahl.h — the library's one face to the front end (cmd/): every
 * public header cmd/ may use, included by bare name so a header that
 * moves between folders keeps working. cmd/ compiles with one library
 * include path, $(O)/face, which the Makefile fills with this file and
 * the headers it pulls in (and nothing else): a cmd/ file that includes
 * an internal header (the SQLite setup, the ClickHouse connection, a
 * writer's statement cache) does not compile. docs/design.md, "The
 * library face". */
#ifndef AMDAHL_H
#define AMDAHL_H

/* core: errors, buffers, files, numbers, configuration, text, output files */
#include "err.h"
#include "buf.h"
#include "file.h"
#include "num.h"
#include "config.h"
#include "table.h"
#include "text_safe.h"
#include "outfile.h"

/* ingest: walking paths, the format table, the engine */
#include "ingest.h"
#include "trace_ops.h"

/* the store: opening, the ingest target, run selection and the queries
 * the commands read */
#include "store.h"
#include "writer.h"
#include "selector.h"
#include "runs.h"
#include "run_facts.h"
#include "run_sources.h"
#include "traces.h"
#include "regions.h"
#include "orphans.h"
#include "user_sql.h"
#include "remote.h"
#include "sweep_keys.h"

/* analysis */
#include "analysis.h"
#include "analysis_json.h"
#include "analysis_keys.h"
#include "sweep_facts.h"
#include "stats_table.h"
#include "memory_json.h"
#include "scaling.h"
#include "scaling_json.h"
#include "scaling_table.h"
#include "region_table.h"
#include "region_diff.h"
#include "pyspy.h"
#include "explain.h"
#include "explain_json.h"

/* comparison, gate and histories */
#include "compare.h"
#include "compare_json.h"
#include "compare_table.h"
#include "compare_bench.h"
#include "detectable.h"
#include "verdict.h"
#include "history.h"
#include "history_text.h"
#include "history_gate.h"
#include "history_gate_rates.h"

/* delivery and the report */
#include "mail.h"
#include "mail_report.h"
#include "report.h"
#include "charts_history.h"

#endif
