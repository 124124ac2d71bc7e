/* mail.c — the message and its delivery: headers, the curl_mime tree
 * (multipart/mixed: multipart/alternative text+HTML, the PDF in base64),
 * sending over SMTP with libcurl, and the dry run that captures the exact
 * DATA bytes through an in-process SMTP endpoint on a private Unix-domain
 * socket. Every byte of MIME, base64 and SMTP client protocol is libcurl's. */
#include "mail.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "curl_load.h" /* libcurl, loaded on first use */
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "buf.h"
#include "file.h"

#ifndef AMDAHL_VERSION
#define AMDAHL_VERSION "dev"
#endif

/* ---- checks against header injection ---- */

int amd_mail_check_text(const char *what, const char *value, struct amd_err *err)
{
	size_t n = strlen(value);
	if (n > 900)
		return amd_fail(err, "the %s is %zu bytes long; at most 900 fit a mail header line",
				what, n);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)value[i];
		if (c == '\r' || c == '\n')
			return amd_fail(err, "the %s holds a line break (CR or LF) at byte %zu: "
					"refused, it could inject mail headers", what, i);
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return amd_fail(err, "the %s holds control character 0x%02x at byte %zu: refused",
					what, c, i);
	}
	return 0;
}

int amd_mail_check_address(const char *value, struct amd_err *err)
{
	if (amd_mail_check_text("address", value, err) < 0)
		return -1;
	const char *at = strchr(value, '@');
	if (!*value || !at || at == value || !at[1] || strchr(at + 1, '@'))
		return amd_fail(err, "'%s' is not a mail address (want local@domain)", value);
	for (const char *p = value; *p; p++)
		if (isspace((unsigned char)*p) || strchr("<>,;:\"()[]\\", *p))
			return amd_fail(err, "'%s' is not a plain mail address: '%c' at byte %zu",
					value, *p, (size_t)(p - value));
	return 0;
}

/* ---- URLs and passwords ---- */

char *amd_mail_url_scrub(const char *url)
{
	if (amd_curl_load(NULL) < 0)
		return strdup("(the SMTP URL, unread: libcurl cannot be loaded)");
	CURLU *u = curl_url();
	char *out = NULL, *clean = NULL;
	if (u && curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_PASSWORD, NULL, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_URL, &clean, 0) == CURLUE_OK)
		out = strdup(clean);
	curl_free(clean);
	curl_url_cleanup(u);
	return out ? out : strdup("(the SMTP URL, which does not parse)");
}

/* Whether the URL parses, names a user and holds no password. */
static int url_inspect(const char *url, int *has_user, struct amd_err *err)
{
	*has_user = 0;
	if (amd_curl_load(err) < 0)
		return -1;
	CURLU *u = curl_url();
	char *user = NULL, *pass = NULL, *scheme = NULL;
	int rc = 0;
	if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK)
		rc = amd_fail(err, "the SMTP URL does not parse (want smtp://[user@]host[:port] "
			      "or smtps://...)");
	else if (strcmp(scheme, "smtp") != 0 && strcmp(scheme, "smtps") != 0)
		rc = amd_fail(err, "the SMTP URL has scheme '%s'; want smtp:// or smtps://", scheme);
	else if (curl_url_get(u, CURLUPART_PASSWORD, &pass, 0) == CURLUE_OK && pass)
		rc = amd_fail(err, "the SMTP URL holds a password: put it in AMDAHL_SMTP_PASSWORD "
			      "or ~/.netrc instead, and keep only the user in the URL");
	*has_user = curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK && user && *user;
	curl_free(user);
	curl_free(pass);
	curl_free(scheme);
	curl_url_cleanup(u);
	return rc;
}

int amd_mail_check_url(const char *url, struct amd_err *err)
{
	int has_user;
	return url_inspect(url, &has_user, err);
}

