/* test_text_safe.c — text made safe for where it goes: invalid UTF-8
 * replaced by U+FFFD (valid text kept byte for byte), Markdown escaped
 * and unescaped back, control characters made visible. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "text_safe.h"

static void utf8_valid_replaces_only_invalid_bytes(void **state)
{
	(void)state;
	char *s = amd_utf8_valid_dup("ab\xff" "c\xc3\xa4\xe2\x80"); /* ä kept, a cut € replaced */
	assert_string_equal(s, "ab\xef\xbf\xbd" "c\xc3\xa4\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	s = amd_utf8_valid_dup("");
	assert_string_equal(s, "");
	free(s);
}

static void markdown_escape_round_trip(void **state)
{
	(void)state;
	struct amd_buf b = {0};
	assert_int_equal(amd_md_escape(&b, "<script>|`x`* global_batch_size _y_\nz"), 0);
	assert_string_equal(b.data, "\\<script\\>\\|\\`x\\`\\* global_batch_size \\_y\\_ z");
	char *copy = strdup(b.data);
	amd_md_unescape(copy);
	assert_string_equal(copy, "<script>|`x`* global_batch_size _y_ z");
	free(copy);
	amd_buf_free(&b);
}

static void visible_line_escapes_controls(void **state)
{
	(void)state;
	struct amd_buf b = {0};
	assert_int_equal(amd_visible_line(&b, "a\x1b[31mb\nc\xc2\x9b" "d\xff" "\xc3\xa4"), 0);
	assert_string_equal(b.data, "a\\x1B[31mb\\x0Ac\\u009Bd\\xFF\xc3\xa4");
	amd_buf_free(&b);
}

/* U+2028, U+2029 and U+0085 end a line in Unicode; other characters
 * beyond ASCII (U+2027, U+202F, U+00A0) stay as they are. */
static void visible_line_escapes_unicode_line_breaks(void **state)
{
	(void)state;
	struct amd_buf b = {0};
	assert_int_equal(amd_visible_line(&b, "a\xe2\x80\xa8" "b\xe2\x80\xa9" "c\xc2\x85"
					     "d\xe2\x80\xa7\xe2\x80\xaf\xc2\xa0"), 0);
	assert_string_equal(b.data, "a\\u2028b\\u2029c\\u0085d\xe2\x80\xa7\xe2\x80\xaf\xc2\xa0");
	amd_buf_free(&b);
}

/* The bidirectional overrides, embeddings and isolates are shown as
 * escapes (each would reorder the rest of a table row); the marks LRM,
 * RLM and ALM, and right-to-left letters, stay as they are. */
static void visible_line_escapes_bidi_controls(void **state)
{
	(void)state;
	struct amd_buf b = {0};
	assert_int_equal(amd_visible_line(&b, "a\xe2\x80\xaa" "b\xe2\x80\xae" "c\xe2\x81\xa6"
					     "d\xe2\x81\xa9" "e\xe2\x80\x8f\xd7\xa9\xd8\x9c"), 0);
	assert_string_equal(b.data, "a\\u202Ab\\u202Ec\\u2066d\\u2069e\xe2\x80\x8f\xd7\xa9\xd8\x9c");
	amd_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(utf8_valid_replaces_only_invalid_bytes),
		cmocka_unit_test(markdown_escape_round_trip),
		cmocka_unit_test(visible_line_escapes_controls),
		cmocka_unit_test(visible_line_escapes_unicode_line_breaks),
		cmocka_unit_test(visible_line_escapes_bidi_controls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
