/* test_json_guard.c — the token-length bound for streamed JSON: strings,
 * escaped quotes and backslashes across chunk boundaries, stretches with
 * no string at all, and random texts in random chunkings against the rule
 * read byte by byte; the exact mode (a bound per token) likewise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "json_guard.h"

/* Feeds s in chunks of size k; returns the absolute offset of the
 * failure, or -1 when the whole text passes. */
static long feed_guard(struct amd_json_guard *gp, const char *s, size_t k)
{
	struct amd_json_guard g = *gp;
	size_t n = strlen(s);
	for (size_t off = 0; off < n; off += k) {
		size_t len = n - off < k ? n - off : k;
		size_t at;
		if (amd_json_guard_scan(&g, (const unsigned char *)s + off, len, &at) < 0)
			return (long)(off + at);
	}
	return -1;
}

static long feed(const char *s, size_t k, uint64_t limit)
{
	struct amd_json_guard g;
	amd_json_guard_init(&g, limit);
	return feed_guard(&g, s, k);
}

static long feed_exact(const char *s, size_t k, uint64_t limit)
{
	struct amd_json_guard g;
	amd_json_guard_init_exact(&g, limit);
	return feed_guard(&g, s, k);
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

/* The guard's rule read off the whole text at once, byte by byte: the
 * offset where the bytes since the last unescaped quote pass limit, or -1. */
static long reference(const char *s, uint64_t limit)
{
	uint64_t run = 0;
	size_t backslashes = 0;
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '"' && backslashes % 2 == 0) {
			run = 0;
		} else if (++run > limit) {
			return (long)i;
		}
		backslashes = s[i] == '\\' ? backslashes + 1 : 0;
	}
	return -1;
}

/* A random text of 1 to size - 1 bytes drawn from alphabet. */
static void random_text(unsigned *seed, char *text, size_t size, const char *alphabet)
{
	size_t n = 1 + (*seed = *seed * 1103515245u + 12345u) % (size - 1);
	for (size_t i = 0; i < n; i++) {
		unsigned r = (*seed = *seed * 1103515245u + 12345u) >> 16;
		text[i] = alphabet[r % strlen(alphabet)];
	}
	text[n] = '\0';
}

/* Texts of quotes, backslashes and letters in every chunking agree with
 * the byte-by-byte reading: chunks that cannot reach the limit are read
 * back from their end only, chunks no longer than the limit up to their
 * first quote, the others whole (limits 1-40 against chunks of 1-64). */
static void any_chunking_agrees_with_the_byte_by_byte_rule(void **state)
{
	(void)state;
	unsigned seed = 12345;
	char text[200];
	for (int t = 0; t < 3000; t++) {
		random_text(&seed, text, sizeof text, "\"\\aaaaaa");
		uint64_t limit = 1 + (seed >> 20) % 40;
		size_t k = 1 + (seed >> 8) % 64;
		assert_int_equal(feed(text, k, limit), reference(text, limit));
	}
}

/* The exact guard bounds each token, not the stretch between strings:
 * speedscope's arrays of small numbers pass, a long number or string
 * fails at the byte past the limit, in any chunking. */
static void exact_guard_bounds_each_token(void **state)
{
	(void)state;
	const char *numbers = "[[1, 22, 333], [4444, 55555], 0.01, 0.01, 0.01, 0.01, 0.01]";
	const char *number = "[1, 12345678901234567890]";
	const char *string = "[\"abcdefghijklmnopqrst\"]";
	const char *escaped = "[\"abcd\\\"efghij\", 1]"; /* "abcd\"efghij": 12 bytes */
	for (size_t k = 1; k <= strlen(numbers); k++) {
		assert_int_equal(feed_exact(numbers, k, 6), -1);
		assert_int_not_equal(feed(numbers, k, 6), -1); /* the plain guard refuses */
		assert_int_equal(feed_exact(number, k, 10), 14);
		assert_int_equal(feed_exact(string, k, 10), 12);
		assert_int_equal(feed_exact(escaped, k, 10), 12);
		assert_int_equal(feed_exact(escaped, k, 12), -1);
	}
}

/* The exact rule read off the whole text at once: the bytes of one token
 * (a string without its quotes, escapes counted; a run of other bytes
 * between separators and blanks). */
static long reference_exact(const char *s, uint64_t limit)
{
	uint64_t run = 0;
	int in_string = 0;
	for (size_t i = 0; s[i]; i++) {
		if (in_string && s[i] == '\\' && s[i + 1]) {
			if ((run += 2) > limit)
				return (long)(run - 1 > limit ? i : i + 1);
			i++;
			continue;
		}
		if (s[i] == '"') {
			in_string = !in_string;
			run = 0;
		} else if (!in_string && strchr(",:[]{} ", s[i])) {
			run = 0;
		} else if (++run > limit) {
			return (long)i;
		}
	}
	return -1;
}

static void exact_guard_any_chunking_agrees(void **state)
{
	(void)state;
	unsigned seed = 777;
	char text[200];
	for (int t = 0; t < 3000; t++) {
		random_text(&seed, text, sizeof text, "\"\\a1,[ a1a1a");
		uint64_t limit = 1 + (seed >> 20) % 20;
		size_t k = 1 + (seed >> 8) % 64;
		assert_int_equal(feed_exact(text, k, limit), reference_exact(text, limit));
	}
}

/* Chunks no longer than the limit are read by their quotes, not byte by
 * byte: every chunk size up to the limit, with separators, blanks,
 * escapes and numbers, agrees with the rule read off the whole text. */
static void exact_guard_short_chunks_agree(void **state)
{
	(void)state;
	unsigned seed = 4242;
	char text[300];
	for (int t = 0; t < 20000; t++) {
		random_text(&seed, text, sizeof text, "\"\\\\a1,[ a1a1a\"{}:]11");
		uint64_t limit = 1 + (seed >> 20) % 40;
		size_t k = 1 + (seed >> 8) % limit;
		assert_int_equal(feed_exact(text, k, limit), reference_exact(text, limit));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(short_tokens_pass),
		cmocka_unit_test(long_string_fails_at_the_limit),
		cmocka_unit_test(escaped_quotes_do_not_end_a_string),
		cmocka_unit_test(a_long_number_fails),
		cmocka_unit_test(any_chunking_agrees_with_the_byte_by_byte_rule),
		cmocka_unit_test(exact_guard_bounds_each_token),
		cmocka_unit_test(exact_guard_any_chunking_agrees),
		cmocka_unit_test(exact_guard_short_chunks_agree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
