/* trace_split.c — the boundary scan of trace_split.h: strings, escapes
 * and nesting depth. Byte by byte (the reference): outside strings a
 * table names the bytes that matter (quote, brackets, braces, comma),
 * skipped to four bytes a step; inside, memchr finds the next quote and
 * the run of backslashes before it says whether it is escaped. In blocks
 * of 64 bytes (SSE2, every x86-64): a block without a backslash has its
 * quotes, brackets and commas as bit masks, the bytes inside strings as
 * the running parity of the quotes, and only the brackets and commas
 * outside strings are visited; a block with a backslash, or one begun
 * just after one, goes byte by byte, so both ways cut every input at the
 * same places (tests/fuzz/fuzz_split.c holds them to it). The 520 MB
 * bench trace: the byte scan was a third of the reading thread's CPU. */
#include "trace_split.h"

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

/* The scan of p[from..to) in the state *s (depth, in_str, esc); *last
 * the offset of the last cutting comma seen, kept when none. Returns
 * where the array ended or to. */
static size_t scan_bytes(struct amd_json_split *s, const unsigned char *p, size_t from,
			 size_t to, size_t *last)
{
	size_t i = from;
	long long depth = s->depth;
	int in_str = s->in_str, esc = s->esc;
	while (i < to) {
		if (esc) { /* the byte after a backslash, whatever it is */
			esc = 0;
			i++;
			continue;
		}
		if (in_str) {
			i = string_end(p, i, to, &esc, &in_str);
			continue;
		}
		i = skip(stop_byte, p, i, to);
		if (i == to)
			break;
		switch (p[i]) {
		case '"': in_str = 1; break;
		case '{': case '[': depth++; break;
		case ',': if (depth == 0) *last = i; break;
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
	return i;
}

size_t amd_json_split_scan_bytes(struct amd_json_split *s, const unsigned char *p, size_t n,
				 size_t *comma)
{
	*comma = AMD_SPLIT_NONE;
	return scan_bytes(s, p, 0, n, comma);
}

#ifdef __SSE2__
/* The bytes of a 64-byte block the scan acts on, bit k for byte k. */
struct block_masks {
	uint64_t quote, backslash, open, close, comma; /* open: { [, close: } ] */
};

/* The masks of the 64 bytes at b, in one pass of four 16-byte loads:
 * '{' and '[' (and '}' and ']') are the same byte once 0x20 is set. */
static void block_masks(const unsigned char *b, struct block_masks *m)
{
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
	const __m128i comma = _mm_set1_epi8(','), bit20 = _mm_set1_epi8(0x20);
	memset(m, 0, sizeof *m);
	for (int k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(b + 16 * k));
		__m128i v20 = _mm_or_si128(v, bit20);
		int sh = 16 * k;
		m->quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << sh;
		m->backslash |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)) << sh;
		m->open |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v20, open)) << sh;
		m->close |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v20, close)) << sh;
		m->comma |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma)) << sh;
	}
}

/* Bit k the parity of bits 0..k of x. */
static uint64_t running_parity(uint64_t x)
{
	for (int sh = 1; sh < 64; sh *= 2)
		x ^= x << sh;
	return x;
}

/* Bits 0..k-1 (k at most 64). */
static uint64_t below(int k)
{
	return k >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
}

/* A block without a backslash, not begun after one (s->esc 0), at
 * offset at of the caller's buffer, in the state *s: the bytes inside
 * strings are where the running parity of the quotes (flipped when the
 * block begins inside one) is odd; the brackets outside them are visited
 * in order, and between two of them the depth is constant, so at depth 0
 * the last comma of that stretch is the highest bit of its commas. 1 and
 * *end when the array closes in the block, else 0. */
static int scan_block(struct amd_json_split *s, const struct block_masks *m, size_t at,
		      size_t *last, size_t *end)
{
	uint64_t inside = running_parity(m->quote) ^ (s->in_str ? ~(uint64_t)0 : 0);
	uint64_t open = m->open & ~inside, close = m->close & ~inside;
	uint64_t comma = m->comma & ~inside, todo = open | close;
	int from = 0; /* the stretch of constant depth begins at bit from */
	for (;;) {
		int k = todo ? __builtin_ctzll(todo) : 64;
		uint64_t cuts = s->depth == 0 ? comma & below(k) & ~below(from) : 0;
		if (cuts)
			*last = at + (size_t)(63 - __builtin_clzll(cuts));
		if (!todo)
			break;
		if (open >> k & 1)
			s->depth++;
		else if (s->depth == 0) {
			*end = at + (size_t)k;
			s->in_str = 0; /* as the byte scan leaves it: the end is outside strings */
			return 1;
		} else
			s->depth--;
		from = k + 1;
		todo &= todo - 1;
	}
	s->in_str = (unsigned char)(inside >> 63);
	return 0;
}
#endif

size_t amd_json_split_scan(struct amd_json_split *s, const unsigned char *p, size_t n,
			   size_t *comma)
{
	size_t last = AMD_SPLIT_NONE, i = 0;
#ifdef __SSE2__
	for (; n - i >= 64; i += 64) {
		size_t end;
		struct block_masks m;
		block_masks(p + i, &m);
		if (s->esc || m.backslash) {
			end = scan_bytes(s, p, i, i + 64, &last);
			if (end < i + 64) {
				*comma = last;
				return end;
			}
		} else if (scan_block(s, &m, i, &last, &end)) {
			*comma = last;
			return end;
		}
	}
#endif
	size_t end = scan_bytes(s, p, i, n, &last);
	*comma = last;
	return end;
}

int amd_json_split_blank(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t\n\v\f\r", p[i]) || p[i] == '\0')
			return 0;
	return 1;
}
