/* mail.h — delivering a message with libcurl (SMTP, MIME, base64 are
 * all libcurl's), or writing the exact bytes libcurl would send as an
 * .eml file; header values and addresses checked first. What goes in
 * the message comes from the report (mail_report.h). */
#ifndef AMD_MAIL_H
#define AMD_MAIL_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"

/* Refuses a header value that could inject headers (CR, LF, other
 * control characters) or an address that is not one plain addr-spec. */
int amd_mail_check_text(const char *what, const char *value, struct amd_err *err);
int amd_mail_check_address(const char *value, struct amd_err *err);

/* Appends the Subject header's value: s itself when it is printable
 * ASCII, else RFC 2047 encoded words "=?UTF-8?B?...?=" (base64 by
 * libcrypto's EVP_EncodeBlock) of at most 39 bytes of s each, never
 * splitting a UTF-8 character, folded by CRLF SP, so no line passes 78
 * columns. s is valid UTF-8 (an invalid byte is encoded as it is). -1
 * when out of memory. */
struct amd_buf;
int amd_mail_subject_value(const char *s, struct amd_buf *out);

struct amd_mail_msg {
	const char *from;
	const char *const *to;
	size_t nto;
	const char *subject;
	const char *text, *html; /* the two alternative bodies */
	const char *pdf_path;
	const char *html_path; /* also attached (text/html, base64) when not NULL */
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
