/* test_csv.c — the shared CSV reader (quoting, line numbers, errors) and
 * the number-with-unit parser (lib/ingest/csv.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>
#include <string.h>

#include "csv.h"

static int next(struct amd_csv *c, struct amd_err *err)
{
	return amd_csv_next(c, err);
}

static void quoted_fields(void **state)
{
	(void)state;
	/* a real row of torch_profiling_averages.csv, and doubled quotes */
	const char *s = "name,calls\n"
			"\"aten::sum, dim\",12\n"
			"\"say \"\"hi\"\"\",\"\"\n"
			"plain,3";
	struct amd_csv c;
	struct amd_err err = {{0}};
	amd_csv_init(&c, "t.csv", s, strlen(s), 0);
	assert_int_equal(next(&c, &err), 1);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.field[0], "name");
	assert_int_equal(amd_csv_find(&c, "calls"), 1);
	assert_int_equal(amd_csv_find(&c, "nope"), -1);
	assert_int_equal(next(&c, &err), 1);
	assert_string_equal(c.field[0], "aten::sum, dim");
	assert_string_equal(c.field[1], "12");
	assert_int_equal(c.line, 2);
	assert_int_equal(next(&c, &err), 1);
	assert_string_equal(c.field[0], "say \"hi\"");
	assert_string_equal(c.field[1], "");
	assert_int_equal(next(&c, &err), 1); /* no final newline */
	assert_string_equal(c.field[0], "plain");
	assert_int_equal(c.line, 4);
	assert_int_equal(next(&c, &err), 0);
	amd_csv_free(&c);
}

static void bom_left_to_the_text_layer(void **state)
{
	(void)state;
	/* The mark is dropped once, before any reader sees the bytes
	 * (amd_text_gzread, text16.c; hostile_values.sh ingests every text
	 * format with one): the tokenizer itself keeps every byte as data. */
	const char *s = "\xEF\xBB\xBF" "timestamp,x\n\xEF\xBB\xBF" "1,2\n";
	struct amd_csv c;
	struct amd_err err = {{0}};
	amd_csv_init(&c, "t.csv", s, strlen(s), 0);
	assert_int_equal(next(&c, &err), 1);
	assert_string_equal(c.field[0], "\xEF\xBB\xBF" "timestamp");
	assert_int_equal(c.line, 1);
	assert_int_equal(next(&c, &err), 1);
	assert_string_equal(c.field[0], "\xEF\xBB\xBF" "1");
	assert_int_equal(next(&c, &err), 0);
	amd_csv_free(&c);
}

static void value_units(void **state)
{
	(void)state;
	double v;
	char unit[8];
	assert_int_equal(amd_parse_value_unit("0.45 kW", &v, unit, sizeof unit), 0);
	assert_string_equal(unit, "kW");
	assert_true(v == 0.45);
	assert_int_equal(amd_parse_value_unit(" 12 ", &v, unit, sizeof unit), 0);
	assert_string_equal(unit, "");
	assert_int_equal(amd_parse_value_unit("3 Kilowatts", &v, unit, 4), 0);
	assert_string_equal(unit, "Kil"); /* truncated to the buffer */
	assert_int_equal(amd_parse_value_unit("[N/A]", &v, unit, sizeof unit), 0);
	assert_string_equal(unit, "");
	assert_int_equal(amd_parse_value_unit("x W", &v, unit, sizeof unit), -1);
}

/* Numbers before a unit read bit for bit as strtod reads them, on the
 * fast path's edges: 1 to 19 digits, up to 22 decimals, exponents, signs
 * and integers past 2^53 (strtod's own path). */
static void value_units_as_strtod(void **state)
{
	(void)state;
	srand(20261124);
	char num[64], text[80], unit[8];
	for (int i = 0; i < 200000; i++) {
		int whole = rand() % 12, frac = rand() % 24;
		size_t n = 0;
		if (rand() % 4 == 0)
			num[n++] = rand() % 2 ? '-' : '+';
		for (int k = 0; k < whole; k++)
			num[n++] = (char)('0' + rand() % 10);
		if (frac || !whole)
			num[n++] = '.';
		for (int k = 0; k < frac || (!whole && k == 0); k++)
			num[n++] = (char)('0' + rand() % 10);
		if (rand() % 5 == 0)
			n += (size_t)snprintf(num + n, sizeof num - n, "e%d", rand() % 61 - 30);
		num[n] = '\0';
		snprintf(text, sizeof text, "%s %s", num, rand() % 2 ? "W" : "MiB");
		double got, want = strtod(num, NULL);
		if (amd_parse_value_unit(text, &got, unit, sizeof unit) != 0 ||
		    memcmp(&got, &want, sizeof got) != 0)
			fail_msg("'%s': %.17g, strtod %.17g", text, got, want);
	}
}