/* Replaces every occurrence of secret in msg with "***". */
static void redact(char *msg, size_t cap, const char *secret)
{
	size_t n = secret ? strlen(secret) : 0;
	char *p = msg;
	if (n == 0)
		return;
	while ((p = strstr(p, secret)) != NULL && (size_t)(p - msg) + 4 < cap) {
		size_t tail = strlen(p + n) + 1;
		if ((size_t)(p - msg) + 3 + tail > cap)
			tail = cap - (size_t)(p - msg) - 3;
		memmove(p + 3, p + n, tail);
		memcpy(p, "***", 3);
		msg[cap - 1] = '\0';
		p += 3;
	}
}

/* ---- the message ---- */

struct built {
	curl_mime *mime;
	struct curl_slist *headers, *rcpt;
	char *from;
};

static void built_free(struct built *b)
{
	curl_mime_free(b->mime);
	curl_slist_free_all(b->headers);
	curl_slist_free_all(b->rcpt);
	free(b->from);
}

static int add_line(struct curl_slist **list, struct amd_buf *line)
{
	struct curl_slist *l = line->data ? curl_slist_append(*list, line->data) : NULL;
	amd_buf_free(line);
	if (!l)
		return -1;
	*list = l;
	return 0;
}

/* RFC 5322 date in the C locale's names, local time with its offset. */
static void rfc5322_date(char *out, size_t cap)
{
	static const char *const day[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const mon[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	time_t now = time(NULL);
	struct tm tm;
	char zone[8];
	localtime_r(&now, &tm);
	strftime(zone, sizeof zone, "%z", &tm);
	snprintf(out, cap, "%s, %02d %s %04d %02d:%02d:%02d %s", day[tm.tm_wday], tm.tm_mday,
		 mon[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec, zone);
}

static int header(struct built *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int header(struct built *b, const char *fmt, ...)
{
	char small[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	struct curl_slist *l = n >= 0 && (size_t)n < sizeof small
				       ? curl_slist_append(b->headers, small) : NULL;
	if (!l)
		return -1;
	b->headers = l;
	return 0;
}

/* "To: a, b, ..." folded (CRLF + space) before a line passes 78 columns,
 * so that many recipients never make a line longer than RFC 5322 allows. */
static int to_header(const struct amd_mail_msg *m, struct built *b)
{
	struct amd_buf line = {0};
	size_t col = 4;
	int rc = amd_buf_printf(&line, "To: ");
	for (size_t i = 0; i < m->nto && rc == 0; i++) {
		size_t n = strlen(m->to[i]);
		int fold = i && col + n + 2 > 78;
		rc = amd_buf_printf(&line, "%s%s", i ? (fold ? ",\r\n " : ", ") : "", m->to[i]);
		col = fold ? 1 + n : col + n + (i ? 2 : 0);
	}
	if (rc < 0) { /* never a shorter list of recipients */
		amd_buf_free(&line);
		return -1;
	}
	return add_line(&b->headers, &line);
}

/* ---- the subject as RFC 2047 encoded words (libcurl encodes bodies,
 * never header values) ---- */

#define WORD_BYTES 39 /* 52 base64 characters: "Subject: " + a word < 78 */

static int printable_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

/* How many bytes of s (len left) go in one word: at most WORD_BYTES,
 * ending before a UTF-8 continuation byte when one fits. */
static size_t word_cut(const unsigned char *s, size_t len)
{
	size_t n = len < WORD_BYTES ? len : WORD_BYTES;
	size_t cut = n;
	while (cut < len && cut > 0 && (s[cut] & 0xC0) == 0x80)
		cut--;
	return cut ? cut : n;
}

int amd_mail_subject_value(const char *s, struct amd_buf *out)
{
	if (printable_ascii(s))
		return amd_buf_append(out, s, strlen(s));
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);
	unsigned char b64[4 * ((WORD_BYTES + 2) / 3) + 1];
	int rc = amd_buf_append(out, "", 0);
	for (int first = 1; len && rc == 0; first = 0) {
		size_t n = word_cut(p, len);
		EVP_EncodeBlock(b64, p, (int)n);
		rc = amd_buf_printf(out, "%s=?UTF-8?B?%s?=", first ? "" : "\r\n ", (char *)b64);
		p += n;
		len -= n;
	}
	return rc;
}

static int subject_header(const struct amd_mail_msg *m, struct built *b)
{
	struct amd_buf line = {0};
	if (amd_buf_printf(&line, "Subject: ") < 0 ||
	    amd_mail_subject_value(m->subject, &line) < 0) {
		amd_buf_free(&line);
		return -1;
	}
	return add_line(&b->headers, &line);
}

static int build_headers(const struct amd_mail_msg *m, struct built *b)
{
	unsigned char rnd[8] = {0};
	char date[64], id[17];
	rfc5322_date(date, sizeof date);
	RAND_bytes(rnd, sizeof rnd);
	for (size_t i = 0; i < sizeof rnd; i++)
		snprintf(id + 2 * i, 3, "%02x", rnd[i]);
	return header(b, "From: %s", m->from) < 0 || to_header(m, b) < 0 ||
			       subject_header(m, b) < 0 ||
			       header(b, "Date: %s", date) < 0 ||
			       header(b, "Message-ID: <amdahl.%lld.%s@%s>", (long long)time(NULL), id,
				      strchr(m->from, '@') + 1) < 0 ||
			       header(b, "X-Mailer: amdahl %s", AMDAHL_VERSION) < 0
		       ? -1
		       : 0;
}

/* The body with CRLF line ends, so that quoted-printable keeps them as
 * line breaks instead of encoding LF as =0A. */
static int crlf(const char *text, struct amd_buf *out)
{
	int rc = amd_buf_append(out, "", 0);
	for (const char *p = text; *p && rc == 0; p++) {
		if (*p == '\n' && (p == text || p[-1] != '\r'))
			rc = amd_buf_append(out, "\r", 1);
		rc = rc ? rc : amd_buf_append(out, p, 1);
	}
	return rc;
}

static int add_text_part(curl_mime *alt, const char *body, const char *type)
{
	struct amd_buf text = {0};
	curl_mimepart *p = curl_mime_addpart(alt);
	int rc = !p || crlf(body, &text) < 0 ||
			 curl_mime_data(p, text.data, text.len) != CURLE_OK ||
			 curl_mime_type(p, type) != CURLE_OK ||
			 curl_mime_encoder(p, "quoted-printable") != CURLE_OK
		 ? -1
		 : 0;
	amd_buf_free(&text);
	return rc;
}

/* The file at path as an attachment of type, named by its base name,
 * base64-encoded (libcurl reads it while sending). */
static int attach_file(curl_mime *mime, const char *path, const char *type, struct amd_err *err)
{
	curl_mimepart *p = curl_mime_addpart(mime);
	if (!p || curl_mime_filedata(p, path) != CURLE_OK)
		return amd_fail(err, "%s: cannot be read for attaching", path);
	if (curl_mime_filename(p, amd_basename(path)) != CURLE_OK ||
	    curl_mime_type(p, type) != CURLE_OK || curl_mime_encoder(p, "base64") != CURLE_OK)
		return amd_fail(err, "out of memory building the message");
	return 0;
}

static int build_mime(CURL *h, const struct amd_mail_msg *m, struct built *b,
		      struct amd_err *err)
{
	curl_mime *alt = curl_mime_init(h);
	b->mime = curl_mime_init(h);
	if (!alt || !b->mime || add_text_part(alt, m->text, "text/plain; charset=utf-8") < 0 ||
	    add_text_part(alt, m->html, "text/html; charset=utf-8") < 0) {
		curl_mime_free(alt);
		return amd_fail(err, "out of memory building the message");
	}
	curl_mimepart *body = curl_mime_addpart(b->mime);
	if (!body || curl_mime_subparts(body, alt) != CURLE_OK) {
		curl_mime_free(alt);
		return amd_fail(err, "out of memory building the message");
	}
	curl_mime_type(body, "multipart/alternative");
	if (attach_file(b->mime, m->pdf_path, "application/pdf", err) < 0)
		return -1;
	return m->html_path ? attach_file(b->mime, m->html_path, "text/html; charset=utf-8", err)
			    : 0;
}

static int check_msg(const struct amd_mail_msg *m, struct amd_err *err)
{
	if (m->nto == 0)
		return amd_fail(err, "no recipient");
	if (amd_mail_check_address(m->from, err) < 0)
		return amd_fail_prefix(err, "sender");
	for (size_t i = 0; i < m->nto; i++)
		if (amd_mail_check_address(m->to[i], err) < 0)
			return amd_fail_prefix(err, "recipient");
	if (amd_mail_check_text("subject", m->subject, err) < 0)
		return -1;
	if (!amd_is_file(m->pdf_path))
		return amd_fail(err, "%s: not a readable file", m->pdf_path);
	if (m->html_path && !amd_is_file(m->html_path))
		return amd_fail(err, "%s: not a readable file", m->html_path);
	return 0;
}

/* Everything both send and write set on the handle. */
static int build(CURL *h, const struct amd_mail_msg *m, struct built *b, struct amd_err *err)
{
	struct amd_buf line = {0};
	if (check_msg(m, err) < 0)
		return -1;
	if (build_headers(m, b) < 0)
		return amd_fail(err, "out of memory building the message");
	for (size_t i = 0; i < m->nto; i++) {
		if (amd_buf_printf(&line, "<%s>", m->to[i]) < 0 || add_line(&b->rcpt, &line) < 0) {
			amd_buf_free(&line);
			return amd_fail(err, "out of memory building the message");
		}
	}
	if (amd_buf_printf(&line, "<%s>", m->from) < 0)
		amd_buf_free(&line);
	b->from = line.data;
	if (!b->from || build_mime(h, m, b, err) < 0)
		return b->from ? -1 : amd_fail(err, "out of memory building the message");
	curl_easy_setopt(h, CURLOPT_MAIL_FROM, b->from);
	curl_easy_setopt(h, CURLOPT_MAIL_RCPT, b->rcpt);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, b->headers);
	curl_easy_setopt(h, CURLOPT_MIMEPOST, b->mime);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	return 0;
}

/* ---- sending ---- */

/* What the SMTP dialogue said when it went wrong: the command a reply
 * >= 400 answered (only MAIL/RCPT/DATA/EHLO/STARTTLS lines are kept, so
 * AUTH data never is) and that reply. */
struct dialogue {
	char cmd[256], failed_cmd[256], failed_reply[256];
	int saw_reply, connected;
	const char *stage; /* the dialogue's step waiting for the server */
	const char *stalled_at; /* stage when the time ran out */
	struct timespec deadline; /* the whole send, QUIT included */
	int has_deadline, past_deadline;
};

/* The step of the dialogue a command sent opens, named as the error says
 * it; NULL for lines that open none (AUTH data, message bytes). */
static const char *stage_of(const char *line, size_t n)
{
	static const struct { const char *cmd, *stage; } steps[] = {
		{"EHLO ", "EHLO"}, {"HELO ", "EHLO"}, {"STARTTLS", "STARTTLS"},
		{"AUTH ", "AUTH"}, {"MAIL ", "MAIL/RCPT"}, {"RCPT ", "MAIL/RCPT"},
		{"DATA", "DATA"}, {"QUIT", "QUIT"}};
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (n >= strlen(steps[i].cmd) && strncmp(line, steps[i].cmd, strlen(steps[i].cmd)) == 0)
			return steps[i].stage;
	return NULL;
}

static void copy_line(char *dst, size_t cap, const char *src, size_t n)
{
	size_t k = 0;
	while (k < n && k + 1 < cap && src[k] != '\r' && src[k] != '\n') {
		dst[k] = isprint((unsigned char)src[k]) ? src[k] : '?';
		k++;
	}
	dst[k] = '\0';
}

static int on_debug(CURL *h, curl_infotype type, char *data, size_t n, void *arg)
{
	struct dialogue *d = arg;
	static const char *const kept[] = {"MAIL ", "RCPT ", "DATA", "EHLO ", "HELO ", "STARTTLS"};
	if (type == CURLINFO_TEXT && !d->stalled_at &&
	    (memmem(data, n, "timeout", 7) || memmem(data, n, "timed out", 9)))
		d->stalled_at = d->stage ? d->stage : "connect";
	if (type == CURLINFO_TEXT && n >= 10 && strncmp(data, "Connected ", 10) == 0) {
		d->connected = 1;
		d->stage = "the greeting";
	} else if (type == CURLINFO_HEADER_OUT) {
		const char *stage = stage_of(data, n);
		d->stage = stage ? stage : d->stage;
		d->cmd[0] = '\0';
		for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
			if (n >= strlen(kept[i]) && strncmp(data, kept[i], strlen(kept[i])) == 0)
				copy_line(d->cmd, sizeof d->cmd, data, n);
	} else if (type == CURLINFO_HEADER_IN && n >= 3) {
		d->saw_reply = 1;
		if (data[0] >= '4' && data[0] <= '5' && !d->failed_reply[0]) {
			copy_line(d->failed_reply, sizeof d->failed_reply, data, n);
			memcpy(d->failed_cmd, d->cmd, sizeof d->cmd);
		}
	}
	return 0;
}

/* libcurl's progress callback, called about once a second also while it
 * waits for a reply, the QUIT when the connection closes included (which
 * CURLOPT_TIMEOUT does not bound: curl waits up to 120 s for that reply).
 * Past the deadline it aborts; a connection never reused
 * (CURLOPT_FORBID_REUSE) is closed inside curl_easy_perform, so the
 * deadline bounds the whole send. */
static int on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	struct dialogue *d = arg;
	struct timespec now;
	(void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	if (!d->has_deadline || clock_gettime(CLOCK_MONOTONIC, &now) != 0)
		return 0;
	if (now.tv_sec > d->deadline.tv_sec ||
	    (now.tv_sec == d->deadline.tv_sec && now.tv_nsec >= d->deadline.tv_nsec))
		d->past_deadline = 1;
	if (d->past_deadline && !d->stalled_at)
		d->stalled_at = d->stage ? d->stage : "connect";
	return d->past_deadline;
}

static void set_deadline(CURL *h, struct dialogue *d, long timeout_s)
{
	if (timeout_s <= 0 || clock_gettime(CLOCK_MONOTONIC, &d->deadline) != 0)
		return;
	d->deadline.tv_sec += timeout_s;
	d->has_deadline = 1;
	curl_easy_setopt(h, CURLOPT_TIMEOUT, timeout_s);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, timeout_s < 30 ? timeout_s : 30L);
	curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, d);
}

/* "the server was reached but did not answer the DATA step" or "no
 * connection": what a send that ran out of time was waiting for. */
static int timed_out(CURLcode rc, const struct dialogue *d)
{
	return rc == CURLE_OPERATION_TIMEDOUT || (rc == CURLE_ABORTED_BY_CALLBACK && d->past_deadline);
}

static const char *what_failed(CURLcode rc, const struct dialogue *d)
{
	if (strncmp(d->failed_reply, "552", 3) == 0)
		return "the server refuses a message this large";
	if (strncmp(d->failed_cmd, "RCPT", 4) == 0)
		return "the server refused a recipient";
	if (strncmp(d->failed_cmd, "MAIL", 4) == 0)
		return "the server refused the sender";
	if (strncmp(d->failed_cmd, "DATA", 4) == 0)
		return "the server refused the message";
	switch (rc) {
	case CURLE_LOGIN_DENIED: return "login refused";
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_OPERATION_TIMEDOUT: return "cannot reach the server";
	case CURLE_USE_SSL_FAILED: return "the server does not offer STARTTLS (--ssl-reqd)";
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION: return "TLS failed";
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_WEIRD_SERVER_REPLY: return d->saw_reply ? "the connection dropped"
							   : "the server closed the connection";
	default: return "sending failed";
	}
}

/* 1 when the SMTP URL's host and port answer an HTTP request (libcurl,
 * HEAD /, at most 1 s past the send's timeout): a server that sent no
 * greeting, or a reply SMTP does not
 * know, is then a web server on that port. */
static int speaks_http(const char *smtp_url)
{
	CURLU *u = curl_url();
	char *port = NULL, *http = NULL;
	int yes = 0;
	if (u && curl_url_set(u, CURLUPART_URL, smtp_url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_SCHEME, "http", 0) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_PORT, port, 0) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_USER, NULL, 0) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_PATH, "/", 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_URL, &http, 0) == CURLUE_OK) {
		CURL *h = curl_easy_init();
		long code = 0;
		if (h) {
			curl_easy_setopt(h, CURLOPT_URL, http);
			curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
			curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 1000L);
			curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
			curl_easy_perform(h);
			curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
			curl_easy_cleanup(h);
		}
		yes = code >= 100;
	}
	curl_free(port);
	curl_free(http);
	curl_url_cleanup(u);
	return yes;
}

