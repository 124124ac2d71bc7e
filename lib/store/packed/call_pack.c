/* call_pack.c — the packed caller edge layout (call_pack.h). */
#include "call_pack.h"

#include <string.h>

#include "col_pack.h"

/* Column c of edge e as stored (a NULL value as 0). */
static int64_t column_value(const struct amd_packed_call *e, int c)
{
	return c >= AMD_CL_CALLS && (e->v[AMD_CL_NULLS] & AMD_CALL_NULL(c)) ? 0 : e->v[c];
}

static void widths(const struct amd_packed_call *v, size_t n, unsigned char w[AMD_CALL_COLUMNS])
{
	memset(w, 0, AMD_CALL_COLUMNS);
	w[AMD_CL_NULLS] = 1; /* a byte an edge at least: n is the blob's */
	for (int c = 1; c < AMD_CALL_COLUMNS; c++)
		for (size_t i = 0; i < n && w[c] < 8; i++) {
			int k = amd_col_width(column_value(&v[i], c));
			if (k > w[c])
				w[c] = (unsigned char)k;
		}
}

size_t amd_call_packed_size(const struct amd_packed_call *v, size_t n)
{
	unsigned char w[AMD_CALL_COLUMNS];
	widths(v, n, w);
	size_t row = 0;
	for (int c = 0; c < AMD_CALL_COLUMNS; c++)
		row += w[c];
	return AMD_CALL_COLUMNS + row * n;
}

void amd_call_pack(const struct amd_packed_call *v, size_t n, unsigned char *out)
{
	unsigned char w[AMD_CALL_COLUMNS];
	widths(v, n, w);
	memcpy(out, w, AMD_CALL_COLUMNS);
	out += AMD_CALL_COLUMNS;
	for (int c = 0; c < AMD_CALL_COLUMNS; c++)
		for (size_t i = 0; i < n && w[c]; i++, out += w[c])
			amd_col_put(out, w[c], column_value(&v[i], c));
}

/* 0 when a blob of len bytes holds n edges (widths 0/1/2/4/8 and their
 * n records), else -1 with what naming it. */
static int check(const unsigned char *p, size_t len, int64_t n, const char *what,
		 struct amd_err *err)
{
	if (len < AMD_CALL_COLUMNS)
		return amd_fail(err, "%s: packed caller edges of %zu bytes, shorter than their widths",
				what, len);
	size_t row;
	int bad = p[AMD_CL_NULLS] != 1 ? AMD_CL_NULLS : amd_col_bad_width(p, AMD_CALL_COLUMNS, &row);
	if (bad >= 0)
		return amd_fail(err, "%s: column %d of width %d", what, bad, p[bad]);
	size_t body = len - AMD_CALL_COLUMNS;
	if (n < 0 || body % row || body / row != (uint64_t)n)
		return amd_fail(err, "%s: packed caller edges of %zu bytes, not %lld records", what,
				len, (long long)n);
	return 0;
}

int amd_call_unpack(const void *blob, size_t len, int64_t n, const char *what,
		    struct amd_packed_call *out, struct amd_err *err)
{
	const unsigned char *p = blob;
	if (check(p, len, n, what, err) < 0)
		return -1;
	const unsigned char *from = p + AMD_CALL_COLUMNS;
	int64_t x[256]; /* a column's numbers, 256 at a time, into their edges */
	for (int c = 0; c < AMD_CALL_COLUMNS; c++)
		for (size_t i = 0, k; i < (size_t)n; i += k, from += p[c] * k) {
			k = (size_t)n - i < 256 ? (size_t)n - i : 256;
			amd_col_get(from, p[c], k, x);
			for (size_t j = 0; j < k; j++)
				out[i + j].v[c] = x[j];
		}
	for (int64_t i = 0; i < n; i++)
		if (out[i].v[AMD_CL_NULLS] & ~(int64_t)AMD_CALL_NULL_ALL)
			return amd_fail(err, "%s: edge %lld has an unknown null bit", what, (long long)i);
	return 0;
}