static void newlines_in_quotes_and_crlf(void **state)
{
	(void)state;
	const char *s = "a,b\r\n\"two\nlines\",x\r\n\r\nlast,y\r\n";
	struct amd_csv c;
	struct amd_err err = {{0}};
	amd_csv_init(&c, "t.csv", s, strlen(s), 0);
	assert_int_equal(next(&c, &err), 1);
	assert_int_equal(next(&c, &err), 1);
	assert_string_equal(c.field[0], "two\nlines");
	assert_string_equal(c.field[1], "x");
	assert_int_equal(c.line, 2);
	assert_int_equal(next(&c, &err), 1); /* blank line skipped */
	assert_string_equal(c.field[0], "last");
	assert_int_equal(c.line, 5);
	assert_int_equal(next(&c, &err), 0);
	amd_csv_free(&c);
}

static void trimmed_fields(void **state)
{
	(void)state;
	/* nvidia-smi separates with ", " */
	const char *s = "timestamp, index, power.draw [W]\n2026/11/22 11:39:49.177, 0, 75.29 W \n";
	struct amd_csv c;
	struct amd_err err = {{0}};
	amd_csv_init(&c, "t.csv", s, strlen(s), 1);
	assert_int_equal(next(&c, &err), 1);
	assert_string_equal(c.field[2], "power.draw [W]");
	assert_int_equal(next(&c, &err), 1);
	assert_string_equal(c.field[0], "2026/11/22 11:39:49.177");
	assert_string_equal(c.field[1], "0");
	assert_string_equal(c.field[2], "75.29 W");
	amd_csv_free(&c);
}

static void errors_name_file_and_line(void **state)
{
	(void)state;
	const char *s = "a,b\n1,2\n\"open,3\n4,5\n";
	struct amd_csv c;
	struct amd_err err = {{0}};
	amd_csv_init(&c, "bad.csv", s, strlen(s), 0);
	assert_int_equal(next(&c, &err), 1);
	assert_int_equal(next(&c, &err), 1);
	assert_int_equal(next(&c, &err), -1);
	assert_string_equal(err.msg, "bad.csv: line 3: unterminated quoted field");
	amd_csv_free(&c);

	const char *t = "a,b\n\"x\"y,2\n";
	amd_csv_init(&c, "bad.csv", t, strlen(t), 0);
	assert_int_equal(next(&c, &err), 1);
	assert_int_equal(next(&c, &err), -1);
	assert_string_equal(err.msg, "bad.csv: line 2: text after a closing quote");
	amd_csv_free(&c);

	const char nul[] = "a,b\n1,\0\n";
	amd_csv_init(&c, "nul.csv", nul, sizeof nul - 1, 0);
	assert_int_equal(next(&c, &err), 1);
	assert_int_equal(next(&c, &err), -1);
	assert_string_equal(err.msg, "nul.csv: line 2: a NUL byte");
	amd_csv_free(&c);
}

/* The record limit holds for unquoted fields copied in stretches as it
 * did byte by byte: the text grows by doubling to AMD_CSV_RECORD_MAX, so
 * a record of max - 2 bytes is read whole and one of max bytes refused. */
static void record_limit(void **state)
{
	(void)state;
	size_t max = AMD_CSV_RECORD_MAX;
	char *s = malloc(max + 2);
	assert_non_null(s);
	memset(s, 'x', max + 1);
	s[max + 1] = '\n';
	struct amd_csv c;
	struct amd_err err = {{0}};
	s[max - 2] = '\n'; /* "x" * (max - 2), then the rest on line 2 */
	amd_csv_init(&c, "big.csv", s, max + 2, 0);
	assert_int_equal(next(&c, &err), 1);
	assert_int_equal(c.n, 1);
	assert_int_equal(strlen(c.field[0]), max - 2);
	amd_csv_free(&c);
	s[max - 2] = 'x';
	amd_csv_init(&c, "big.csv", s, max + 2, 0);
	assert_int_equal(next(&c, &err), -1);
	assert_string_equal(err.msg, "big.csv: line 1: a record longer than 67108864 bytes"
				     " (or out of memory)");
	amd_csv_free(&c);
	free(s);
}

static void unit_numbers(void **state)
{
	(void)state;
	double v;
	assert_int_equal(amd_parse_unit_double("75.29 W", &v), 0);
	assert_true(v == 75.29);
	assert_int_equal(amd_parse_unit_double(" 0 %", &v), 0);
	assert_true(v == 0);
	assert_int_equal(amd_parse_unit_double("81559 MiB", &v), 0);
	assert_true(v == 81559);
	assert_int_equal(amd_parse_unit_double("37", &v), 0);
	assert_true(v == 37);
	assert_int_equal(amd_parse_unit_double("-1.5e2", &v), 0);
	assert_true(v == -150);
	assert_int_equal(amd_parse_unit_double("12.5 MB/s", &v), 0);
	assert_true(v == 12.5);
	assert_int_equal(amd_parse_unit_double("100%", &v), 0);
	assert_true(v == 100);
	assert_int_equal(amd_parse_unit_double("[N/A]", &v), 0);
	assert_true(isnan(v));
	assert_int_equal(amd_parse_unit_double("[Not Supported]", &v), 0);
	assert_true(isnan(v));
	assert_int_equal(amd_parse_unit_double("N/A ", &v), 0);
	assert_true(isnan(v));
}