/* No greeting within the time, or a greeting SMTP does not know. */
static int no_greeting(CURLcode rc, const struct dialogue *d)
{
	return d->connected && !d->failed_reply[0] &&
	       ((timed_out(rc, d) && (!d->stalled_at || strcmp(d->stalled_at, "the greeting") == 0 ||
				      strcmp(d->stalled_at, "connect") == 0)) ||
		rc == CURLE_WEIRD_SERVER_REPLY || rc == CURLE_GOT_NOTHING);
}

static int send_error(CURLcode rc, const char *errbuf, const struct dialogue *d,
		      const struct amd_smtp *smtp, struct amd_err *err)
{
	char *url = amd_mail_url_scrub(smtp->url);
	struct amd_buf b = {0};
	int ok;
	if (no_greeting(rc, d) && strncmp(smtp->url, "smtp://", 7) == 0 &&
	    speaks_http(smtp->url))
		ok = url && amd_buf_printf(&b, "%s: the server speaks HTTP, not SMTP: it sent no SMTP "
					   "greeting but answers an HTTP request on that port (a web "
					   "server's port? SMTP is usually 25, 465 or 587)", url) == 0;
	else if (timed_out(rc, d) && d->connected)
		ok = url && amd_buf_printf(&b, "%s: the server was reached but stopped answering at "
					   "%s: no reply within the %ld s timeout", url,
					   d->stalled_at ? d->stalled_at : "the greeting",
					   smtp->timeout_s) == 0;
	else if (timed_out(rc, d))
		ok = url && amd_buf_printf(&b, "%s: cannot reach the server: no connection within "
					   "the %ld s timeout (connect)", url, smtp->timeout_s) == 0;
	else
		ok = url && amd_buf_printf(&b, "%s: %s: %s", url, what_failed(rc, d),
					   *errbuf ? errbuf : curl_easy_strerror(rc)) == 0;
	if (ok && d->failed_reply[0])
		ok = amd_buf_printf(&b, " (%s%s%s)", d->failed_cmd, d->failed_cmd[0] ? " -> " : "",
				    d->failed_reply) == 0;
	if (ok && !smtp->ssl_reqd && strcasestr(d->failed_reply, "STARTTLS"))
		ok = amd_buf_printf(&b, "; the server wants STARTTLS: add --ssl-reqd") == 0;
	if (ok)
		amd_fail(err, "%s", b.data);
	else /* out of memory: at least what failed, never a part of it */
		amd_fail(err, "%s: %s", what_failed(rc, d), *errbuf ? errbuf : curl_easy_strerror(rc));
	amd_buf_free(&b);
	free(url);
	redact(err->msg, sizeof err->msg, smtp->password);
	return -1;
}

