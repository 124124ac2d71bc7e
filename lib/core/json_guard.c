/* json_guard.c — the token-length bound of json_guard.h. A chunk that
 * cannot reach the limit (the run carried in plus its length stays under
 * it) is not scanned: only its tail is read back to its last unescaped
 * quote, so the bound costs a few bytes per chunk and not a second pass
 * over every byte. A chunk no longer than the limit is read only up to
 * its first unescaped quote (a stretch inside it is shorter than the
 * limit); only a longer chunk is scanned from its start. */
#include "json_guard.h"

#include <string.h>

void amd_json_guard_init(struct amd_json_guard *g, uint64_t limit)
{
	memset(g, 0, sizeof *g);
	g->limit = limit;
}

/* Backslashes right before p[j] (within p[0..j)), plus those carried from
 * the previous chunk when the run reaches the chunk's start. */
static size_t backslashes_before(const struct amd_json_guard *g, const unsigned char *p,
				 size_t j)
{
	size_t k = j;
	while (k > 0 && p[k - 1] == '\\')
		k--;
	return j - k + (k == 0 ? g->backslashes : 0);
}

/* Is the quote at p[j] escaped (an odd number of backslashes before it)?
 * A backslash is valid JSON only inside a string, so this is the string
 * rule; outside one, yajl refuses the text anyway. */
static int escaped(const struct amd_json_guard *g, const unsigned char *p, size_t j)
{
	return backslashes_before(g, p, j) % 2 == 1;
}

/* Index of the last unescaped quote of p[0..n), or n when none. */
static size_t last_quote(const struct amd_json_guard *g, const unsigned char *p, size_t n)
{
	size_t end = n;
	const unsigned char *q;
	while (end > 0 && (q = memrchr(p, '"', end)) != NULL) {
		size_t j = (size_t)(q - p);
		if (!escaped(g, p, j))
			return j;
		end = j;
	}
	return n;
}

/* Carries the chunk's end into the next: the run since its last
 * unescaped quote and its trailing backslashes. */
static void carry(struct amd_json_guard *g, const unsigned char *p, size_t n)
{
	size_t k = last_quote(g, p, n);
	g->run = k < n ? n - 1 - k : g->run + n;
	g->backslashes = backslashes_before(g, p, n);
}

/* Index of the first unescaped quote of p[0..n), or n when none. */
static size_t first_quote(const struct amd_json_guard *g, const unsigned char *p, size_t n)
{
	const unsigned char *q;
	for (size_t i = 0; i < n && (q = memchr(p + i, '"', n - i)) != NULL;) {
		size_t j = (size_t)(q - p);
		if (!escaped(g, p, j))
			return j;
		i = j + 1;
	}
	return n;
}

void amd_json_guard_init_exact(struct amd_json_guard *g, uint64_t limit)
{
	amd_json_guard_init(g, limit);
	g->exact = 1;
}

/* The exact guard: the length of the token each byte is in. */
static int scan_exact(struct amd_json_guard *g, const unsigned char *p, size_t n, size_t *at)
{
	uint64_t run = g->run;
	int in_string = g->in_string, escape = g->escape;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = p[i];
		if (in_string) {
			if (escape)
				escape = 0;
			else if (c == '\\')
				escape = 1;
			else if (c == '"') {
				in_string = 0, run = 0;
				continue;
			}
		} else if (c == '"') {
			in_string = 1, run = 0;
			continue;
		} else if (c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}' ||
			   c == ' ' || c == '\n' || c == '\r' || c == '\t') {
			run = 0;
			continue;
		}
		if (++run > g->limit) {
			*at = i;
			return -1;
		}
	}
	g->run = run;
	g->in_string = in_string;
	g->escape = escape;
	return 0;
}

/* Bytes that end a token outside a string (scan_exact's separators). */
static int separator(unsigned char c)
{
	return c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}' || c == ' ' ||
	       c == '\n' || c == '\r' || c == '\t';
}

/* Index of the quote that closes the string whose bytes start at
 * p[from] (esc: p[from] is escaped), or n when it does not close. */
