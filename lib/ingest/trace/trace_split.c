/* trace_split.c — the boundary scan of trace_split.h: strings, escapes
 * and nesting depth. Outside strings a table names the bytes that matter
 * (quote, brackets, braces, comma), skipped to four bytes a step; inside,
 * memchr finds the next quote and the run of backslashes before it says
 * whether it is escaped. */
#include "trace_split.h"

#include <string.h>

/* 1 for the bytes the scan acts on outside strings */
static const unsigned char stop_byte[256] = {
	['"'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1, [','] = 1,
};

/* The string's body from p[i] (not escaped) on: the offset just past its
 * closing quote, or n with *esc telling whether p[n] is escaped. */
static size_t string_end(const unsigned char *p, size_t i, size_t n, int *esc, int *in_str)
{
	for (;;) {
		const unsigned char *q = memchr(p + i, '"', n - i);
		size_t at = q ? (size_t)(q - p) : n, run = 0;
		while (at - run > i && p[at - run - 1] == '\\')
			run++;
		if (!q) {
			*esc = run % 2;
			return n;
		}
		if (run % 2 == 0) {
			*in_str = 0;
			return at + 1;
		}
		i = at + 1;
	}
}

/* The offset in p[i..n) of the first byte table names, or n; four bytes
 * a step. */
static size_t skip(const unsigned char *table, const unsigned char *p, size_t i, size_t n)
{
	for (; i + 4 <= n; i += 4) {
		if (table[p[i]])
			return i;
		if (table[p[i + 1]])
			return i + 1;
		if (table[p[i + 2]])
			return i + 2;
		if (table[p[i + 3]])
			return i + 3;
	}
	while (i < n && !table[p[i]])
		i++;
	return i;
}

size_t amd_json_split_scan(struct amd_json_split *s, const unsigned char *p, size_t n,
			   size_t *comma)
{
	size_t last = AMD_SPLIT_NONE, i = 0;
	long long depth = s->depth;
	int in_str = s->in_str, esc = s->esc;
	while (i < n) {
		if (esc) { /* the byte after a backslash, whatever it is */
			esc = 0;
			i++;
			continue;
		}
		if (in_str) {
			i = string_end(p, i, n, &esc, &in_str);
			continue;
		}
		i = skip(stop_byte, p, i, n);
		if (i == n)
			break;
		switch (p[i]) {
		case '"': in_str = 1; break;
		case '{': case '[': depth++; break;
		case ',': if (depth == 0) last = i; break;
		default: /* '}' or ']' */
			if (depth == 0)
				goto end;
			depth--;
			break;
		}
		i++;
	}
end:
	s->depth = depth;
	s->in_str = (unsigned char)in_str;
	s->esc = (unsigned char)esc;
	*comma = last;
	return i;
}

int amd_json_split_blank(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t\n\v\f\r", p[i]) || p[i] == '\0')
			return 0;
	return 1;
}