int amd_mail_send(const struct amd_mail_msg *m, const struct amd_smtp *smtp,
		  struct amd_err *err)
{
	int has_user = 0;
	if (url_inspect(smtp->url, &has_user, err) < 0)
		return -1;
	CURL *h = curl_easy_init();
	struct built b = {0};
	struct dialogue d;
	memset(&d, 0, sizeof d);
	char errbuf[CURL_ERROR_SIZE] = "";
	if (!h)
		return amd_fail(err, "cannot start libcurl");
	int rc = build(h, m, &b, err);
	if (rc == 0) {
		curl_easy_setopt(h, CURLOPT_URL, smtp->url);
		curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
		curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);
		curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, on_debug);
		curl_easy_setopt(h, CURLOPT_DEBUGDATA, &d);
		curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 30L);
		set_deadline(h, &d, smtp->timeout_s);
		if (smtp->ssl_reqd)
			curl_easy_setopt(h, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
		if (smtp->cacert)
			curl_easy_setopt(h, CURLOPT_CAINFO, smtp->cacert);
		if (has_user && smtp->password)
			curl_easy_setopt(h, CURLOPT_PASSWORD, smtp->password);
		else
			curl_easy_setopt(h, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
		CURLcode res = curl_easy_perform(h);
		if (res != CURLE_OK)
			rc = send_error(res, errbuf, &d, smtp, err);
	}
	built_free(&b);
	curl_easy_cleanup(h);
	return rc;
}

