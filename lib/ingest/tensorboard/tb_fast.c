/* tb_fast.c — the common Event shape of tb_fast.h read directly: the
 * wire bytes 0x09 wall_time (fixed64), 0x10 step (varint), 0x2a summary
 * (length), in it 0x0a values (length), in each 0x0a tag (length) and
 * 0x15 simple_value (fixed32). protobuf-c's generic unpack (a descriptor
 * lookup per field, an allocation per message and string) was a fifth
 * of a TensorBoard ingest; an Event of any other form still goes to it,
 * so what is accepted here is what protobuf-c accepts, decoded the same
 * (tests/unit/test_tb_fast.c compares the two on random records). */
#include "tb_fast.h"

#include <stdint.h>
#include <string.h>

/* A varint of at most 9 bytes (a value below 2^63); 0 for a longer or
 * cut one. */
static int varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	uint64_t x = 0;
	for (int shift = 0; shift <= 56 && *p < end; shift += 7) {
		unsigned char b = *(*p)++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 1;
		}
	}
	return 0;
}

/* A length-delimited field's bytes [*from, *to) after its key; 0 when
 * the length is cut or passes end. */
static int span(const unsigned char **p, const unsigned char *end, const unsigned char **from,
		const unsigned char **to)
{
	uint64_t n;
	if (!varint(p, end, &n) || n > (uint64_t)(end - *p))
		return 0;
	*from = *p;
	*to = *p + n;
	*p = *to;
	return 1;
}

static int value(const unsigned char *p, const unsigned char *end, struct tb_fast *f,
		 size_t *tag_used, Amdtb__Summary__Value *v)
{
	int seen = 0;
	while (p < end) {
		const unsigned char *a, *b;
		unsigned char key = *p++;
		if (key == 0x0a && !(seen & 1) && span(&p, end, &a, &b)) {
			size_t n = (size_t)(b - a);
			if (n + 1 > TB_FAST_TAGS - *tag_used)
				return 0;
			v->tag = f->tags + *tag_used;
			memcpy(v->tag, a, n);
			v->tag[n] = '\0';
			*tag_used += n + 1;
			seen |= 1;
		} else if (key == 0x15 && !(seen & 2) && end - p >= 4) {
			memcpy(&v->simple_value, p, 4);
			p += 4;
			v->value_case = AMDTB__SUMMARY__VALUE__VALUE_SIMPLE_VALUE;
			seen |= 2;
		} else {
			return 0;
		}
	}
	return 1;
}

static int summary(const unsigned char *p, const unsigned char *end, struct tb_fast *f)
{
	size_t tag_used = 0;
	f->s = (Amdtb__Summary)AMDTB__SUMMARY__INIT;
	f->s.value = f->pv;
	while (p < end) {
		const unsigned char *a, *b;
		if (*p++ != 0x0a || f->s.n_value == TB_FAST_VALUES || !span(&p, end, &a, &b))
			return 0;
		Amdtb__Summary__Value *v = &f->v[f->s.n_value];
		*v = (Amdtb__Summary__Value)AMDTB__SUMMARY__VALUE__INIT;
		if (!value(a, b, f, &tag_used, v))
			return 0;
		f->pv[f->s.n_value++] = v;
	}
	return 1;
}

int tb_fast_event(const unsigned char *data, size_t len, struct tb_fast *f)
{
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	return 0; /* the fixed-width fields are copied as they lie */
#endif
	const unsigned char *p = data, *end = data + len, *a, *b;
	int seen = 0;
	uint64_t v;
	f->e = (Amdtb__Event)AMDTB__EVENT__INIT;
	while (p < end) {
		unsigned char key = *p++;
		if (key == 0x09 && !(seen & 1) && end - p >= 8) {
			memcpy(&f->e.wall_time, p, 8);
			p += 8;
			seen |= 1;
		} else if (key == 0x10 && !(seen & 2) && varint(&p, end, &v)) {
			f->e.step = (int64_t)v;
			seen |= 2;
		} else if (key == 0x2a && !(seen & 4) && span(&p, end, &a, &b) && summary(a, b, f)) {
			f->e.what_case = AMDTB__EVENT__WHAT_SUMMARY;
			f->e.summary = &f->s;
			seen |= 4;
		} else {
			return 0;
		}
	}
	return 1;
}
