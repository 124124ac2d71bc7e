/* test_tb_fast.c — the TensorBoard Event read without protobuf-c
 * (tb_fast.c) against protobuf-c's unpack on random records: the usual
 * shape (wall time, step, a summary of tag + simple_value values) with
 * random tags (any bytes: NUL, bytes that are not UTF-8), overlong and
 * long varints, other fields, repeated fields, and those records with
 * bytes changed or cut. Whatever the fast reader accepts, protobuf-c
 * accepts with the same fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tb_event.pb-c.h"
#include "tb_fast.h"

static unsigned seed = 2024;

static unsigned rnd(unsigned n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

struct out {
	unsigned char b[1024];
	size_t n;
};

static void put(struct out *o, unsigned char c)
{
	if (o->n < sizeof o->b)
		o->b[o->n++] = c;
}

/* v as a varint, now and then with extra 0x80 bytes (overlong). */
static void put_varint(struct out *o, uint64_t v)
{
	int pad = rnd(8) == 0 ? 1 + (int)rnd(3) : 0;
	while (v >= 0x80 || pad > 0) {
		put(o, (unsigned char)(v & 0x7f) | 0x80);
		v >>= 7;
		if (v == 0 && pad > 0 && --pad == 0)
			break;
	}
	put(o, (unsigned char)v);
}

static void put_bytes(struct out *o, unsigned key, const struct out *in)
{
	put(o, (unsigned char)key);
	put_varint(o, in->n);
	for (size_t i = 0; i < in->n; i++)
		put(o, in->b[i]);
}

static void value(struct out *o)
{
	struct out v = {0}, tag = {0};
	unsigned n = rnd(3) == 0 ? rnd(40) : rnd(12);
	for (unsigned i = 0; i < n; i++)
		tag.b[tag.n++] = rnd(4) ? (unsigned char)('a' + rnd(26)) : (unsigned char)rnd(256);
	for (unsigned k = 0, fields = 1 + rnd(3); k < fields; k++) {
		switch (rnd(9)) {
		case 0: case 1: case 2: case 3: put_bytes(&v, 0x0a, &tag); break;
		case 4: case 5: case 6:
			put(&v, 0x15);
			for (int i = 0; i < 4; i++)
				put(&v, (unsigned char)rnd(256));
			break;
		case 7: { /* metadata with a plugin name */
			struct out m = {0}, pd = {0}, name = {0};
			memcpy(name.b, "scalars", 7);
			name.n = 7;
			put_bytes(&pd, 0x0a, &name);
			put_bytes(&m, 0x0a, &pd);
			put_bytes(&v, 0x4a, &m);
			break;
		}
		default: put(&v, (unsigned char)rnd(256)); break;
		}
	}
	put_bytes(o, 0x0a, &v);
}

static void event(struct out *o)
{
	o->n = 0;
	for (unsigned k = 0, fields = 1 + rnd(4); k < fields; k++) {
		switch (rnd(7)) {
		case 0:
			put(o, 0x09);
			for (int i = 0; i < 8; i++)
				put(o, (unsigned char)rnd(256));
			break;
		case 1: case 2:
			put(o, 0x10);
			put_varint(o, rnd(4) == 0 ? ((uint64_t)rnd(1u << 30) << 34 | rnd(1u << 30))
						  : rnd(100000));
			break;
		case 3: case 4: {
			struct out s = {0};
			for (unsigned i = 0, nv = rnd(4); i < nv; i++)
				value(&s);
			put_bytes(o, 0x2a, &s);
			break;
		}
		case 5: { /* file_version */
			struct out t = {0};
			memcpy(t.b, "brain.Event:2", 13);
			t.n = 13;
			put_bytes(o, 0x1a, &t);
			break;
		}
		default: put(o, (unsigned char)rnd(256)); break;
		}
	}
	if (rnd(8) == 0 && o->n) /* a changed byte */
		o->b[rnd((unsigned)o->n)] = (unsigned char)rnd(256);
	if (rnd(10) == 0 && o->n) /* cut short */
		o->n = rnd((unsigned)o->n);
}

static void same_event(const Amdtb__Event *a, const Amdtb__Event *b)
{
	assert_memory_equal(&a->wall_time, &b->wall_time, sizeof a->wall_time);
	assert_int_equal(a->step, b->step);
	assert_int_equal(a->what_case, b->what_case);
	if (a->what_case != AMDTB__EVENT__WHAT_SUMMARY)
		return;
	assert_int_equal(a->summary->n_value, b->summary->n_value);
	for (size_t i = 0; i < a->summary->n_value; i++) {
		const Amdtb__Summary__Value *x = a->summary->value[i], *y = b->summary->value[i];
		assert_string_equal(x->tag, y->tag);
		assert_null(x->metadata);
		assert_null(y->metadata);
		assert_int_equal(x->value_case, y->value_case);
		if (x->value_case == AMDTB__SUMMARY__VALUE__VALUE_SIMPLE_VALUE)
			assert_memory_equal(&x->simple_value, &y->simple_value, sizeof(float));
	}
}

static void fast_agrees_with_protobuf_c(void **state)
{
	(void)state;
	static struct tb_fast f;
	struct out o;
	int fast = 0, summaries = 0;
	for (int t = 0; t < 500000; t++) {
		event(&o);
		if (!tb_fast_event(o.b, o.n, &f))
			continue;
		fast++;
		summaries += f.e.what_case == AMDTB__EVENT__WHAT_SUMMARY && f.s.n_value > 0;
		Amdtb__Event *e = amdtb__event__unpack(NULL, o.n, o.b);
		assert_non_null(e);
		same_event(&f.e, e);
		amdtb__event__free_unpacked(e, NULL);
	}
	print_message("fast %d, with values %d\n", fast, summaries);
	assert_true(fast > 50000);     /* the fast reader was exercised */
	assert_true(summaries > 5000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fast_agrees_with_protobuf_c),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
