/* csv.c — the shared CSV record reader (a leading UTF-8 BOM skipped by text16.h) and
 * the number-with-unit parser; see csv.h. Files are streamed through zlib's gzread (plain or gzipped)
 * in a window of CSV_WINDOW bytes, so memory does not grow with the file. */
#include "csv.h"
#include "text16.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "file.h"
#include "num.h"

#define CSV_WINDOW (256 * 1024)

void amd_csv_init(struct amd_csv *c, const char *path, const char *data, size_t len,
		  int trim)
{
	memset(c, 0, sizeof *c);
	c->path = path;
	c->p = data;
	c->end = data ? data + len : NULL; /* NULL + 0 is undefined */
	c->next_line = 1;
	c->trim = trim;
}

int amd_csv_open(struct amd_csv *c, const char *path, int trim, struct amd_err *err)
{
	amd_csv_init(c, path, NULL, 0, trim);
	int fd = amd_open_regular(path, err);
	if (fd < 0)
		return -1;
	c->gz = gzdopen(fd, "rb");
	if (!c->gz) {
		close(fd);
		return amd_fail(err, "%s: %s", path, errno ? strerror(errno) : "cannot open");
	}
	if (!(c->window = malloc(CSV_WINDOW)) || !(c->text16 = calloc(1, sizeof *c->text16))) {
		gzclose(c->gz);
		free(c->window);
		c->window = NULL;
		c->gz = NULL;
		return amd_fail(err, "%s: out of memory", path);
	}
	gzbuffer(c->gz, 128 * 1024);
	c->p = c->end = c->window;
	return 0;
}

void amd_csv_free(struct amd_csv *c)
{
	free(c->field);
	free(c->text);
	free(c->window);
	if (c->text16)
		amd_textread_free(c->text16);
	free(c->text16);
	c->text16 = NULL;
	if (c->gz)
		gzclose(c->gz);
	c->field = NULL;
	c->text = NULL;
	c->window = NULL;
	c->gz = NULL;
}

/* Reads the next piece of a streamed file into the window (the window is
 * empty when this is called). 1: more data, 0: the end, -1: a read error
 * (in c->io_error). */
static int refill(struct amd_csv *c)
{
	if (!c->gz || c->at_eof || c->io_error[0])
		return c->io_error[0] ? -1 : 0;
	int n = amd_text_gzread(c->gz, c->text16, (unsigned char *)c->window, CSV_WINDOW, c->path,
				&c->text16_err);
	if (n == -2) {
		snprintf(c->io_error, sizeof c->io_error, "%s", c->text16_err.msg);
		return -1;
	}
	if (n < 0) {
		int code;
		const char *msg = gzerror(c->gz, &code);
		snprintf(c->io_error, sizeof c->io_error, "%s: line %d (uncompressed byte %llu): %s",
			 c->path, c->next_line, (unsigned long long)c->offset,
			 code == Z_ERRNO ? strerror(errno) : msg);
		return -1;
	}
	if (n == 0) {
		int code;
		gzerror(c->gz, &code);
		if (code != Z_OK && code != Z_STREAM_END) {
			snprintf(c->io_error, sizeof c->io_error,
				 "%s: line %d: the gzip data ends early (truncated?) after %llu"
				 " uncompressed bytes", c->path, c->next_line,
				 (unsigned long long)c->offset);
			return -1;
		}
		c->at_eof = 1;
		return 0;
	}
	c->p = c->window;
	c->end = c->window + n;
	return 1;
}

/* The next byte without taking it, or -1 at the end (or a read error). */
static inline int peek(struct amd_csv *c)
{
	if (c->p < c->end || refill(c) > 0)
		return (unsigned char)*c->p;
	return -1;
}

static inline void take(struct amd_csv *c)
{
	c->p++;
	c->offset++;
}

/* Room for k more bytes of the record's text after len (and its NUL);
 * -1 when the record grows past AMD_CSV_RECORD_MAX, -2 out of memory. */
