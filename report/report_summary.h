/* report_summary.h — summary.md and summary.html (from templates/) and
 * report.json. */
#ifndef AMD_REPORT_SUMMARY_H
#define AMD_REPORT_SUMMARY_H

#include "buf.h"
#include "report_ctx.h"
#include "template.h"

int report_write_summaries(struct report_ctx *c, struct amd_err *err);
/* report.json's text, its trailing newline included, into *out (empty
 * on entry); -1 out of memory. Reads c only: it may run on a thread of
 * its own while the charts, the PDF and the summaries are written. */
int report_json_text(struct report_ctx *c, struct amd_buf *out);
/* Writes text (report_json_text's; NULL: out of memory) as name inside
 * the output directory. */
int report_write_json_text(struct report_ctx *c, const char *name, const struct amd_buf *text,
			   struct amd_err *err);

/* A new item of a template's list, or NULL (and *failed set) when out of
 * memory; report_tpl_texts adds an item {text} per line of x. Shared by
 * the summaries and report.html. */
struct tpl *report_tpl_item(struct tpl *t, const char *list, int *failed);
void report_tpl_texts(struct tpl *t, const char *list, const struct report_text *x, int *failed);

#endif
