/* json_guard.c — the token-length bound of json_guard.h. */
#include "json_guard.h"

#include <string.h>

void amd_json_guard_init(struct amd_json_guard *g, uint64_t limit)
{
	memset(g, 0, sizeof *g);
	g->limit = limit;
}

/* Backslashes right before p[j] (within p[from..j)), plus those carried
 * from the previous chunk when the run reaches the chunk's start. */
static size_t backslashes_before(const struct amd_json_guard *g, const unsigned char *p,
				 size_t from, size_t j)
{
	size_t k = j, count = 0;
	while (k > from && p[k - 1] == '\\') {
		k--;
		count++;
	}
	if (k == 0)
		count += g->backslashes;
	return count;
}

static size_t trailing_backslashes(const struct amd_json_guard *g, const unsigned char *p,
				   size_t n)
{
	size_t k = n, count = 0;
	while (k > 0 && p[k - 1] == '\\') {
		k--;
		count++;
	}
	return k == 0 ? count + g->backslashes : count;
}

int amd_json_guard_scan(struct amd_json_guard *g, const unsigned char *p, size_t n,
			size_t *at)
{
	size_t i = 0;
	while (i < n) {
		const unsigned char *q = memchr(p + i, '"', n - i);
		size_t j = q ? (size_t)(q - p) : n;
		if (g->run + (j - i) > g->limit) {
			*at = i + (size_t)(g->limit - g->run);
			return -1;
		}
		g->run += j - i;
		if (!q) {
			g->backslashes = g->in_string ? trailing_backslashes(g, p, n) : 0;
			return 0;
		}
		if (g->in_string && backslashes_before(g, p, i, j) % 2 == 1) {
			g->run++; /* an escaped quote: the string goes on */
		} else {
			g->in_string = !g->in_string;
			g->run = 0;
		}
		g->backslashes = 0;
		i = j + 1;
	}
	return 0;
}

const char *amd_json_guard_what(const struct amd_json_guard *g, const unsigned char *p,
				size_t at)
{
	if (g->in_string)
		return "a JSON string";
	size_t from = at > 1024 ? at - 1024 : 0, k = from; /* the chunk has no NUL end */
	while (k < at && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r' || p[k] == '\n'))
		k++;
	if (at > from && k == at)
		return "whitespace (no JSON value)";
	return "a JSON number or a stretch without strings";
}