/* ---- the dry run: an in-process SMTP endpoint that keeps DATA ----
 * libcurl has no call that serialises a curl_mime, so the dry run lets
 * libcurl send for real to an endpoint in this process, listening on a
 * Unix-domain socket in a private 0700 directory (CURLOPT_UNIX_SOCKET_PATH:
 * no network). It answers with fixed reply codes and keeps the DATA bytes,
 * undoing the dot-stuffing as any SMTP server does. (A socketpair with
 * CURL_SOCKOPT_ALREADY_CONNECTED would avoid the socket file, but libcurl
 * 7.88 connects anyway: curl/curl#10626.) */

struct capture {
	int listen_fd, fd; /* the endpoint's sockets */
	FILE *out;
	int complete; /* saw the end of DATA */
	int write_failed;
	char dir[64], path[96];
};

static void reply(int fd, const char *text)
{
	(void)!send(fd, text, strlen(text), MSG_NOSIGNAL);
}

/* Keeps one DATA line, undoing SMTP's dot-stuffing (RFC 5321 4.5.2);
 * returns whether DATA goes on. */
static int data_line(struct capture *c, const char *line, size_t n)
{
	if (strcmp(line, ".\r\n") == 0) {
		c->complete = 1;
		reply(c->fd, "250 2.0.0 written\r\n");
		return 0;
	}
	if (line[0] == '.')
		line++, n--;
	if (fwrite(line, 1, n, c->out) != n)
		c->write_failed = 1;
	return 1;
}

