/* mail.c — `amdahl mail`: emails a report directory (findings in the
 * body, the PDF attached) over SMTP, or writes the message as an .eml
 * with --dry-run. Settings: options, then AMDAHL_SMTP_URL, then the
 * mail: section of amdahl.yaml. The password only ever comes from
 * AMDAHL_SMTP_PASSWORD or ~/.netrc and is never printed. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

enum { EXIT_NOT_SENT = 1 }; /* the server did not take the message */

static void help(void)
{
	printf("usage: amdahl mail --to ADDR[,ADDR...] [--from ADDR] [--subject TEXT]\n"
	       "                   [--smtp URL] [--ssl-reqd] [--cacert FILE] [--gate FILE]\n"
	       "                   [--attach-html] [--dry-run FILE] REPORT_DIR\n"
	       "\n"
	       "Emails the report in REPORT_DIR (written by 'amdahl report build'): a\n"
	       "preview of report.html — the findings and the gate verdict — in a\n"
	       "plain-text and an HTML body (from templates/mail.txt and mail.html), the\n"
	       "PDF attached.\n"
	       "\n"
	       "  --to ADDR[,ADDR...]  recipients (repeatable; else mail.to in amdahl.yaml)\n"
	       "  --from ADDR          sender (else mail.from, else amdahl@HOSTNAME)\n"
	       "  --subject TEXT       subject (else mail.subject, else 'amdahl report: SWEEP')\n"
	       "  --smtp URL           smtp://[user@]host[:port] or smtps://...; else\n"
	       "                       $AMDAHL_SMTP_URL, else mail.smtp, else smtp://localhost\n"
	       "  --ssl-reqd           require STARTTLS on smtp:// (or mail.ssl_reqd: true)\n"
	       "  --cacert FILE        CA certificates (PEM) to verify the server with, for\n"
	       "                       a lab's own CA (else mail.cacert, else the system's)\n"
	       "  --gate FILE          the gate verdict from FILE ('amdahl gate --json' output;\n"
	       "                       default REPORT_DIR/gate.json when present)\n"
	       "  --attach-html        also attach report.html, the interactive report (one\n"
	       "                       file that opens offline in a browser)\n"
	       "  --dry-run FILE       write the complete message (.eml) to FILE ('-': stdout)\n"
	       "                       instead of sending it\n"
	       "\n"
	       "amdahl.yaml: mail.to (a list or \"a, b\"), mail.from, mail.subject, mail.smtp,\n"
	       "mail.ssl_reqd, mail.cacert, mail.timeout (seconds for the whole send, 300).\n"
	       "\n"
	       "With a user in the URL, the password comes from $AMDAHL_SMTP_PASSWORD, else\n"
	       "from ~/.netrc; a password inside the URL is refused. It is never printed.\n"
	       "CR or LF in an address or the subject is refused (exit 2). Exit 1: the\n"
	       "server was unreachable or refused the sender, a recipient or the message.\n");
}

struct opts {
	struct amd_buf to;   /* comma-separated, as given */
	const char *from, *subject, *smtp, *cacert, *gate, *dry_run, *dir;
	int ssl_reqd, attach_html;
	long timeout_s;
};

/* Splits "a, b,c" into trimmed addresses (in place). */
static int split_addresses(char *list, const char ***out, size_t *n)
{
	*n = 0;
	*out = NULL;
	for (char *save = NULL, *tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		tok += strspn(tok, " \t");
		size_t len = strlen(tok);
		while (len && (tok[len - 1] == ' ' || tok[len - 1] == '\t'))
			tok[--len] = '\0';
		if (!len)
			continue;
		const char **a = realloc(*out, (*n + 1) * sizeof *a);
		if (!a)
			return -1;
		*out = a;
		a[(*n)++] = tok;
	}
	return 0;
}

