/* test_json_guard.c — the token-length bound for streamed JSON: strings,
 * escaped quotes and backslashes across chunk boundaries, stretches with
 * no string at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "json_guard.h"

/* Feeds s in chunks of size k; returns the absolute offset of the
 * failure, or -1 when the whole text passes. */
static long feed(const char *s, size_t k, uint64_t limit)
{
	struct amd_json_guard g;
	amd_json_guard_init(&g, limit);
	size_t n = strlen(s);
	for (size_t off = 0; off < n; off += k) {
		size_t len = n - off < k ? n - off : k;
		size_t at;
		if (amd_json_guard_scan(&g, (const unsigned char *)s + off, len, &at) < 0)
			return (long)(off + at);
	}
	return -1;
}

static void short_tokens_pass(void **state)
{
	(void)state;
	const char *doc = "{\"traceEvents\":[{\"name\":\"aten::mm\",\"ts\":123.456}]}";
	for (size_t k = 1; k <= strlen(doc); k++)
		assert_int_equal(feed(doc, k, 16), -1);
	/* "traceEvents" is 11 bytes: a limit of 10 stops inside it, at byte 12 */
	assert_int_equal(feed(doc, 5, 10), 12);
}

static void long_string_fails_at_the_limit(void **state)
{
	(void)state;
	/* "ab…" with 20 letters: the 11th letter passes a limit of 10 */
	const char *doc = "[\"abcdefghijklmnopqrst\"]";
	for (size_t k = 1; k <= strlen(doc); k++)
		assert_int_equal(feed(doc, k, 10), 12);
}

static void escaped_quotes_do_not_end_a_string(void **state)
{
	(void)state;
	/* \" inside: still one string of 12 bytes > 10 */
	const char *doc = "[\"abcde\\\"fghij\"]";
	for (size_t k = 1; k <= strlen(doc); k++)
		assert_int_not_equal(feed(doc, k, 10), -1);
	/* an escaped backslash before the quote ends the string: 2 strings of 6 */
	const char *two = "[\"abcd\\\\\",\"efghij\"]";
	for (size_t k = 1; k <= strlen(two); k++)
		assert_int_equal(feed(two, k, 10), -1);
}

static void a_long_number_fails(void **state)
{
	(void)state;
	const char *doc = "[\"x\",123456789012345678901234567890]";
	assert_int_not_equal(feed(doc, 4, 16), -1);
	assert_int_equal(feed(doc, 4, 64), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(short_tokens_pass),
		cmocka_unit_test(long_string_fails_at_the_limit),
		cmocka_unit_test(escaped_quotes_do_not_end_a_string),
		cmocka_unit_test(a_long_number_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