static void serve(struct capture *c, FILE *in)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int in_data = 0;
	reply(c->fd, "220 amdahl dry run\r\n");
	while ((n = getline(&line, &cap, in)) > 0) {
		if (in_data)
			in_data = data_line(c, line, (size_t)n);
		else if (strncasecmp(line, "EHLO", 4) == 0 || strncasecmp(line, "HELO", 4) == 0)
			reply(c->fd, "250 amdahl\r\n");
		else if (strncasecmp(line, "MAIL", 4) == 0 || strncasecmp(line, "RCPT", 4) == 0)
			reply(c->fd, "250 2.1.0 ok\r\n");
		else if (strncasecmp(line, "DATA", 4) == 0) {
			in_data = 1;
			reply(c->fd, "354 end with <CRLF>.<CRLF>\r\n");
		} else if (strncasecmp(line, "QUIT", 4) == 0) {
			reply(c->fd, "221 2.0.0 bye\r\n");
			break;
		} else
			reply(c->fd, "502 5.5.1 not here\r\n");
	}
	free(line);
}

static void *endpoint(void *arg)
{
	struct capture *c = arg;
	c->fd = accept(c->listen_fd, NULL, NULL);
	if (c->fd < 0)
		return NULL;
	FILE *in = fdopen(dup(c->fd), "r");
	if (in) {
		serve(c, in);
		fclose(in);
	}
	return NULL;
}

