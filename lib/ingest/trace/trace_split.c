/* trace_split.c — the boundary scan of trace_split.h: strings, escapes
 * and nesting depth, byte by byte; a string's body is skipped with memchr
 * to its next quote or backslash. */
#include "trace_split.h"

#include <string.h>

/* The offset in p[i..n) of the next '"' or '\\', or n. */
static size_t string_stop(const unsigned char *p, size_t i, size_t n)
{
	for (; i < n; i++)
		if (p[i] == '"' || p[i] == '\\')
			return i;
	return n;
}

size_t amd_json_split_scan(struct amd_json_split *s, const unsigned char *p, size_t n,
			   size_t *comma)
{
	size_t last = AMD_SPLIT_NONE, i = 0;
	long long depth = s->depth;
	int in_str = s->in_str, esc = s->esc;
	for (; i < n; i++) {
		if (esc) { /* the byte after a backslash, whatever it is */
			esc = 0;
			continue;
		}
		if (in_str) {
			i = string_stop(p, i, n);
			if (i == n)
				break;
			if (p[i] == '\\')
				esc = 1;
			else
				in_str = 0;
			continue;
		}
		switch (p[i]) {
		case '"': in_str = 1; break;
		case '{': case '[': depth++; break;
		case '}': case ']':
			if (depth == 0)
				goto end;
			depth--;
			break;
		case ',': if (depth == 0) last = i; break;
		default: break;
		}
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
