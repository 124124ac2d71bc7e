/* op_pack.c — the packed operator average layout (op_pack.h). */
#include "op_pack.h"

#include <string.h>

#include "col_pack.h"
#include "le64.h"

static uint64_t f64_bits(double d)
{
	uint64_t bits;
	memcpy(&bits, &d, 8);
	return bits;
}

static double bits_f64(uint64_t bits)
{
	double d;
	memcpy(&d, &bits, 8);
	return d;
}

/* Integer column c (1..4) of o as stored: a NULL value as 0. */
static int64_t int_value(const struct amd_packed_op *o, int c)
{
	switch (c) {
	case 1: return o->name_id;
	case 2: return o->nulls & AMD_OP_NULL_RANK ? 0 : o->rank;
	case 3: return o->nulls & AMD_OP_NULL_CALLS ? 0 : o->calls;
	default: return o->nulls & AMD_OP_NULL_ROLE ? 0 : o->role;
	}
}

/* o's mask as stored: its NULL bits and which doubles take no bytes. */
static int64_t mask(const struct amd_packed_op *o)
{
	int64_t m = o->nulls & AMD_OP_NULL_ALL;
	if (m & AMD_OP_NULL_SELF || o->self_cuda_us == 0)
		m |= AMD_OP_ZERO_SELF;
	if (m & AMD_OP_NULL_TOTAL || o->cuda_total_us == 0)
		m |= AMD_OP_ZERO_TOTAL;
	return m;
}

/* The widths, and in *doubles the count of stored doubles: a column's
 * width that of its least and greatest values (the least width of
 * each number is the one call per column, not per row). */
static void widths(const struct amd_packed_op *v, size_t n, unsigned char w[AMD_OP_COLUMNS],
		   size_t *doubles)
{
	int64_t lo[AMD_OP_COLUMNS] = {0}, hi[AMD_OP_COLUMNS] = {0};
	*doubles = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t m = mask(&v[i]);
		*doubles += !(m & AMD_OP_ZERO_SELF) + !(m & AMD_OP_ZERO_TOTAL);
		for (int c = 1; c < AMD_OP_COLUMNS; c++) {
			int64_t x = int_value(&v[i], c);
			lo[c] = x < lo[c] ? x : lo[c];
			hi[c] = x > hi[c] ? x : hi[c];
		}
	}
	w[0] = 1; /* a byte a row at least: n is the blob's */
	for (int c = 1; c < AMD_OP_COLUMNS; c++) {
		int a = amd_col_width(lo[c]), b = amd_col_width(hi[c]);
		w[c] = (unsigned char)(a > b ? a : b);
	}
}

size_t amd_op_packed_size(const struct amd_packed_op *v, size_t n)
{
	unsigned char w[AMD_OP_COLUMNS];
	size_t doubles, row = 0;
	widths(v, n, w, &doubles);
	for (int c = 0; c < AMD_OP_COLUMNS; c++)
		row += w[c];
	return AMD_OP_COLUMNS + row * n + 8 * doubles;
}

void amd_op_pack(const struct amd_packed_op *v, size_t n, unsigned char *out)
{
	unsigned char w[AMD_OP_COLUMNS];
	size_t doubles;
	widths(v, n, w, &doubles);
	memcpy(out, w, AMD_OP_COLUMNS);
	out += AMD_OP_COLUMNS;
	const unsigned char *m = out; /* the masks, read again for the doubles */
	for (size_t i = 0; i < n; i++, out++)
		*out = (unsigned char)mask(&v[i]);
	for (int c = 1; c < AMD_OP_COLUMNS; c++)
		for (size_t i = 0; i < n && w[c]; i++, out += w[c])
			amd_col_put(out, w[c], int_value(&v[i], c));
	for (size_t i = 0; i < n; i++)
		if (!(m[i] & AMD_OP_ZERO_SELF))
			amd_put_le64(out, f64_bits(v[i].self_cuda_us)), out += 8;
	for (size_t i = 0; i < n; i++)
		if (!(m[i] & AMD_OP_ZERO_TOTAL))
			amd_put_le64(out, f64_bits(v[i].cuda_total_us)), out += 8;
}

/* The bytes of n rows of widths p[0..AMD_OP_COLUMNS) before their
 * doubles, or 0 with err set (a bad width, fewer bytes than that). */
static size_t int_bytes(const unsigned char *p, size_t len, int64_t n, const char *what,
			struct amd_err *err)
{
	size_t row;
	int bad = p[0] != 1 ? 0 : amd_col_bad_width(p, AMD_OP_COLUMNS, &row);
	if (bad >= 0)
		return amd_fail(err, "%s: column %d of width %d", what, bad, p[bad]), 0;
	if (n < 0 || (uint64_t)n > (len - AMD_OP_COLUMNS) / row)
		return amd_fail(err, "%s: packed ops of %zu bytes, fewer than %lld rows", what, len,
				(long long)n), 0;
	return AMD_OP_COLUMNS + row * (size_t)n;
}

