/* test_marshal.c — the marshal subset reader (lib/ingest/profile/
 * marshal.h): integers ('i', 'l' up to 63 bits, negative), floats (text
 * and binary), every str form, references, the limits (depth, trailing
 * bytes, truncation) and Python 2's byte strings refused by name. The
 * byte strings are what CPython's marshal.dumps writes for these values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "marshal.h"

static struct amd_marshal *rd(const char *bytes, size_t n, struct amd_mv **v,
			      struct amd_err *err)
{
	return amd_marshal_read("t.prof", (const unsigned char *)bytes, n, v, err);
}

static void integers(void **state)
{
	(void)state;
	struct amd_err err = {{0}};
	struct amd_mv *v;
	/* marshal.dumps(-2) */
	struct amd_marshal *m = rd("\xe9\xfe\xff\xff\xff", 5, &v, &err);
	assert_non_null(m);
	assert_int_equal(v->type, AMD_MV_INT);
	assert_int_equal(v->u.i, -2);
	amd_marshal_free(m);
	/* marshal.dumps(2**40 + 9): 3 digits of 15 bits */
	m = rd("\xec\x03\x00\x00\x00\x09\x00\x00\x00\x00\x04", 11, &v, &err);
	assert_non_null(m);
	assert_int_equal(v->u.i, (INT64_C(1) << 40) + 9);
	amd_marshal_free(m);
	/* marshal.dumps(-(2**62)): 5 digits, the last 4 (bit 60 + 2) */
	m = rd("\xec\xfb\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00\x04\x00", 15, &v, &err);
	assert_non_null(m);
	assert_int_equal(v->u.i, -(INT64_C(1) << 62));
	amd_marshal_free(m);
	/* marshal.dumps(2**63): beyond int64 */
	assert_null(rd("\xec\x05\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x08\x00", 15, &v, &err));
	assert_string_equal(err.msg, "t.prof: byte 5: an integer beyond 63 bits");
	/* 7 as 'l' with 6 digits, the 5 high ones zero (CPython never writes
	 * them; a damaged file may): the zero digits past bit 63 add nothing
	 * (make fuzz-long found the shift of 0 by 75 bits, undefined). */
	m = rd("\xec\x06\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 17, &v, &err);
	assert_non_null(m);
	assert_int_equal(v->u.i, 7);
	amd_marshal_free(m);
}

static void floats(void **state)
{
	(void)state;
	struct amd_err err = {{0}};
	struct amd_mv *v;
	/* marshal.dumps(0.125, 1): text; marshal.dumps(0.125): binary */
	struct amd_marshal *m = rd("f\x05" "0.125", 7, &v, &err);
	assert_non_null(m);
	assert_int_equal(v->type, AMD_MV_FLOAT);
	assert_true(v->u.f == 0.125);
	amd_marshal_free(m);
	m = rd("\xe7\x00\x00\x00\x00\x00\x00\xc0\x3f", 9, &v, &err);
	assert_non_null(m);
	assert_true(v->u.f == 0.125);
	amd_marshal_free(m);
	assert_null(rd("f\x03" "1x5", 5, &v, &err));
	assert_string_equal(err.msg, "t.prof: byte 2: a float that is not a number");
}

