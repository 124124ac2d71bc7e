/* mail_report.h — what a report directory tells the mail (the PDF, the
 * sweep, the gate's verdict, the findings) and the mail's text rendered
 * from templates/mail.txt and mail.html. */
#ifndef AMD_MAIL_REPORT_H
#define AMD_MAIL_REPORT_H

#include <stddef.h>

#include "err.h"

/* What a report directory tells the mail (see amd_mail_report_load). */
struct amd_mail_report {
	char *dir;
	char *pdf_path;   /* the PDF to attach */
	char *sweep;      /* NULL when the report does not name one */
	char *gate;       /* the gate verdict, NULL when there is none */
	char **findings;  /* one sentence each */
	size_t nfindings, findings_cap;
	char *source;     /* "report.json" or "summary.md": where they came from */
	char *html_path;  /* DIR/report.html, NULL when there is none */
	int attach_html;  /* the body says report.html is attached */
};

/* Reads DIR/report.json ("sweep", "findings": [..] and the verdict of
 * its "gate" comparison) with cJSON, falling back to DIR/summary.md for
 * the findings (its "## Findings" section, else the section under its
 * title). The verdict of DIR/gate.json ('amdahl gate --json' output), when
 * there is one, is the gate's own and comes first (it honours the gate's
 * --require-all, which report build has not). The PDF is DIR/report.pdf,
 * else the only *.pdf in DIR. */
int amd_mail_report_load(const char *dir, struct amd_mail_report *r, struct amd_err *err);
/* Takes the gate verdict from PATH, the output of 'amdahl gate --json'
 * (any comparison object with its "result", compare_json.h). */
int amd_mail_report_gate(struct amd_mail_report *r, const char *path, struct amd_err *err);
void amd_mail_report_free(struct amd_mail_report *r);

/* Renders templates/NAME ("mail.txt" or "mail.html", HTML-escaped) with
 * core/template.h: {{subject}}, {{sweep}}, {{gate}}, {{pdf}},
 * {{source}} and the list {{#findings}}{{text}}{{/findings}}; absent
 * values are empty ({{^gate}}..{{/gate}} says so). Returns malloc'd text. */
char *amd_mail_render(const char *name, const struct amd_mail_report *r,
		      const char *subject, struct amd_err *err);

#endif