static int reserve(struct amd_csv *c, size_t len, size_t k)
{
	if (len + k + 1 <= c->text_cap)
		return 0;
	if (len + k + 1 > AMD_CSV_RECORD_MAX)
		return -1;
	return amd_grow_to(&c->text, len + k + 1, &c->text_cap, 1, 256) < 0 ? -2 : 0;
}

/* Appends ch to the record's text; reserve's failures. */
static int put_char(struct amd_csv *c, size_t *len, char ch)
{
	int rc = reserve(c, *len, 1);
	if (rc == 0)
		c->text[(*len)++] = ch;
	return rc;
}

/* The bytes that end an unquoted field. */
static const unsigned char field_end[256] = {[','] = 1, ['\n'] = 1, ['\r'] = 1, ['\0'] = 1};

/* Takes an unquoted field's bytes up to ',', a line end, a NUL or the
 * end of the input: each stretch of the window copied at once. */
static int plain_run(struct amd_csv *c, size_t *len)
{
	while (c->p < c->end || refill(c) > 0) {
		const char *s = c->p, *e = s;
		while (e < c->end && !field_end[(unsigned char)*e])
			e++;
		size_t k = (size_t)(e - s);
		int rc = reserve(c, *len, k);
		if (rc < 0)
			return rc;
		memcpy(c->text + *len, s, k);
		*len += k;
		c->p = e;
		c->offset += k;
		if (e < c->end)
			break;
	}
	return 0;
}

/* Field starts are kept as offsets into text while it may move, then
 * turned into pointers once the record is complete. */
static int add_field(struct amd_csv *c, size_t start)
{
	if (c->n == c->field_cap &&
	    amd_grow(&c->field, c->n, &c->field_cap, sizeof *c->field, 16) < 0)
		return -1;
	c->field[c->n++] = (char *)(uintptr_t)start;
	return 0;
}

static int is_blank(int ch)
{
	return ch == ' ' || ch == '\t';
}

/* The failure of put_char (rc -1 or -2). */
static int too_long(struct amd_csv *c, int rc, struct amd_err *err)
{
	if (rc == -2)
		return amd_fail(err, "%s: line %d: out of memory", c->path, c->line);
	return amd_fail(err, "%s: line %d: a record longer than %d bytes (or out of memory)",
			c->path, c->line, AMD_CSV_RECORD_MAX);
}

static int quoted_field(struct amd_csv *c, size_t *len, struct amd_err *err)
{
	int start_line = c->next_line, ch, rc;
	take(c); /* the opening quote */
	for (;;) {
		if ((ch = peek(c)) < 0)
			return amd_fail(err, "%s: line %d: unterminated quoted field", c->path,
					start_line);
		take(c);
		if (ch == '"') {
			if (peek(c) != '"')
				break;
			take(c);
		} else if (ch == '\n') {
			c->next_line++;
		}
		if ((rc = put_char(c, len, (char)ch)) < 0)
			return too_long(c, rc, err);
	}
	while (is_blank(peek(c)))
		take(c);
	ch = peek(c);
	if (ch >= 0 && ch != ',' && ch != '\n' && ch != '\r')
		return amd_fail(err, "%s: line %d: text after a closing quote", c->path,
				c->next_line);
	return 0;
}

/* Reads one field into text; stops at ',' / line end / end. */
static int read_field(struct amd_csv *c, size_t *len, struct amd_err *err)
{
	if (c->trim)
		while (is_blank(peek(c)))
			take(c);
	int ch = peek(c), rc;
	if (ch == '"') {
		if (quoted_field(c, len, err) < 0)
			return -1;
	} else {
		size_t start = *len;
		if ((rc = plain_run(c, len)) < 0)
			return too_long(c, rc, err);
		if (peek(c) == '\0')
			return amd_fail(err, "%s: line %d: a NUL byte", c->path, c->next_line);
		if (c->trim)
			while (*len > start && is_blank(c->text[*len - 1]))
				(*len)--;
	}
	return (rc = put_char(c, len, '\0')) < 0 ? too_long(c, rc, err) : 0;
}

static void skip_line_end(struct amd_csv *c)
{
	if (peek(c) == '\r')
		take(c);
	if (peek(c) == '\n')
		take(c);
	c->next_line++;
}