static size_t string_end(const unsigned char *p, size_t from, size_t n, int esc)
{
	const unsigned char *q;
	for (size_t i = from; i < n && (q = memchr(p + i, '"', n - i)) != NULL;) {
		size_t j = (size_t)(q - p), k = j;
		while (k > from && p[k - 1] == '\\')
			k--;
		if ((j - k + (k == from && esc)) % 2 == 0)
			return j;
		i = j + 1;
	}
	return n;
}

/* Whether the byte after p[from..n) of an open string is escaped. */
static int escape_at_end(const unsigned char *p, size_t from, size_t n, int esc)
{
	size_t k = n;
	while (k > from && p[k - 1] == '\\')
		k--;
	return (n - k + (k == from && esc)) % 2 == 1;
}

/* The exact guard on a chunk no longer than the limit, by its quotes
 * (memchr) instead of byte by byte: only the token carried in can pass
 * the limit (one that starts in the chunk is shorter than the chunk).
 * 0 with the state at the chunk's end, as scan_exact leaves it; 1 when
 * the carried token passes the limit (g untouched: scan_exact finds the
 * byte). */
static int scan_by_quotes(struct amd_json_guard *g, const unsigned char *p, size_t n)
{
	size_t i;
	if (g->in_string) {
		i = string_end(p, 0, n, g->escape);
		if (g->run + i > g->limit)
			return 1;
		if (i == n) {
			g->run += n;
			g->escape = escape_at_end(p, 0, n, g->escape);
			return 0;
		}
		i++; /* past the closing quote */
	} else {
		for (i = 0; i < n && !separator(p[i]) && p[i] != '"'; i++)
			;
		if (g->run + i > g->limit)
			return 1;
		if (i == n) {
			g->run += n;
			return 0;
		}
	}
	const unsigned char *q;
	while (i < n && (q = memchr(p + i, '"', n - i)) != NULL) {
		size_t open = (size_t)(q - p), end = string_end(p, open + 1, n, 0);
		if (end == n) {
			g->in_string = 1;
			g->run = n - open - 1;
			g->escape = escape_at_end(p, open + 1, n, 0);
			return 0;
		}
		i = end + 1;
	}
	size_t k = n; /* outside a string: the run is the last token's */
	while (k > i && !separator(p[k - 1]))
		k--;
	g->in_string = 0;
	g->escape = 0;
	g->run = n - k;
	return 0;
}

int amd_json_guard_scan(struct amd_json_guard *g, const unsigned char *p, size_t n,
			size_t *at)
{
	if (g->exact)
		return n <= g->limit && scan_by_quotes(g, p, n) == 0 ? 0
								      : scan_exact(g, p, n, at);
	if (g->run + n <= g->limit) {
		carry(g, p, n);
		return 0;
	}
	if (n <= g->limit) { /* a stretch inside the chunk is shorter than the chunk:
			      * only the one carried in, up to the first quote, can pass */
		size_t j = first_quote(g, p, n);
		if (g->run + j > g->limit) {
			*at = (size_t)(g->limit - g->run);
			return -1;
		}
		carry(g, p, n);
		return 0;
	}
	uint64_t run = g->run;
	for (size_t i = 0; i < n;) {
		const unsigned char *q = memchr(p + i, '"', n - i);
		size_t j = q ? (size_t)(q - p) : n;
		if (run + (j - i) > g->limit) {
			*at = i + (size_t)(g->limit - run);
			return -1;
		}
		run = q && !escaped(g, p, j) ? 0 : run + (j - i) + (q != NULL);
		i = j + 1;
	}
	carry(g, p, n);
	return 0;
}

const char *amd_json_guard_what(const struct amd_json_guard *g, const unsigned char *p,
				size_t at)
{
	(void)g; /* the guard does not follow strings (it skips most chunks):
		  * name the stretch by the 1 KiB before the failing byte */
	size_t from = at > 1024 ? at - 1024 : 0; /* the chunk has no NUL end */
	int ws = 1, num = 1, structure = 0;
	for (size_t k = from; k < at; k++) {
		unsigned char c = p[k];
		ws &= c == ' ' || c == '\t' || c == '\r' || c == '\n';
		num &= (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' ||
		       c == 'E';
		structure |= c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',';
	}
	if (at == from)
		return "a JSON token";
	if (ws)
		return "whitespace (no JSON value)";
	if (num)
		return "a JSON number";
	return structure ? "a JSON string or a stretch without strings" : "a JSON string";
}
