/* csv.c — the shared CSV record reader and the number-with-unit parser;
 * see csv.h. */
#include "csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void amd_csv_init(struct amd_csv *c, const char *path, const char *data, size_t len,
		  int trim)
{
	memset(c, 0, sizeof *c);
	c->path = path;
	c->p = data;
	c->end = data + len;
	c->next_line = 1;
	c->trim = trim;
}

void amd_csv_free(struct amd_csv *c)
{
	free(c->field);
	free(c->text);
	c->field = NULL;
	c->text = NULL;
}

static int put_char(struct amd_csv *c, size_t *len, char ch)
{
	if (*len + 1 >= c->text_cap) {
		size_t cap = c->text_cap ? 2 * c->text_cap : 256;
		char *t = realloc(c->text, cap);
		if (!t)
			return -1;
		c->text = t;
		c->text_cap = cap;
	}
	c->text[(*len)++] = ch;
	return 0;
}

/* Field starts are kept as offsets into text while it may move, then
 * turned into pointers once the record is complete. */
static int add_field(struct amd_csv *c, size_t start)
{
	if (c->n == c->field_cap) {
		size_t cap = c->field_cap ? 2 * c->field_cap : 16;
		char **f = realloc(c->field, cap * sizeof *f);
		if (!f)
			return -1;
		c->field = f;
		c->field_cap = cap;
	}
	c->field[c->n++] = (char *)(uintptr_t)start;
	return 0;
}

static int is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* Reads one field at c->p into text; stops at ',' / line end / end. */
static int read_field(struct amd_csv *c, size_t *len, struct amd_err *err)
{
	const char *p = c->p, *end = c->end;
	if (c->trim)
		while (p < end && is_blank(*p))
			p++;
	if (p < end && *p == '"') {
		int start_line = c->next_line;
		p++;
		for (;;) {
			if (p >= end) {
				c->p = p;
				return amd_fail(err, "%s: line %d: unterminated quoted field",
						c->path, start_line);
			}
			if (*p == '"') {
				if (p + 1 < end && p[1] == '"') {
					if (put_char(c, len, '"') < 0)
						goto oom;
					p += 2;
					continue;
				}
				p++;
				break;
			}
			if (*p == '\n')
				c->next_line++;
			if (put_char(c, len, *p++) < 0)
				goto oom;
		}
		while (p < end && is_blank(*p))
			p++;
		if (p < end && *p != ',' && *p != '\n' && *p != '\r') {
			c->p = p;
			return amd_fail(err, "%s: line %d: text after a closing quote",
					c->path, c->next_line);
		}
	} else {
		size_t start = *len;
		while (p < end && *p != ',' && *p != '\n' && *p != '\r') {
			if (*p == '\0') {
				c->p = p;
				return amd_fail(err, "%s: line %d: a NUL byte", c->path,
						c->next_line);
			}
			if (put_char(c, len, *p++) < 0)
				goto oom;
		}
		if (c->trim)
			while (*len > start && is_blank(c->text[*len - 1]))
				(*len)--;
	}
	c->p = p;
	return put_char(c, len, '\0') < 0 ? amd_fail(err, "%s: out of memory", c->path) : 0;
oom:
	return amd_fail(err, "%s: out of memory", c->path);
}

static int at_line_end(const struct amd_csv *c)
{
	return c->p >= c->end || *c->p == '\n' || *c->p == '\r';
}

static void skip_line_end(struct amd_csv *c)
{
	if (c->p < c->end && *c->p == '\r')
		c->p++;
	if (c->p < c->end && *c->p == '\n')
		c->p++;
	c->next_line++;
}

int amd_csv_next(struct amd_csv *c, struct amd_err *err)
{
	c->n = 0;
	while (c->p < c->end && (*c->p == '\n' || *c->p == '\r'))
		skip_line_end(c); /* blank lines */
	if (c->p >= c->end)
		return 0;
	c->line = c->next_line;
	size_t len = 0;
	for (;;) {
		size_t start = len;
		if (read_field(c, &len, err) < 0)
			return -1;
		if (add_field(c, start) < 0)
			return amd_fail(err, "%s: out of memory", c->path);
		if (at_line_end(c))
			break;
		c->p++; /* the comma */
	}
	if (c->p < c->end)
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

static int is_missing(const char *s, size_t n)
{
	static const char *const none[] = {"[N/A]", "N/A", "[Not Supported]",
					   "[Unknown Error]", "[Insufficient Permissions]"};
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
		if (strlen(none[i]) == n && strncmp(s, none[i], n) == 0)
			return 1;
	return 0;
}

int amd_parse_unit_double(const char *s, double *out)
{
	while (is_blank(*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && is_blank(s[n - 1]))
		n--;
	if (n == 0)
		return -1;
	if (is_missing(s, n)) {
		*out = NAN;
		return 0;
	}
	const char *d = *s == '-' || *s == '+' ? s + 1 : s;
	if (!isdigit((unsigned char)*d) && *d != '.')
		return -1; /* no "nan"/"inf" words here */
	if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
		return -1; /* nor hex */
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || (errno == ERANGE && isinf(v)))
		return -1; /* overflow (underflow reads as ~0) */
	const char *u = end;
	while (is_blank(*u))
		u++;
	const char *stop = s + n;
	for (const char *q = u; q < stop; q++)
		if (!isalpha((unsigned char)*q) && *q != '%' && *q != '/')
			return -1;
	*out = v;
	return 0;
}