/* The doubles of the rows without bit zero into *at (at p, advanced),
 * from the blob's end; -1 with err set when one is 0 or NULL. */
static int read_doubles(struct amd_packed_op *out, size_t n, int zero, const unsigned char **p,
			const char *what, struct amd_err *err)
{
	int null = zero == AMD_OP_ZERO_SELF ? AMD_OP_NULL_SELF : AMD_OP_NULL_TOTAL;
	for (size_t i = 0; i < n; i++) {
		double d = 0;
		if ((out[i].nulls & null) && !(out[i].nulls & zero))
			return amd_fail(err, "%s: row %zu has a NULL double stored", what, i);
		if (!(out[i].nulls & zero)) {
			d = bits_f64(amd_get_le64(*p));
			*p += 8;
			if (d == 0)
				return amd_fail(err, "%s: row %zu has a 0 stored", what, i);
		}
		*(zero == AMD_OP_ZERO_SELF ? &out[i].self_cuda_us : &out[i].cuda_total_us) = d;
	}
	return 0;
}

/* The integer columns of n rows at p (widths first) into out. */
static void read_ints(const unsigned char *p, size_t n, struct amd_packed_op *out)
{
	const unsigned char *from = p + AMD_OP_COLUMNS;
	int64_t x[256]; /* a column's numbers, 256 at a time, into their rows */
	for (int c = 0; c < AMD_OP_COLUMNS; c++)
		for (size_t i = 0, k; i < n; i += k, from += p[c] * k) {
			k = n - i < 256 ? n - i : 256;
			amd_col_get(from, p[c], k, x);
			for (size_t j = 0; j < k; j++) {
				struct amd_packed_op *o = &out[i + j];
				*(c == 0 ? &o->nulls : c == 1 ? &o->name_id : c == 2 ? &o->rank
				  : c == 3 ? &o->calls : &o->role) = x[j];
			}
		}
}

int amd_op_unpack(const void *blob, size_t len, int64_t n, const char *what,
		  struct amd_packed_op *out, struct amd_err *err)
{
	const unsigned char *p = blob;
	if (len < AMD_OP_COLUMNS)
		return amd_fail(err, "%s: packed ops of %zu bytes, shorter than their widths", what,
				len);
	size_t ints = int_bytes(p, len, n, what, err), doubles = 0;
	if (!ints)
		return -1;
	read_ints(p, (size_t)n, out);
	for (int64_t i = 0; i < n; i++) {
		if (out[i].nulls & ~(int64_t)(AMD_OP_NULL_ALL | AMD_OP_ZERO_SELF | AMD_OP_ZERO_TOTAL))
			return amd_fail(err, "%s: row %lld has an unknown mask bit", what, (long long)i);
		doubles += !(out[i].nulls & AMD_OP_ZERO_SELF) + !(out[i].nulls & AMD_OP_ZERO_TOTAL);
	}
	if ((len - ints) / 8 != doubles || (len - ints) % 8)
		return amd_fail(err, "%s: packed ops of %zu bytes, not %lld rows and %zu doubles",
				what, len, (long long)n, doubles);
	const unsigned char *d = p + ints;
	if (read_doubles(out, (size_t)n, AMD_OP_ZERO_SELF, &d, what, err) < 0 ||
	    read_doubles(out, (size_t)n, AMD_OP_ZERO_TOTAL, &d, what, err) < 0)
		return -1;
	for (int64_t i = 0; i < n; i++)
		out[i].nulls &= AMD_OP_NULL_ALL;
	return 0;
}

int amd_op_from_records(const void *blob, size_t len, const char *what,
			struct amd_packed_op *out, struct amd_err *err)
{
	if (len % AMD_OP_RECORD_BYTES)
		return amd_fail(err, "%s: packed ops of %zu bytes, not a multiple of %d", what, len,
				AMD_OP_RECORD_BYTES);
	const unsigned char *p = blob;
	for (size_t i = 0; i < len / AMD_OP_RECORD_BYTES; i++, p += AMD_OP_RECORD_BYTES) {
		out[i].name_id = (int64_t)amd_get_le64(p);
		out[i].rank = (int64_t)amd_get_le64(p + 8);
		out[i].calls = (int64_t)amd_get_le64(p + 16);
		out[i].role = (int64_t)amd_get_le64(p + 24);
		out[i].self_cuda_us = bits_f64(amd_get_le64(p + 32));
		out[i].cuda_total_us = bits_f64(amd_get_le64(p + 40));
		out[i].nulls = (int64_t)amd_get_le64(p + 48);
		if (out[i].nulls & ~(int64_t)AMD_OP_NULL_ALL)
			return amd_fail(err, "%s: record %zu has an unknown NULL bit", what, i);
	}
	return 0;
}
