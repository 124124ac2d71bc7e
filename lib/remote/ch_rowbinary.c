/* ch_rowbinary.c — the RowBinary encoding of streamed rows (ch_rowbinary.h):
 * Int64 and Float64 as 8 little-endian bytes, String as its LEB128
 * length and bytes, Nullable as a 0/1 byte before the value. */
#include "ch_rowbinary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int amd_ch_rowbinary_types(const char *columns, char *types, size_t cap)
{
	size_t n = 0;
	for (const char *p = columns; *p;) {
		const char *sp = strchr(p, ' ');
		if (!sp || n + 1 >= cap)
			return -1;
		const char *ty = sp + 1;
		size_t len = strcspn(ty, ",");
		int nullable = strncmp(ty, "Nullable(", 9) == 0;
		const char *base = nullable ? ty + 9 : ty;
		size_t blen = nullable ? len - 10 : len;
		char c = blen == 5 && strncmp(base, "Int64", 5) == 0 ? 'i'
		       : blen == 7 && strncmp(base, "Float64", 7) == 0 ? 'f'
		       : blen == 6 && strncmp(base, "String", 6) == 0 ? 's' : 0;
		if (!c || (nullable && (len < 10 || ty[len - 1] != ')')))
			return -1;
		types[n++] = nullable ? (char)(c - 'a' + 'A') : c;
		p = ty + len;
		p += strspn(p, ", ");
	}
	types[n] = '\0';
	return (int)n;
}

static int put_u64(struct amd_buf *b, uint64_t v)
{
	unsigned char le[8];
	for (int i = 0; i < 8; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	return amd_buf_append(b, le, 8);
}

static int put_string(struct amd_buf *b, const char *s, size_t n)
{
	unsigned char len[10];
	size_t k = 0;
	uint64_t v = n;
	do {
		len[k++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return amd_buf_append(b, len, k) < 0 ? -1 : amd_buf_append(b, s, n);
}

/* A string column's text: numbers as the TabSeparated path wrote them. */
static int put_text(struct amd_buf *b, const struct amd_cell *c)
{
	char num[32];
	if (c->type == AMD_CELL_INT || c->type == AMD_CELL_REAL) {
		int n = c->type == AMD_CELL_INT ? snprintf(num, sizeof num, "%lld", (long long)c->i)
						: snprintf(num, sizeof num, "%.17g", c->f);
		return put_string(b, num, (size_t)n);
	}
	return put_string(b, c->s, c->n);
}

static int64_t cell_int(const struct amd_cell *c)
{
	return c->type == AMD_CELL_INT ? c->i
	       : c->type == AMD_CELL_REAL ? (int64_t)c->f
	       : c->type == AMD_CELL_TEXT ? strtoll(c->s, NULL, 10) : 0;
}

static double cell_real(const struct amd_cell *c)
{
	return c->type == AMD_CELL_REAL ? c->f
	       : c->type == AMD_CELL_INT ? (double)c->i
	       : c->type == AMD_CELL_TEXT ? strtod(c->s, NULL) : 0;
}

static int put_value(struct amd_buf *b, const struct amd_cell *c, char type)
{
	if (type == 'i')
		return put_u64(b, (uint64_t)cell_int(c));
	if (type == 'f') {
		double d = cell_real(c);
		uint64_t bits;
		memcpy(&bits, &d, sizeof bits);
		return put_u64(b, bits);
	}
	return put_text(b, c);
}

int amd_ch_rowbinary_row(struct amd_buf *b, const struct amd_cell *cells, const char *types,
			 int64_t extra)
{
	for (int i = 0; types[i]; i++) {
		int null = cells[i].type == AMD_CELL_NULL;
		char t = types[i];
		if (t >= 'A' && t <= 'Z') {
			unsigned char flag = (unsigned char)null;
			if (amd_buf_append(b, &flag, 1) < 0)
				return -1;
			if (null)
				continue;
			t = (char)(t - 'A' + 'a');
		} else if (null) {
			return -2 - i;
		}
		if (put_value(b, &cells[i], t) < 0)
			return -1;
	}
	return put_u64(b, (uint64_t)extra);
}

/* The 8 little-endian bytes of v at p; returns the byte after them. */
static unsigned char *le64_at(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
	return p + 8;
}

/* The most bytes one metric_point row takes: 6 Int64 (run, key, step,
 * source, src, rn) and two Nullable(…) of 9. */
#define POINT_ROW_MAX (6 * 8 + 2 * 9)

int amd_ch_rowbinary_points(struct amd_buf *b, int64_t run, int64_t key,
			    const struct amd_series_rows *s, size_t from, size_t to,
			    int64_t attempt, int64_t *rn)
{
	if (to <= from)
		return 0;
	if (amd_grow_to(&b->data, b->len + (to - from) * POINT_ROW_MAX + 1, &b->cap, 1, 256) < 0)
		return -1;
	unsigned char *p = (unsigned char *)b->data + b->len;
	for (size_t i = from; i < to; i++) {
		p = le64_at(p, (uint64_t)run);
		p = le64_at(p, (uint64_t)key);
		p = le64_at(p, (uint64_t)s->step[i]);
		*p++ = 0;
		p = le64_at(p, (uint64_t)s->ts_ms[i]);
		double v = s->value[i];
		if (isnan(v)) {
			*p++ = 1;
		} else {
			uint64_t bits;
			memcpy(&bits, &v, sizeof bits);
			*p++ = 0;
			p = le64_at(p, bits);
		}
		p = le64_at(p, (uint64_t)attempt);
		p = le64_at(p, (uint64_t)attempt);
		p = le64_at(p, (uint64_t)(*rn)++);
	}
	b->len = (size_t)(p - (unsigned char *)b->data);
	b->data[b->len] = '\0';
	return 0;
}
