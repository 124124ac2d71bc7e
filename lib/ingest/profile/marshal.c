/* marshal.c — the marshal subset pstats dumps use (marshal.h). Values
 * live in an arena freed at once, in blocks of 2 MB pages (huge_map.h):
 * a 40 MB dump's values were some 60 MB (14 MB less by peak RSS since
 * they are 24 bytes cut at 8), in 4 KB pages 15,000 page faults, a
 * quarter of the reader's CPU; references (the 0x80 flag reserves a
 * slot when an object starts, 'r' names it) resolve to finished objects
 * only; nesting is bounded so a crafted file cannot exhaust the stack. */
#include "marshal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "huge_map.h"

#define MAX_DEPTH 64
#define ARENA_BLOCK (2 * AMD_HUGE_PAGE)
#define FLAG_REF 0x80
/* Values and their pointer arrays are cut at 8 bytes, not max_align_t's
 * 16: a tuple of three was 32 bytes of pointers, a value 32, not 24. */
#define ARENA_ALIGN _Alignof(struct amd_mv)

struct block {
	struct block *next;
	size_t used, cap;
	size_t mapped; /* bytes from amd_huge_alloc, 0: malloc'd */
	max_align_t data[];
};

struct amd_marshal {
	const char *path;
	const unsigned char *buf;
	size_t len, pos;
	struct block *blocks;
	struct amd_mv **refs; /* NULL: reserved, not finished */
	size_t n_refs, cap_refs;
	struct amd_mv **stack; /* dict items being read */
	size_t n_stack, cap_stack;
};

/* A block with room for size bytes: in huge pages, else from malloc. */
static struct block *new_block(size_t size)
{
	size_t cap = size > ARENA_BLOCK - sizeof(struct block) ? size : ARENA_BLOCK - sizeof(struct block);
	size_t mapped = (sizeof(struct block) + cap + AMD_HUGE_PAGE - 1) / AMD_HUGE_PAGE * AMD_HUGE_PAGE;
	struct block *b = amd_huge_alloc(mapped);
	if (!b) {
		mapped = 0;
		if (!(b = malloc(sizeof *b + cap)))
			return NULL;
	}
	b->used = 0;
	b->cap = cap;
	b->mapped = mapped;
	return b;
}