static void unit_numbers_rejected(void **state)
{
	(void)state;
	double v = 7;
	const char *bad[] = {"", "  ", "W", "abc W", "nan", "inf W", "0x10", "1.5 W 3",
			     "75,29 W", "1e999", "12 [W]", "- 3"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (amd_parse_unit_double(bad[i], &v) != -1)
			fail_msg("accepted '%s'", bad[i]);
	assert_true(v == 7); /* untouched on failure */
}

static void error_kept_on_one_line(void **state)
{
	(void)state;
	struct amd_err err = {{0}};
	snprintf(err.msg, sizeof err.msg, "f.csv: line 2: '%s' is not a number", "75\n\tW\r");
	assert_int_equal(amd_err_one_line(&err), -1);
	assert_string_equal(err.msg, "f.csv: line 2: '75??W?' is not a number");
}

/* Records cross the reader's 256 KB window at every place: quoted fields
 * with commas, doubled quotes and newlines; plain and gzipped. */
static void streamed_file(int gzipped)
{
	char path[] = "/tmp/amdahl-test-csv-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	gzFile gz = gzopen(path, gzipped ? "wb" : "wbT");
	assert_non_null(gz);
	const int rows = 40000;
	gzprintf(gz, "id,text,n\n");
	for (int i = 0; i < rows; i++)
		gzprintf(gz, "%d,\"op, \"\"%d\"\"\nnext\",%d\r\n", i, i, i * 7);
	gzclose(gz);
	struct amd_csv c;
	struct amd_err err = {{0}};
	assert_int_equal(amd_csv_open(&c, path, 0, &err), 0);
	assert_int_equal(amd_csv_next(&c, &err), 1);
	assert_int_equal(c.n, 3);
	for (int i = 0; i < rows; i++) {
		char want[64], num[32];
		assert_int_equal(amd_csv_next(&c, &err), 1);
		assert_int_equal(c.n, 3);
		snprintf(want, sizeof want, "op, \"%d\"\nnext", i);
		assert_string_equal(c.field[1], want);
		snprintf(num, sizeof num, "%d", i * 7);
		assert_string_equal(c.field[2], num);
		assert_int_equal(c.line, 2 + 2 * i);
	}
	assert_int_equal(amd_csv_next(&c, &err), 0);
	amd_csv_free(&c);
	unlink(path);
}

static void streamed_plain(void **state)
{
	(void)state;
	streamed_file(0);
}

static void streamed_gzip(void **state)
{
	(void)state;
	streamed_file(1);
}

/* Unquoted fields of every length from 0 to 3000 bytes, copied a window
 * stretch at a time: each crosses the 256 KB window somewhere, and comes
 * back whole; a NUL inside one is refused with its line. */
static void streamed_long_plain_fields(void **state)
{
	(void)state;
	char path[] = "/tmp/amdahl-test-csv-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	const int rows = 3001;
	for (int i = 0; i < rows; i++) {
		for (int k = 0; k < i; k++)
			fputc('a' + (i + k) % 26, f);
		fprintf(f, ",%d\n", i);
	}
	fwrite("x\0y,1\n", 1, 6, f); /* a NUL byte on line rows + 1 */
	fclose(f);
	struct amd_csv c;
	struct amd_err err = {{0}};
	assert_int_equal(amd_csv_open(&c, path, 0, &err), 0);
	for (int i = 0; i < rows; i++) {
		char num[32];
		assert_int_equal(amd_csv_next(&c, &err), 1);
		assert_int_equal(c.n, 2);
		assert_int_equal(strlen(c.field[0]), (size_t)i);
		for (int k = 0; k < i; k++)
			assert_int_equal(c.field[0][k], 'a' + (i + k) % 26);
		snprintf(num, sizeof num, "%d", i);
		assert_string_equal(c.field[1], num);
	}
	assert_int_equal(amd_csv_next(&c, &err), -1);
	char want[64];
	snprintf(want, sizeof want, "line %d: a NUL byte", rows + 1);
	assert_non_null(strstr(err.msg, want));
	amd_csv_free(&c);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quoted_fields),
		cmocka_unit_test(bom_left_to_the_text_layer),
		cmocka_unit_test(value_units),
		cmocka_unit_test(value_units_as_strtod),
		cmocka_unit_test(newlines_in_quotes_and_crlf),
		cmocka_unit_test(trimmed_fields),
		cmocka_unit_test(errors_name_file_and_line),
		cmocka_unit_test(record_limit),
		cmocka_unit_test(unit_numbers),
		cmocka_unit_test(unit_numbers_rejected),
		cmocka_unit_test(error_kept_on_one_line),
		cmocka_unit_test(streamed_plain),
		cmocka_unit_test(streamed_gzip),
		cmocka_unit_test(streamed_long_plain_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