/* The command line into o: CMD_RUN, or the exit code to stop with. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option opts[] = {
		{"to", required_argument, NULL, 't'},
		{"from", required_argument, NULL, 'f'},
		{"subject", required_argument, NULL, 's'},
		{"smtp", required_argument, NULL, 'S'},
		{"ssl-reqd", no_argument, NULL, 'T'},
		{"cacert", required_argument, NULL, 'C'},
		{"gate", required_argument, NULL, 'g'},
		{"dry-run", required_argument, NULL, 'n'},
		{"attach-html", no_argument, NULL, 'H'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int c;
	while ((c = cmd_getopt(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (amd_buf_printf(&o->to, "%s%s", o->to.len ? "," : "", optarg) < 0)
				return cmd_error("mail", "out of memory");
			break;
		case 'f': o->from = optarg; break;
		case 's': o->subject = optarg; break;
		case 'S': o->smtp = optarg; break;
		case 'T': o->ssl_reqd = 1; break;
		case 'C': o->cacert = optarg; break;
		case 'g': o->gate = optarg; break;
		case 'n': o->dry_run = optarg; break;
		case 'H': o->attach_html = 1; break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc)
		return cmd_error("mail", optind < argc ? "give one REPORT_DIR"
				 : "no REPORT_DIR given; 'amdahl mail --help' shows usage");
	o->dir = argv[optind];
	return CMD_RUN;
}

/* What the command line left unsaid, from amdahl.yaml's mail settings;
 * -1 when out of memory. */
/* mail.timeout as written: a number of seconds from 1 to a day. */
static int timeout_from(const struct amd_cfg_num *t, const char *file, long *out)
{
	*out = (long)amd_cfg_num_or(t, 300);
	if (t->set && (!t->ok || !(t->value >= 1 && t->value <= 86400)))
		return cmd_error("mail", "%s: mail.timeout: '%s' is not a number of seconds from 1 "
				 "to 86400", file ? file : "amdahl.yaml", t->text ? t->text : "");
	return 0;
}

static int apply_config(struct opts *o, const struct amd_cfg_mail *cfg, const char *file)
{
	const char *env = getenv("AMDAHL_SMTP_URL");
	if (!o->to.len && cfg->to && amd_buf_printf(&o->to, "%s", cfg->to) < 0)
		return cmd_error("mail", "out of memory");
	if (!o->from)
		o->from = cfg->from;
	if (!o->subject)
		o->subject = cfg->subject;
	if (!o->cacert)
		o->cacert = cfg->cacert;
	if (!o->smtp)
		o->smtp = env && *env ? env : cfg->smtp ? cfg->smtp : "smtp://localhost";
	if (timeout_from(&cfg->timeout, file, &o->timeout_s) != 0)
		return EXIT_USAGE;
	if (cfg->ssl_reqd)
		o->ssl_reqd = 1;
	return 0;
}

static char *default_from(void)
{
	char host[256] = "localhost";
	if (gethostname(host, sizeof host - 1) != 0 || !*host)
		strcpy(host, "localhost");
	struct amd_buf b = {0};
	amd_buf_printf(&b, "amdahl@%s", host); /* b.data NULL when out of memory */
	return b.data;
}

static char *default_subject(const struct amd_mail_report *r)
{
	struct amd_buf b = {0};
	if (amd_buf_printf(&b, "amdahl report: %s",
			   cmd_shown(r->sweep ? r->sweep : amd_basename(r->dir))) < 0 ||
	    (r->gate && amd_buf_printf(&b, ", gate: %s", r->gate) < 0))
		amd_buf_free(&b); /* NULL: out of memory, never a subject without the verdict */
	return b.data;
}

static int write_eml(const struct amd_mail_msg *m, const char *path)
{
	struct amd_err err = {{0}};
	int to_stdout = strcmp(path, "-") == 0;
	struct amd_out o;
	if (!to_stdout && amd_out_open_path(&o, path, &err) < 0)
		return cmd_error("mail", "%s", err.msg);
	int rc = amd_mail_write(m, to_stdout ? stdout : o.f, &err);
	if (!to_stdout && rc < 0)
		amd_out_discard(&o);
	else if (!to_stdout)
		rc = amd_out_commit(&o, &err);
	if (rc < 0)
		return cmd_error("mail", "%s", err.msg);
	if (!to_stdout)
		fprintf(stderr, "amdahl mail: wrote %s (not sent)\n", path);
	return EXIT_OK;
}

