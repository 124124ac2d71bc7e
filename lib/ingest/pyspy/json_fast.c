/* json_fast.c — the plain-JSON fast path of json_fast.h: the file's
 * chunks (chunks.h) copied into one window that holds at least the
 * token being read, a strict tokenizer over it, and a stack of the open
 * containers; the yajl callbacks called as tokens complete. Whatever is
 * not certainly read as yajl reads it makes the whole file NOT_PLAIN. */
#include "json_fast.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "chunks.h"

/* The longest token read here (yajl's guard allows 1 MiB: longer ones
 * go to amd_json_stream) and the deepest nesting. */
#define FAST_TOKEN_MAX (64u << 10)
#define FAST_DEPTH_MAX 512

enum { NOT_PLAIN = -2, CANCELLED = -3 };

struct fast {
	const yajl_callbacks *cb;
	void *ctx;
	struct amd_chunk_reader *cr;
	unsigned char *buf;
	size_t cap, len, pos; /* the window buf[0..len), reading at pos */
	int eof;
	int depth;
	unsigned char open[FAST_DEPTH_MAX]; /* '{' or '[' */
};

/* Keeps buf[from..len) (moved to the start) and appends the next chunk;
 * 0 at the end of the data. */
static int more(struct fast *f, size_t from)
{
	if (f->eof)
		return 0;
	const unsigned char *chunk;
	long n = amd_chunks_next(f->cr, &chunk);
	if (n <= 0) {
		f->eof = 1;
		return 0;
	}
	size_t keep = f->len - from;
	memmove(f->buf, f->buf + from, keep);
	f->pos -= from;
	f->len = keep;
	if (keep + (size_t)n > f->cap) {
		size_t cap = keep + (size_t)n;
		unsigned char *b = realloc(f->buf, cap);
		if (!b) {
			f->eof = 1; /* read again by yajl, which says out of memory */
			return 0;
		}
		f->buf = b;
		f->cap = cap;
	}
	memcpy(f->buf + keep, chunk, (size_t)n);
	f->len = keep + (size_t)n;
	return 1;
}