static void *arena(struct amd_marshal *m, size_t size)
{
	size = (size + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
	struct block *b = m->blocks;
	if (!b || b->cap - b->used < size) {
		if (!(b = new_block(size)))
			return NULL;
		b->next = m->blocks;
		m->blocks = b;
	}
	void *p = (char *)b->data + b->used;
	b->used += size;
	return p;
}

static int fail_at(struct amd_marshal *m, size_t at, const char *what, struct amd_err *err)
{
	return amd_fail(err, "%s: byte %zu: %s", m->path, at, what);
}

static int need(struct amd_marshal *m, size_t n, struct amd_err *err)
{
	if (m->len - m->pos < n)
		return fail_at(m, m->pos, "truncated: the file ends inside a value", err);
	return 0;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int read_u32(struct amd_marshal *m, uint32_t *v, struct amd_err *err)
{
	if (need(m, 4, err) < 0)
		return -1;
	*v = le32(m->buf + m->pos);
	m->pos += 4;
	return 0;
}

/* 'l': a sign-and-size count, then 15-bit digits, least significant first. */
static int read_long(struct amd_marshal *m, struct amd_mv *v, struct amd_err *err)
{
	uint32_t raw;
	if (read_u32(m, &raw, err) < 0)
		return -1;
	int32_t n = (int32_t)raw;
	uint32_t digits = n < 0 ? (uint32_t)0 - raw : raw;
	if (need(m, (size_t)digits * 2, err) < 0)
		return -1;
	uint64_t acc = 0;
	for (uint32_t i = 0; i < digits; i++) {
		const unsigned char *p = m->buf + m->pos + 2 * (size_t)i;
		uint64_t d = (uint64_t)p[0] | (uint64_t)p[1] << 8;
		if (d >= (1u << 15))
			return fail_at(m, m->pos, "a long's digit is out of range", err);
		if (!d)
			continue; /* a zero digit adds nothing (and 0 << 75 is undefined) */
		if ((15 * i >= 63 || d > (UINT64_C(0x7fffffffffffffff) >> (15 * i)) ||
			  acc > UINT64_C(0x7fffffffffffffff) - (d << (15 * i))))
			return fail_at(m, m->pos, "an integer beyond 63 bits", err);
		acc += d << (15 * i);
	}
	m->pos += (size_t)digits * 2;
	v->type = AMD_MV_INT;
	v->u.i = n < 0 ? -(int64_t)acc : (int64_t)acc;
	return 0;
}

static int read_float(struct amd_marshal *m, int binary, struct amd_mv *v, struct amd_err *err)
{
	v->type = AMD_MV_FLOAT;
	if (binary) {
		if (need(m, 8, err) < 0)
			return -1;
		uint64_t bits = 0;
		for (int i = 7; i >= 0; i--)
			bits = bits << 8 | m->buf[m->pos + (size_t)i];
		memcpy(&v->u.f, &bits, sizeof bits);
		m->pos += 8;
		return 0;
	}
	if (need(m, 1, err) < 0)
		return -1;
	size_t n = m->buf[m->pos++];
	if (need(m, n, err) < 0)
		return -1;
	char text[256], *end;
	memcpy(text, m->buf + m->pos, n);
	text[n] = '\0';
	v->u.f = strtod(text, &end);
	if (n == 0 || *end)
		return fail_at(m, m->pos, "a float that is not a number", err);
	m->pos += n;
	return 0;
}

#define ASCII_LOW UINT64_C(0x0101010101010101)
#define ASCII_HIGH UINT64_C(0x8080808080808080)

/* Well-formed UTF-8 (ascii: bytes below 0x80 only), no NUL. */
static int text_ok(const unsigned char *p, size_t n, int ascii)
{
	size_t i = 0;
	for (; n - i >= 8; i += 8) { /* ASCII without NUL, eight bytes at a time */
		uint64_t w;
		memcpy(&w, p + i, sizeof w);
		if ((w & ASCII_HIGH) || ((w - ASCII_LOW) & ~w & ASCII_HIGH))
			break; /* a byte >= 0x80 or a NUL: the loop below tells */
	}
	while (i < n) {
		unsigned c = p[i];
		size_t k = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2
			 : (c & 0xf8) == 0xf0 ? 3 : 9;
		if (c == 0 || (ascii && c >= 0x80) || k > 3 || n - i - 1 < k || c == 0xc0 ||
		    c == 0xc1)
			return 0;
		for (size_t j = 1; j <= k; j++)
			if ((p[i + j] & 0xc0) != 0x80)
				return 0;
		i += k + 1;
	}
	return 1;
}

static int read_str(struct amd_marshal *m, int short_len, int ascii, struct amd_mv *v,
		    struct amd_err *err)
{
	size_t n;
	if (short_len) {
		if (need(m, 1, err) < 0)
			return -1;
		n = m->buf[m->pos++];
	} else {
		uint32_t n32;
		if (read_u32(m, &n32, err) < 0)
			return -1;
		n = n32;
	}
	if (need(m, n, err) < 0)
		return -1;
	if (!text_ok(m->buf + m->pos, n, ascii))
		return fail_at(m, m->pos, "a string that is not UTF-8 text", err);
	v->type = AMD_MV_STR;
	v->u.s.p = (const char *)m->buf + m->pos;
	v->u.s.len = n;
	m->pos += n;
	return 0;
}

static int read_value(struct amd_marshal *m, int depth, struct amd_mv **out, struct amd_err *err);

/* '(' ')' '[': n items (each at least one byte). */
static int read_seq(struct amd_marshal *m, int depth, size_t n, struct amd_mv *v,
		    struct amd_err *err)
{
	if (n > m->len - m->pos)
		return fail_at(m, v->offset, "a tuple longer than the file", err);
	v->u.seq.n = n;
	v->u.seq.v = arena(m, (n ? n : 1) * sizeof *v->u.seq.v);
	if (!v->u.seq.v)
		return amd_fail(err, "%s: out of memory", m->path);
	for (size_t i = 0; i < n; i++)
		if (read_value(m, depth + 1, &v->u.seq.v[i], err) < 0)
			return -1;
	return 0;
}

static int push(struct amd_marshal *m, struct amd_mv *v, struct amd_err *err)
{
	if (amd_grow(&m->stack, m->n_stack, &m->cap_stack, sizeof *m->stack, 256) < 0)
		return amd_fail(err, "%s: out of memory", m->path);
	m->stack[m->n_stack++] = v;
	return 0;
}

/* '{': key, value pairs up to a NULL ('0') key. */
static int read_dict(struct amd_marshal *m, int depth, struct amd_mv *v, struct amd_err *err)
{
	size_t base = m->n_stack;
	for (;;) {
		if (need(m, 1, err) < 0)
			return -1;
		if (m->buf[m->pos] == '0') {
			m->pos++;
			break;
		}
		struct amd_mv *k, *val;
		if (read_value(m, depth + 1, &k, err) < 0 || push(m, k, err) < 0 ||
		    read_value(m, depth + 1, &val, err) < 0 || push(m, val, err) < 0)
			return -1;
	}
	v->type = AMD_MV_DICT;
	v->u.seq.n = m->n_stack - base;
	v->u.seq.v = arena(m, (v->u.seq.n ? v->u.seq.n : 1) * sizeof *v->u.seq.v);
	if (!v->u.seq.v)
		return amd_fail(err, "%s: out of memory", m->path);
	if (v->u.seq.n)
		memcpy(v->u.seq.v, m->stack + base, v->u.seq.n * sizeof *v->u.seq.v);
	m->n_stack = base;
	return 0;
}

static int read_ref(struct amd_marshal *m, struct amd_mv **out, struct amd_err *err)
{
	size_t at = m->pos - 1;
	uint32_t i;
	if (read_u32(m, &i, err) < 0)
		return -1;
	if (i >= m->n_refs || !m->refs[i])
		return fail_at(m, at, "a reference to no finished object", err);
	*out = m->refs[i];
	return 0;
}

static int python2(struct amd_marshal *m, size_t at, struct amd_err *err)
{
	return fail_at(m, at, "written by Python 2 (marshal byte strings and string references):"
		       " Python 3's pstats cannot read it either; profile again under Python 3",
		       err);
}

/* The body of a value of type code (the type byte read). */
static int read_body(struct amd_marshal *m, int depth, int code, struct amd_mv *v,
		     struct amd_err *err)
{
	uint32_t n;
	switch (code) {
	case 'N': v->type = AMD_MV_NONE; return 0;
	case 'F': case 'T': v->type = AMD_MV_BOOL; v->u.i = code == 'T'; return 0;
	case 'i':
		if (read_u32(m, &n, err) < 0)
			return -1;
		v->type = AMD_MV_INT;
		v->u.i = (int32_t)n;
		return 0;
	case 'l': return read_long(m, v, err);
	case 'g': case 'f': return read_float(m, code == 'g', v, err);
	case 'u': case 't': return read_str(m, 0, 0, v, err);
	case 'a': case 'A': return read_str(m, 0, 1, v, err);
	case 'z': case 'Z': return read_str(m, 1, 1, v, err);
	case ')':
		if (need(m, 1, err) < 0)
			return -1;
		v->type = AMD_MV_TUPLE;
		return read_seq(m, depth, m->buf[m->pos++], v, err);
	case '(': case '[':
		if (read_u32(m, &n, err) < 0)
			return -1;
		v->type = code == '(' ? AMD_MV_TUPLE : AMD_MV_LIST;
		return read_seq(m, depth, n, v, err);
	case '{': return read_dict(m, depth, v, err);
	case 's': case 'R': case 'I': return python2(m, v->offset, err);
	}
	char what[64];
	snprintf(what, sizeof what, "marshal type 0x%02x is not one a pstats dump holds", code);
	return fail_at(m, v->offset, what, err);
}

static int read_value(struct amd_marshal *m, int depth, struct amd_mv **out, struct amd_err *err)
{
	if (depth > MAX_DEPTH)
		return fail_at(m, m->pos, "values nested too deep for a pstats dump", err);
	if (need(m, 1, err) < 0)
		return -1;
	size_t at = m->pos;
	int code = m->buf[m->pos] & ~FLAG_REF, flag = m->buf[m->pos] & FLAG_REF;
	m->pos++;
	if (code == 'r')
		return read_ref(m, out, err);
	size_t slot = m->n_refs;
	if (flag) {
		if (amd_grow(&m->refs, m->n_refs, &m->cap_refs, sizeof *m->refs, 1024) < 0)
			return amd_fail(err, "%s: out of memory", m->path);
		m->refs[m->n_refs++] = NULL;
	}
	struct amd_mv *v = arena(m, sizeof *v);
	if (!v)
		return amd_fail(err, "%s: out of memory", m->path);
	memset(v, 0, sizeof *v);
	v->offset = (uint32_t)at;
	if (read_body(m, depth, code, v, err) < 0)
		return -1;
	if (flag)
		m->refs[slot] = v;
	*out = v;
	return 0;
}

void amd_marshal_free(struct amd_marshal *m)
{
	if (!m)
		return;
	while (m->blocks) {
		struct block *b = m->blocks;
		m->blocks = b->next;
		if (b->mapped)
			amd_huge_free(b, b->mapped);
		else
			free(b);
	}
	free(m->refs);
	free(m->stack);
	free(m);
}

struct amd_marshal *amd_marshal_read(const char *path, const unsigned char *buf, size_t len,
				     struct amd_mv **out, struct amd_err *err)
{
	struct amd_marshal *m = calloc(1, sizeof *m);
	if (!m) {
		amd_fail(err, "%s: out of memory", path);
		return NULL;
	}
	m->path = path;
	m->buf = buf;
	m->len = len;
	if (len > UINT32_MAX) {
		fail_at(m, 0, "larger than this reader holds (4 GiB)", err);
		amd_marshal_free(m);
		return NULL;
	}
	if (read_value(m, 0, out, err) < 0) {
		amd_marshal_free(m);
		return NULL;
	}
	if (m->pos != len) {
		fail_at(m, m->pos, "data after the dump's one value", err);
		amd_marshal_free(m);
		return NULL;
	}
	free(m->stack);
	m->stack = NULL;
	m->n_stack = m->cap_stack = 0;
	return m;
}

static int str_type(unsigned char c, const char *types)
{
	c &= (unsigned char)~FLAG_REF;
	return c && strchr(types, c) != NULL;
}

int amd_marshal_looks_like_stats(const unsigned char *buf, size_t len)
{
	if (len < 3 || (buf[0] & ~FLAG_REF) != '{')
		return 0;
	int t = buf[1] & ~FLAG_REF;
	if (t == ')')
		return len > 3 && buf[2] == 3 && str_type(buf[3], "uatAzZr");
	if (t == '(')
		return len > 6 && le32(buf + 2) == 3 && str_type(buf[6], "uatAzZrs");
	return 0;
}