static void strings_and_refs(void **state)
{
	(void)state;
	struct amd_err err = {{0}};
	struct amd_mv *v;
	/* marshal.dumps((a, a)), a = sys.intern("ab"): ')' 2, 'Z'|0x80, 'r' 0 */
	struct amd_marshal *m = rd(")\x02\xda\x02" "ab" "r\x00\x00\x00\x00", 11, &v, &err);
	assert_non_null(m);
	assert_int_equal(v->type, AMD_MV_TUPLE);
	assert_int_equal(v->u.seq.n, 2);
	assert_ptr_equal(v->u.seq.v[0], v->u.seq.v[1]);
	assert_memory_equal(v->u.seq.v[0]->u.s.p, "ab", 2);
	amd_marshal_free(m);
	/* marshal.dumps("é", 2): 'u' UTF-8 */
	m = rd("u\x02\x00\x00\x00\xc3\xa9", 7, &v, &err);
	assert_non_null(m);
	assert_int_equal(v->u.s.len, 2);
	amd_marshal_free(m);
	assert_null(rd("u\x01\x00\x00\x00\xc3", 6, &v, &err));
	assert_string_equal(err.msg, "t.prof: byte 5: a string that is not UTF-8 text");
	assert_null(rd("z\x01\x00", 3, &v, &err));
	assert_string_equal(err.msg, "t.prof: byte 2: a string that is not UTF-8 text");
	/* strings of 8 bytes and more (text_ok reads ASCII a word at a time):
	 * a NUL, a lone continuation byte, a non-ASCII byte in an 'a' string,
	 * each in the second word; valid UTF-8 after a word of ASCII */
	assert_null(rd("u\x10\x00\x00\x00" "abcdefgh\x00ijklmno", 21, &v, &err));
	assert_string_equal(err.msg, "t.prof: byte 5: a string that is not UTF-8 text");
	assert_null(rd("u\x10\x00\x00\x00" "abcdefghi\x80klmno", 21, &v, &err));
	assert_null(rd("a\x10\x00\x00\x00" "abcdefghijklmno\xc3", 21, &v, &err));
	m = rd("u\x0c\x00\x00\x00" "abcdefgh\xc3\xa9jk", 17, &v, &err);
	assert_non_null(m);
	assert_int_equal(v->u.s.len, 12);
	amd_marshal_free(m);
	/* a reference to the tuple it is inside: never finished */
	assert_null(rd("\xa9\x01r\x00\x00\x00\x00", 7, &v, &err));
	assert_string_equal(err.msg, "t.prof: byte 2: a reference to no finished object");
}

static void dicts(void **state)
{
	(void)state;
	struct amd_err err = {{0}};
	struct amd_mv *v;
	/* marshal.dumps({"a": 1, "b": None}) */
	struct amd_marshal *m = rd("{\xda\x01" "a" "\xe9\x01\x00\x00\x00\xda\x01" "bN0", 14, &v,
				   &err);
	assert_non_null(m);
	assert_int_equal(v->type, AMD_MV_DICT);
	assert_int_equal(v->u.seq.n, 4);
	assert_int_equal(v->u.seq.v[1]->u.i, 1);
	assert_int_equal(v->u.seq.v[3]->type, AMD_MV_NONE);
	amd_marshal_free(m);
	assert_null(rd("{z\x01" "aN", 5, &v, &err));
	assert_string_equal(err.msg, "t.prof: byte 5: truncated: the file ends inside a value");
}

static void limits(void **state)
{
	(void)state;
	struct amd_err err = {{0}};
	struct amd_mv *v;
	char deep[200];
	for (int i = 0; i < 100; i++) {
		deep[2 * i] = ')';
		deep[2 * i + 1] = 1;
	}
	assert_null(rd(deep, sizeof deep, &v, &err));
	assert_non_null(strstr(err.msg, "nested too deep"));
	assert_null(rd("NN", 2, &v, &err));
	assert_string_equal(err.msg, "t.prof: byte 1: data after the dump's one value");
	assert_null(rd("(\xff\xff\xff\x7fN", 6, &v, &err));
	assert_string_equal(err.msg, "t.prof: byte 0: a tuple longer than the file");
	assert_null(rd("c\x00", 2, &v, &err));
	assert_string_equal(err.msg,
			    "t.prof: byte 0: marshal type 0x63 is not one a pstats dump holds");
}

static void python2(void **state)
{
	(void)state;
	struct amd_err err = {{0}};
	struct amd_mv *v;
	/* Python 2's {('a', 1, 'f'): …}: byte strings */
	const char py2[] = "{(\x03\x00\x00\x00s\x01\x00\x00\x00" "a";
	assert_true(amd_marshal_looks_like_stats((const unsigned char *)py2, sizeof py2 - 1));
	assert_null(rd(py2, sizeof py2 - 1, &v, &err));
	assert_non_null(strstr(err.msg, "t.prof: byte 6: written by Python 2"));
	assert_false(amd_marshal_looks_like_stats((const unsigned char *)"{N0", 3));
	assert_false(amd_marshal_looks_like_stats((const unsigned char *)"{)\x03\x00", 4));
	assert_true(amd_marshal_looks_like_stats((const unsigned char *)"\xfb)\x03\xfa", 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(integers),
		cmocka_unit_test(floats),
		cmocka_unit_test(strings_and_refs),
		cmocka_unit_test(dicts),
		cmocka_unit_test(limits),
		cmocka_unit_test(python2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