static int blank(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The next byte that is not a blank (pos left on it), -1 at the end. */
static int next_byte(struct fast *f)
{
	for (;;) {
		while (f->pos < f->len) {
			unsigned char c = f->buf[f->pos];
			if (!blank(c))
				return c;
			f->pos++;
		}
		if (!more(f, f->len))
			return -1;
	}
}

/* The end of the token that starts at pos and whose bytes pass in(),
 * reading more as needed; 0 when too long. */
static size_t token_end(struct fast *f, size_t from, int (*in)(unsigned char))
{
	size_t j = from;
	for (;;) {
		while (j < f->len && in(f->buf[j]))
			j++;
		if (j - f->pos > FAST_TOKEN_MAX)
			return 0;
		if (j < f->len)
			return j;
		size_t start = f->pos;
		if (!more(f, start))
			return j - start + f->pos; /* the data ended: the token too */
		j = j - start + f->pos;
	}
}

static int number_byte(unsigned char c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* A string's bytes: not the quote, not a backslash, no control byte. */
static int string_byte(unsigned char c)
{
	return c != '"' && c != '\\' && c >= 0x20 && c != 0x7f;
}

static int letter(unsigned char c)
{
	return c >= 'a' && c <= 'z';
}

/* JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int is_number(const unsigned char *p, size_t n)
{
	size_t i = 0, d;
	if (i < n && p[i] == '-')
		i++;
	if (i < n && p[i] == '0')
		i++;
	else if (i < n && p[i] >= '1' && p[i] <= '9')
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
	else
		return 0;
	if (i < n && p[i] == '.') {
		for (d = ++i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		i++;
		if (i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		for (d = i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	return i == n;
}

/* The simple escapes (yajl decodes these to the byte); \u is not read
 * here. */
static int escape_byte(unsigned char c)
{
	switch (c) {
	case '"': return '"';
	case '\\': return '\\';
	case '/': return '/';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	default: return -1;
	}
}

/* The index of the quote closing the string whose opening quote is at
 * pos (read more as needed), *escapes set when it has any; 0 when it is
 * not read here (too long, a control byte, \u, no end). */
static size_t string_end(struct fast *f, int *escapes)
{
	size_t j = f->pos + 1;
	*escapes = 0;
	for (;;) {
		while (j < f->len) {
			unsigned char c = f->buf[j];
			if (string_byte(c)) {
				j++;
			} else if (c == '"') {
				return j;
			} else if (c == '\\' && j + 1 < f->len) {
				if (escape_byte(f->buf[j + 1]) < 0)
					return 0;
				*escapes = 1;
				j += 2;
			} else if (c != '\\') {
				return 0;
			} else {
				break; /* a backslash at the window's end */
			}
		}
		if (j - f->pos > FAST_TOKEN_MAX)
			return 0;
		size_t start = f->pos;
		if (!more(f, start))
			return 0;
		j = j - start + f->pos;
	}
}

/* The string's bytes from buf[from..end) decoded in place (escapes
 * taken out); its new length. */
static size_t unescape(unsigned char *p, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++)
		p[o++] = p[i] == '\\' ? (unsigned char)escape_byte(p[++i]) : p[i];
	return o;
}

/* A string at pos (its opening quote) to the key or string callback. */
static int string(struct fast *f, int key)
{
	int escapes;
	size_t end = string_end(f, &escapes);
	if (end == 0)
		return NOT_PLAIN;
	unsigned char *s = f->buf + f->pos + 1;
	size_t n = end - f->pos - 1;
	f->pos = end + 1;
	if (escapes)
		n = unescape(s, n);
	int (*cb)(void *, const unsigned char *, size_t) = key ? f->cb->yajl_map_key
								: f->cb->yajl_string;
	return cb && !cb(f->ctx, s, n) ? CANCELLED : 0;
}

static int number(struct fast *f)
{
	size_t end = token_end(f, f->pos, number_byte);
	if (end == 0 || !is_number(f->buf + f->pos, end - f->pos))
		return NOT_PLAIN;
	const char *s = (const char *)f->buf + f->pos;
	size_t n = end - f->pos;
	f->pos = end;
	return f->cb->yajl_number && !f->cb->yajl_number(f->ctx, s, n) ? CANCELLED : 0;
}

static int literal(struct fast *f)
{
	size_t end = token_end(f, f->pos, letter);
	if (end == 0)
		return NOT_PLAIN;
	const char *s = (const char *)f->buf + f->pos;
	size_t n = end - f->pos;
	f->pos = end;
	if (n == 4 && memcmp(s, "null", 4) == 0)
		return f->cb->yajl_null && !f->cb->yajl_null(f->ctx) ? CANCELLED : 0;
	int b = n == 4 && memcmp(s, "true", 4) == 0 ? 1 : n == 5 && memcmp(s, "false", 5) == 0 ? 0 : -1;
	if (b < 0)
		return NOT_PLAIN;
	return f->cb->yajl_boolean && !f->cb->yajl_boolean(f->ctx, b) ? CANCELLED : 0;
}

static int open_container(struct fast *f, unsigned char c)
{
	if (f->depth == FAST_DEPTH_MAX)
		return NOT_PLAIN;
	f->open[f->depth++] = c;
	f->pos++;
	int (*cb)(void *) = c == '{' ? f->cb->yajl_start_map : f->cb->yajl_start_array;
	return cb && !cb(f->ctx) ? CANCELLED : 0;
}

static int close_container(struct fast *f, unsigned char c)
{
	if (f->depth == 0 || f->open[f->depth - 1] != (c == '}' ? '{' : '['))
		return NOT_PLAIN;
	f->depth--;
	f->pos++;
	int (*cb)(void *) = c == '}' ? f->cb->yajl_end_map : f->cb->yajl_end_array;
	return cb && !cb(f->ctx) ? CANCELLED : 0;
}

/* A value starting with c at pos (a container only opened). */
static int value(struct fast *f, int c)
{
	if (c == '{' || c == '[')
		return open_container(f, (unsigned char)c);
	if (c == '"')
		return string(f, 0);
	if (c == '-' || (c >= '0' && c <= '9'))
		return number(f);
	return literal(f);
}

/* What may come next. */
enum want { W_VALUE, W_VALUE_OR_CLOSE, W_KEY, W_KEY_OR_CLOSE, W_COLON, W_AFTER_VALUE };

/* One step: the token at pos read, *w updated; 1 when the document
 * ended. */
static int step(struct fast *f, enum want *w)
{
	int c = next_byte(f), rc;
	if (c < 0)
		return NOT_PLAIN;
	switch (*w) {
	case W_VALUE_OR_CLOSE:
		if (c == ']' || c == '}')
			break;
		/* fall through */
	case W_VALUE:
		if ((rc = value(f, c)) < 0)
			return rc;
		*w = c == '{' ? W_KEY_OR_CLOSE : c == '[' ? W_VALUE_OR_CLOSE : W_AFTER_VALUE;
		return f->depth == 0;
	case W_KEY_OR_CLOSE:
		if (c == '}')
			break;
		/* fall through */
	case W_KEY:
		if (c != '"')
			return NOT_PLAIN;
		*w = W_COLON;
		return string(f, 1);
	case W_COLON:
		if (c != ':')
			return NOT_PLAIN;
		f->pos++;
		*w = W_VALUE;
		return 0;
	case W_AFTER_VALUE:
		if (c == ',') {
			f->pos++;
			*w = f->open[f->depth - 1] == '{' ? W_KEY : W_VALUE;
			return 0;
		}
		break;
	}
	if ((rc = close_container(f, (unsigned char)c)) < 0)
		return rc;
	*w = W_AFTER_VALUE;
	return f->depth == 0;
}

/* After the document: only blanks to a clean end of the data. */
static int clean_end(struct fast *f)
{
	if (next_byte(f) >= 0)
		return 0;
	const char *m;
	long long raw;
	int code = amd_chunks_status(f->cr, &m, &raw);
	return code == Z_OK || code == Z_STREAM_END;
}

static int read_all(struct fast *f)
{
	int c = next_byte(f);
	if (c != '{' && c != '[')
		return NOT_PLAIN;
	enum want w = W_VALUE;
	int rc;
	while ((rc = step(f, &w)) == 0)
		;
	if (rc < 0)
		return rc;
	return clean_end(f) ? 0 : NOT_PLAIN;
}

enum amd_json_fast_rc amd_json_fast(const char *path, const yajl_callbacks *cb, void *ctx)
{
	struct amd_err ignored;
	struct fast f = {.cb = cb, .ctx = ctx};
	if (amd_chunks_open(path, &f.cr, &ignored) < 0)
		return AMD_JSON_FAST_NOT_PLAIN;
	int rc = read_all(&f);
	amd_chunks_close(f.cr);
	free(f.buf);
	return rc == 0 ? AMD_JSON_FAST_OK : rc == CANCELLED ? AMD_JSON_FAST_CANCELLED
							    : AMD_JSON_FAST_NOT_PLAIN;
}
