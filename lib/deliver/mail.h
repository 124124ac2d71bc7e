/* mail.h — emailing a report: what goes in the message (read from a
 * report directory and rendered from templates/mail.txt and mail.html)
 * and delivering it with libcurl (SMTP, MIME, base64 are all libcurl's),
 * or writing the exact bytes libcurl would send as an .eml file. */
#ifndef AMD_MAIL_H
#define AMD_MAIL_H

#include <stddef.h>
#include <stdio.h>

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

/* Refuses a header value that could inject headers (CR, LF, other
 * control characters) or an address that is not one plain addr-spec. */
int amd_mail_check_text(const char *what, const char *value, struct amd_err *err);
int amd_mail_check_address(const char *value, struct amd_err *err);

struct amd_mail_msg {
	const char *from;
	const char *const *to;
	size_t nto;
	const char *subject;
	const char *text, *html; /* the two alternative bodies */
	const char *pdf_path;
};

struct amd_smtp {
	const char *url;      /* smtp://[user@]host[:port] or smtps:// */
	const char *password; /* NULL: from ~/.netrc when the URL names a user */
	int ssl_reqd;         /* STARTTLS required (CURLUSESSL_ALL) */
	const char *cacert;   /* CA bundle for the server's certificate; NULL: system's */
	long timeout_s;       /* whole transfer; 0 = no limit */
};

/* Sends the message. The error is one line without the password. */
int amd_mail_send(const struct amd_mail_msg *m, const struct amd_smtp *smtp,
		  struct amd_err *err);

/* Writes the complete RFC 5322 message to out: the bytes libcurl sends in
 * the DATA phase, captured by an in-process SMTP endpoint on a Unix-domain
 * socket in a private temporary directory (no network, no server). */
int amd_mail_write(const struct amd_mail_msg *m, FILE *out, struct amd_err *err);

/* Refuses a URL that does not parse, is not smtp:// or smtps://, or
 * holds a password. */
int amd_mail_check_url(const char *url, struct amd_err *err);

/* The URL with any password removed, for messages. malloc'd; NULL when
 * out of memory. */
char *amd_mail_url_scrub(const char *url);

#endif