static int deliver(const struct amd_mail_msg *m, const struct opts *o)
{
	struct amd_err err = {{0}};
	const char *pw = getenv("AMDAHL_SMTP_PASSWORD");
	struct amd_smtp smtp = {.url = o->smtp, .password = pw && *pw ? pw : NULL,
				.ssl_reqd = o->ssl_reqd, .cacert = o->cacert,
				.timeout_s = o->timeout_s};
	if (amd_mail_send(m, &smtp, &err) < 0) {
		cmd_error("mail", "%s", err.msg);
		return EXIT_NOT_SENT;
	}
	char *url = amd_mail_url_scrub(o->smtp); /* NULL: out of memory, the mail is sent */
	printf("sent %s%s%s to %zu recipient%s via %s\n", amd_basename(m->pdf_path),
	       m->html_path ? " and " : "", m->html_path ? amd_basename(m->html_path) : "", m->nto,
	       m->nto == 1 ? "" : "s", url ? url : "the SMTP server");
	free(url);
	return EXIT_OK;
}

/* Builds the message from the report and checks every header value. */
static int compose(struct opts *o, struct amd_mail_report *r, struct amd_mail_msg *m,
		   char **owned, struct amd_err *err)
{
	if (amd_mail_report_load(o->dir, r, err) < 0)
		return -1;
	if (o->gate && amd_mail_report_gate(r, o->gate, err) < 0)
		return -1;
	if (!o->from)
		o->from = owned[0] = default_from();
	if (!o->subject)
		o->subject = owned[1] = default_subject(r);
	if (!o->from || !o->subject)
		return amd_fail(err, "out of memory");
	if (amd_mail_check_address(o->from, err) < 0)
		return amd_fail_prefix(err, "sender");
	for (size_t i = 0; i < m->nto; i++)
		if (amd_mail_check_address(m->to[i], err) < 0)
			return amd_fail_prefix(err, "recipient");
	if (amd_mail_check_text("subject", o->subject, err) < 0)
		return -1;
	if (!o->dry_run && amd_mail_check_url(o->smtp, err) < 0)
		return -1;
	m->from = o->from;
	m->subject = o->subject;
	m->pdf_path = r->pdf_path;
	if (o->attach_html && !r->html_path)
		return amd_fail(err, "%s: no report.html to attach; 'amdahl report build -o %s' "
				     "writes one", o->dir, o->dir);
	r->attach_html = o->attach_html;
	m->html_path = o->attach_html ? r->html_path : NULL;
	m->text = owned[2] = amd_mail_render("mail.txt", r, o->subject, err);
	m->html = owned[3] = m->text ? amd_mail_render("mail.html", r, o->subject, err) : NULL;
	return m->html ? 0 : -1;
}

int cmd_mail(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct opts o;
	memset(&o, 0, sizeof o);
	int rc = parse_args(argc, argv, &o);
	if (rc != CMD_RUN) {
		amd_buf_free(&o.to);
		return rc;
	}
	if (apply_config(&o, &ctx->config.mail, ctx->config.path) != 0) {
		amd_buf_free(&o.to);
		return EXIT_USAGE;
	}
	struct amd_mail_msg m = {0};
	struct amd_mail_report r = {0};
	struct amd_err err = {{0}};
	char *owned[4] = {0};
	const char **to = NULL;
	if (o.to.data && split_addresses(o.to.data, &to, &m.nto) < 0)
		rc = cmd_error("mail", "out of memory");
	else if (m.nto == 0)
		rc = cmd_error("mail", "no recipient: give --to ADDR or set mail.to in amdahl.yaml");
	else {
		m.to = to;
		if (compose(&o, &r, &m, owned, &err) < 0)
			rc = cmd_error("mail", "%s", err.msg);
		else
			rc = o.dry_run ? write_eml(&m, o.dry_run) : deliver(&m, &o);
	}
	for (int i = 0; i < 4; i++)
		free(owned[i]);
	free(to);
	amd_mail_report_free(&r);
	amd_buf_free(&o.to);
	return rc;
}