static int endpoint_listen(struct capture *c, struct amd_err *err)
{
	const char *tmp = getenv("TMPDIR");
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (!tmp || !*tmp || strlen(tmp) > 40)
		tmp = "/tmp";
	snprintf(c->dir, sizeof c->dir, "%s/amdahl-mail-XXXXXX", tmp);
	if (!mkdtemp(c->dir))
		return amd_fail(err, "%s: cannot make a directory for the dry run", c->dir);
	snprintf(c->path, sizeof c->path, "%s/smtp", c->dir);
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", c->path);
	c->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->listen_fd < 0 || bind(c->listen_fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
	    listen(c->listen_fd, 1) < 0) {
		if (c->listen_fd >= 0)
			close(c->listen_fd);
		unlink(c->path);
		rmdir(c->dir);
		return amd_fail(err, "%s: cannot listen for the dry run", c->path);
	}
	return 0;
}

static int capture_run(CURL *h, struct capture *c, char *errbuf, struct amd_err *err)
{
	pthread_t tid;
	c->fd = -1;
	if (endpoint_listen(c, err) < 0)
		return -1;
	int started = pthread_create(&tid, NULL, endpoint, c) == 0;
	CURLcode res = CURLE_FAILED_INIT;
	if (started) {
		curl_easy_setopt(h, CURLOPT_URL, "smtp://localhost/amdahl-dry-run");
		curl_easy_setopt(h, CURLOPT_UNIX_SOCKET_PATH, c->path);
		curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
		curl_easy_setopt(h, CURLOPT_FORBID_REUSE, 1L); /* QUIT before perform returns */
		res = curl_easy_perform(h);
		shutdown(c->listen_fd, SHUT_RDWR); /* wakes accept() if curl never came */
		if (c->fd >= 0)
			shutdown(c->fd, SHUT_RDWR);
		pthread_join(tid, NULL);
	}
	if (c->fd >= 0)
		close(c->fd);
	close(c->listen_fd);
	unlink(c->path);
	rmdir(c->dir);
	if (!started)
		return amd_fail(err, "cannot start the dry-run endpoint");
	if (res != CURLE_OK)
		return amd_fail(err, "writing the message: %s", *errbuf ? errbuf : curl_easy_strerror(res));
	return 0;
}

int amd_mail_write(const struct amd_mail_msg *m, FILE *out, struct amd_err *err)
{
	if (amd_curl_load(err) < 0)
		return -1;
	CURL *h = curl_easy_init();
	struct built b = {0};
	struct capture c = {.out = out};
	char errbuf[CURL_ERROR_SIZE] = "";
	if (!h)
		return amd_fail(err, "cannot start libcurl");
	int rc = build(h, m, &b, err);
	if (rc == 0)
		rc = capture_run(h, &c, errbuf, err);
	if (rc == 0 && (c.write_failed || fflush(out) != 0 || ferror(out)))
		rc = amd_fail(err, "writing the message failed (disk full?)");
	else if (rc == 0 && !c.complete)
		rc = amd_fail(err, "writing the message: libcurl did not finish the DATA phase");
	built_free(&b);
	curl_easy_cleanup(h);
	return rc;
}