static int read_error(struct amd_csv *c, struct amd_err *err)
{
	return amd_fail(err, "%s", c->io_error);
}

int amd_csv_next(struct amd_csv *c, struct amd_err *err)
{
	c->n = 0;
	int ch;
	while ((ch = peek(c)) == '\n' || ch == '\r')
		skip_line_end(c); /* blank lines */
	if (ch < 0)
		return c->io_error[0] ? read_error(c, err) : 0;
	c->line = c->next_line;
	size_t len = 0;
	for (;;) {
		size_t start = len;
		if (read_field(c, &len, err) < 0)
			return c->io_error[0] ? read_error(c, err) : -1;
		if (add_field(c, start) < 0)
			return amd_fail(err, "%s: out of memory", c->path);
		if ((ch = peek(c)) != ',')
			break;
		take(c);
	}
	if (c->io_error[0])
		return read_error(c, err);
	c->unended = ch < 0;
	if (ch >= 0)
		skip_line_end(c);
	for (size_t i = 0; i < c->n; i++)
		c->field[i] = c->text + (uintptr_t)c->field[i];
	return 1;
}

int amd_csv_find(const struct amd_csv *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->field[i], name) == 0)
			return (int)i;
	return -1;
}

int amd_err_one_line(struct amd_err *err)
{
	for (char *p = err->msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return -1;
}

/* nvidia-smi's "no value": N/A, or a status in brackets — "[N/A]", and
 * NVML's error strings as it prints them ("[Not Supported]", "[Unknown
 * Error]", "[GPU is lost]", "[GPU requires reset]", "[Driver/library
 * version mismatch]"): words, no digits (a bracketed number is no
 * status). */
static int is_missing(const char *s, size_t n)
{
	if (n == 3 && strncmp(s, "N/A", 3) == 0)
		return 1;
	if (n < 3 || s[0] != '[' || s[n - 1] != ']')
		return 0;
	for (size_t i = 1; i + 1 < n; i++)
		if (!isalpha((unsigned char)s[i]) && !strchr(" /-", s[i]))
			return 0;
	return 1;
}

const char *amd_parse_frac_ms(const char *p, int64_t *ms)
{
	*ms = 0;
	if (*p != '.')
		return p;
	int digits = 0;
	for (p++; *p >= '0' && *p <= '9'; p++, digits++)
		if (digits < 3)
			*ms = *ms * 10 + (*p - '0');
	for (; digits < 3; digits++)
		*ms *= 10;
	return p;
}

int amd_parse_unit_double(const char *s, double *out)
{
	char unit[1];
	return amd_parse_value_unit(s, out, unit, sizeof unit);
}

int amd_parse_value_unit(const char *s, double *out, char *unit, size_t unit_size)
{
	unit[0] = '\0';
	while (is_blank(*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && is_blank(s[n - 1]))
		n--;
	if (n == 0)
		return -1;
	if ((*s == '[' || *s == 'N') && is_missing(s, n)) {
		*out = NAN;
		return 0;
	}
	const char *d = *s == '-' || *s == '+' ? s + 1 : s;
	if (!isdigit((unsigned char)*d) && *d != '.')
		return -1; /* no "nan"/"inf" words here */
	if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
		return -1; /* nor hex */
	const char *end;
	double v;
	if (!amd_exact_decimal(s, &v, &end)) {
		char *e;
		errno = 0;
		v = strtod(s, &e);
		if (e == s || (errno == ERANGE && isinf(v)))
			return -1; /* overflow (underflow reads as ~0) */
		end = e;
	}
	const char *u = end, *stop = s + n;
	while (u < stop && is_blank(*u))
		u++;
	for (const char *q = u; q < stop; q++)
		if (!isalpha((unsigned char)*q) && *q != '%' && *q != '/')
			return -1;
	size_t ul = (size_t)(stop - u) < unit_size ? (size_t)(stop - u) : unit_size - 1;
	memcpy(unit, u, ul);
	unit[ul] = '\0';
	*out = v;
	return 0;
}
