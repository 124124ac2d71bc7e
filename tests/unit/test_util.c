/* test_util.c — lib/core (num, hash, file, buf): strict number parsing, decimal
 * appends against snprintf, SHA-256 against the
 * sha256sum tool, whole-file and line reads with gzip (including
 * truncated gzip), and the limits they enforce. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "buf.h"
#include "file.h"
#include "hash.h"
#include "num.h"

static char dir[64];

static char *tmp_path(const char *name)
{
	return amd_path_join(dir, name);
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

static void write_gzip(const char *path, const char *text)
{
	gzFile g = gzopen(path, "wb");
	assert_non_null(g);
	assert_int_equal(gzwrite(g, text, (unsigned)strlen(text)), (int)strlen(text));
	assert_int_equal(gzclose(g), Z_OK);
}

static void parse_double_accepts(void **state)
{
	double v;
	assert_int_equal(amd_parse_double("1.5", &v), 0);
	assert_true(v == 1.5);
	assert_int_equal(amd_parse_double("  -2.25e3 \n", &v), 0);
	assert_true(v == -2250.0);
	assert_int_equal(amd_parse_double("nan", &v), 0);
	assert_true(isnan(v));
	assert_int_equal(amd_parse_double("-inf", &v), 0);
	assert_true(isinf(v) && v < 0);
	assert_int_equal(amd_parse_double("1e-310", &v), 0); /* subnormal, not an error */
	assert_true(v > 0 && v < 1e-300);
}

static void parse_double_rejects(void **state)
{
	double v = 7;
	const char *bad[] = {"", "   ", "abc", "1.5x", "1 2", "--1", "1,5", "."};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(amd_parse_double(bad[i], &v), -1);
	assert_true(v == 7); /* untouched on failure */
}

static void parse_int64_bounds(void **state)
{
	int64_t v;
	assert_int_equal(amd_parse_int64("42", &v), 0);
	assert_true(v == 42);
	assert_int_equal(amd_parse_int64("-9223372036854775808", &v), 0);
	assert_true(v == INT64_MIN);
	assert_int_equal(amd_parse_int64("9223372036854775807", &v), 0);
	assert_true(v == INT64_MAX);
	assert_int_equal(amd_parse_int64("9223372036854775808", &v), -1);
	assert_int_equal(amd_parse_int64("1.0", &v), -1);
	assert_int_equal(amd_parse_int64("12abc", &v), -1);
	assert_int_equal(amd_parse_int64("", &v), -1);
}

/* the digest of a file, as the sha256sum tool computes it */
static void sha256sum(const char *path, char out[65])
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "sha256sum '%s'", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(out, 65, p));
	pclose(p);
	out[64] = '\0';
}

static void sha256_matches_sha256sum(void **state)
{
	static const char *const texts[] = {"abc", "", "amdahl\nstrong scaling\n"};
	char *path = tmp_path("sha.txt");
	for (size_t i = 0; i < 3; i++) {
		write_file(path, texts[i], strlen(texts[i]));
		char hex[65], want[65];
		uint64_t size = 99;
		struct amd_err err = {{0}};
		assert_int_equal(amd_sha256_file(path, hex, &size, &err), 0);
		sha256sum(path, want);
		assert_string_equal(hex, want);
		assert_true(size == strlen(texts[i]));
	}
	/* and the published digest of "abc" (FIPS 180-2) */
	write_file(path, "abc", 3);
	char hex[65];
	struct amd_err err = {{0}};
	assert_int_equal(amd_sha256_file(path, hex, NULL, &err), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	free(path);
}

static void read_file_plain_and_gzip(void **state)
{
	const char *text = "1700000000000 0.5 1\n1700000000001 0.25 2\n";
	char *plain = tmp_path("m.txt"), *gz = tmp_path("m.gz");
	write_file(plain, text, strlen(text));
	write_gzip(gz, text);
	struct amd_buf b = {0};
	struct amd_err err = {{0}};
	assert_int_equal(amd_read_file(plain, 1 << 20, &b, &err), 0);
	assert_string_equal(b.data, text);
	assert_int_equal(amd_read_file(gz, 1 << 20, &b, &err), 0);
	assert_string_equal(b.data, text);
	assert_int_equal(b.len, strlen(text));
	amd_buf_free(&b);
	/* over the limit: an error naming the file and the limit, nothing to free */
	assert_int_equal(amd_read_file(gz, 10, &b, &err), -1);
	assert_non_null(strstr(err.msg, gz));
	assert_non_null(strstr(err.msg, "limit of 10 bytes once decompressed"));
	assert_null(b.data);
	free(plain);
	free(gz);
}

/* Plain files of sizes about the read's steps (0, a byte, 4 KiB, 1 MiB)
 * read whole; a file's buffer is its size and a byte or two, not the
 * 1 MiB step (a 10-byte MLflow param read through 1 MiB cost an mmap and
 * a munmap, and under ASan the clearing of its shadow). */
static void read_file_sizes(void **state)
{
	const size_t sizes[] = {0, 1, 10, 4095, 4096, 4097, (1u << 20) - 1, 1u << 20,
				(1u << 20) + 1, (3u << 20) + 7};
	char *path = tmp_path("sized.txt");
	char *text = malloc((3u << 20) + 8);
	assert_non_null(text);
	for (size_t i = 0; i < (3u << 20) + 7; i++)
		text[i] = (char)('a' + (i * 7919) % 26);
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		write_file(path, text, sizes[k]);
		struct amd_buf b = {0};
		struct amd_err err = {{0}};
		assert_int_equal(amd_read_file(path, 4u << 20, &b, &err), 0);
		assert_true(b.len == sizes[k]);
		assert_true(b.data[b.len] == '\0');
		assert_memory_equal(b.data, text, sizes[k]);
		if (sizes[k] > 0)
			assert_true(b.cap <= sizes[k] + 2);
		amd_buf_free(&b);
	}
	free(text);
	free(path);
}

/* UTF-16 text read as UTF-8 grows by half (a CJK character: 2 bytes in,
 * 3 out), past the buffer sized for the file: every character arrives
 * whole, whatever room the buffer has left when the file's size runs out. */
static void read_file_utf16_grows(void **state)
{
	char *path = tmp_path("u16.txt");
	for (size_t n = 1; n <= 40; n++) {
		unsigned char *in = malloc(2 + 2 * n);
		char *want = malloc(3 * n + 1);
		assert_true(in && want);
		in[0] = 0xff, in[1] = 0xfe; /* UTF-16LE's byte order mark */
		for (size_t i = 0; i < n; i++) {
			unsigned cp = 0x4e00 + (unsigned)(i * 37 % 2000);
			in[2 + 2 * i] = (unsigned char)(cp & 0xff);
			in[3 + 2 * i] = (unsigned char)(cp >> 8);
			want[3 * i] = (char)(0xe0 | (cp >> 12));
			want[3 * i + 1] = (char)(0x80 | ((cp >> 6) & 0x3f));
			want[3 * i + 2] = (char)(0x80 | (cp & 0x3f));
		}
		write_file(path, in, 2 + 2 * n);
		struct amd_buf b = {0};
		struct amd_err err = {{0}};
		assert_int_equal(amd_read_file(path, 1u << 20, &b, &err), 0);
		assert_true(b.len == 3 * n);
		assert_memory_equal(b.data, want, 3 * n);
		amd_buf_free(&b);
		free(in);
		free(want);
	}
	free(path);
}

/* A stream read in slices of n bytes, concatenated; -1 with err. */
static long stream_all(const char *path, size_t max, size_t n, struct amd_buf *out,
		       struct amd_err *err)
{
	struct amd_stream *s = amd_stream_open(path, max, err);
	char *slice = malloc(n);
	long got = s && slice ? 1 : -1;
	out->len = 0;
	while (got > 0 && (got = amd_stream_read(s, slice, n, err)) > 0)
		assert_int_equal(amd_buf_append(out, slice, (size_t)got), 0);
	free(slice);
	amd_stream_close(s);
	return got;
}

/* The stream reader gives the bytes written (plain, gzipped, UTF-16 as
 * UTF-8) in any slice size, and refuses what amd_read_file refuses with
 * the same message: over the limit, a gzip stream cut short. */
static void stream_reads_as_read_file(void **state)
{
	size_t len = (3u << 20) + 7; /* more than a slice, not a whole number of them */
	char *text = malloc(len + 1);
	assert_non_null(text);
	for (size_t i = 0; i < len; i++)
		text[i] = (char)('a' + (i * 7919) % 26);
	text[len] = '\0';
	char *plain = tmp_path("s.txt"), *gz = tmp_path("s.gz"), *u16 = tmp_path("s16.txt");
	write_file(plain, text, len);
	write_gzip(gz, text);
	unsigned char *wide = malloc(2 + 2 * len);
	assert_non_null(wide);
	wide[0] = 0xff, wide[1] = 0xfe; /* UTF-16LE's byte order mark, ASCII after it */
	for (size_t i = 0; i < len; i++)
		wide[2 + 2 * i] = (unsigned char)text[i], wide[3 + 2 * i] = 0;
	write_file(u16, wide, 2 + 2 * len);
	free(wide);
	const size_t slices[] = {AMD_STREAM_SLICE_MIN, AMD_STREAM_SLICE_MIN + 1, 1u << 20};
	const char *paths[] = {plain, gz, u16};
	struct amd_buf b = {0};
	struct amd_err err = {{0}}, want = {{0}};
	for (size_t p = 0; p < 3; p++)
		for (size_t k = 0; k < sizeof slices / sizeof slices[0]; k++) {
			assert_int_equal(stream_all(paths[p], 8 << 20, slices[k], &b, &err), 0);
			assert_int_equal(b.len, len);
			assert_memory_equal(b.data, text, b.len);
		}
	for (size_t p = 0; p < 3; p++) { /* over the limit: amd_read_file's words */
		assert_int_equal(stream_all(paths[p], 1000, 1u << 20, &b, &err), -1);
		struct amd_buf whole = {0};
		assert_int_equal(amd_read_file(paths[p], 1000, &whole, &want), -1);
		assert_string_equal(err.msg, want.msg);
	}
	struct stat st;
	assert_int_equal(stat(gz, &st), 0);
	assert_int_equal(truncate(gz, st.st_size / 2), 0);
	assert_int_equal(stream_all(gz, 8 << 20, AMD_STREAM_SLICE_MIN, &b, &err), -1);
	struct amd_buf whole = {0};
	assert_int_equal(amd_read_file(gz, 8 << 20, &whole, &want), -1);
	assert_string_equal(err.msg, want.msg);
	assert_non_null(strstr(err.msg, "truncated gzip data"));
	/* a slice under the least is refused, not read short */
	assert_int_equal(stream_all(plain, 8 << 20, 4096, &b, &err), -1);
	assert_non_null(strstr(err.msg, "a read of 4096 bytes"));
	amd_buf_free(&b);
	free(text);
	free(plain);
	free(gz);
	free(u16);
}

static void read_file_truncated_gzip(void **state)
{
	char *gz = tmp_path("t.gz");
	char text[20000];
	for (size_t i = 0; i < sizeof text - 1; i++)
		text[i] = (char)('a' + (i * 7919) % 26);
	text[sizeof text - 1] = '\0';
	write_gzip(gz, text);
	struct stat st;
	assert_int_equal(stat(gz, &st), 0);
	assert_int_equal(truncate(gz, st.st_size / 2), 0);
	struct amd_buf b = {0};
	struct amd_err err = {{0}};
	assert_int_equal(amd_read_file(gz, 1 << 20, &b, &err), -1);
	assert_non_null(strstr(err.msg, gz));
	assert_non_null(strstr(err.msg, "truncated gzip data"));
	assert_null(b.data);
	/* the line reader sees the same truncation */
	struct amd_lines *l = amd_lines_open(gz, 1 << 16, 1 << 20, &err);
	assert_non_null(l);
	char *line;
	size_t len;
	int rc;
	while ((rc = amd_lines_next(l, &line, &len, &err)) == 1)
		;
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err.msg, "truncated gzip data"));
	amd_lines_close(l);
	free(gz);
}

static void read_refuses_fifo(void **state)
{
	char *fifo = tmp_path("pipe");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	struct amd_buf b = {0};
	struct amd_err err = {{0}};
	assert_int_equal(amd_read_file(fifo, 100, &b, &err), -1); /* and does not block */
	assert_non_null(strstr(err.msg, "not a regular file"));
	char hex[65];
	assert_int_equal(amd_sha256_file(fifo, hex, NULL, &err), -1);
	assert_non_null(strstr(err.msg, fifo));
	free(fifo);
}

static void lines_limits(void **state)
{
	char *path = tmp_path("lines.txt");
	const char *text = "a b\n\nccc\nlast";
	write_file(path, text, strlen(text));
	struct amd_err err = {{0}};
	struct amd_lines *l = amd_lines_open(path, 16, 1000, &err);
	assert_non_null(l);
	char *line;
	size_t len;
	const char *want[] = {"a b", "", "ccc", "last"};
	for (int i = 0; i < 4; i++) {
		assert_int_equal(amd_lines_next(l, &line, &len, &err), 1);
		assert_string_equal(line, want[i]);
		assert_int_equal(amd_lines_number(l), i + 1);
	}
	assert_int_equal(amd_lines_next(l, &line, &len, &err), 0);
	amd_lines_close(l);

	char longl[100];
	memset(longl, 'x', sizeof longl);
	memcpy(longl, "ok\n", 3);
	write_file(path, longl, sizeof longl);
	l = amd_lines_open(path, 16, 1000, &err);
	assert_int_equal(amd_lines_next(l, &line, &len, &err), 1);
	assert_int_equal(amd_lines_next(l, &line, &len, &err), -1);
	assert_non_null(strstr(err.msg, "line 2: longer than the limit of 16 bytes"));
	amd_lines_close(l);

	l = amd_lines_open(path, 200, 50, &err); /* total size limit */
	assert_int_equal(amd_lines_next(l, &line, &len, &err), -1);
	assert_non_null(strstr(err.msg, "larger than the limit of 50 bytes"));
	amd_lines_close(l);
	free(path);
}

static void paths(void **state)
{
	char *p = amd_path_join("a/b//", "c");
	assert_string_equal(p, "a/b/c");
	free(p);
	assert_string_equal(amd_basename("/x/y/z.json"), "z.json");
	assert_string_equal(amd_basename("z"), "z");
}

/* amd_buf_append_int appends what snprintf's "%lld" writes, at the
 * ends of the range, around powers of ten and on pseudo-random values,
 * one after another into one buffer. */
static void append_int_is_printf(void **state)
{
	(void)state;
	long long v[64 + 2 * 19 + 2] = {0, LLONG_MIN, LLONG_MAX, -1};
	size_t n = 4;
	long long p = 1;
	for (int i = 0; i < 18; i++, p *= 10) {
		v[n++] = p;
		v[n++] = -p - 1;
	}
	unsigned long long x = 0x9E3779B97F4A7C15ull;
	while (n < sizeof v / sizeof *v) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		v[n++] = (long long)(x >> (x & 63));
	}
	struct amd_buf b = {0};
	char want[32 * (sizeof v / sizeof *v)];
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(amd_buf_append_int(&b, v[i]), 0);
		len += (size_t)snprintf(want + len, sizeof want - len, "%lld", v[i]);
	}
	assert_int_equal(b.len, len);
	assert_memory_equal(b.data, want, len);
	amd_buf_free(&b);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/amdahl-test-util-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_double_accepts),
		cmocka_unit_test(parse_double_rejects),
		cmocka_unit_test(parse_int64_bounds),
		cmocka_unit_test(sha256_matches_sha256sum),
		cmocka_unit_test(read_file_plain_and_gzip),
		cmocka_unit_test(read_file_sizes),
		cmocka_unit_test(read_file_utf16_grows),
		cmocka_unit_test(read_file_truncated_gzip),
		cmocka_unit_test(stream_reads_as_read_file),
		cmocka_unit_test(read_refuses_fifo),
		cmocka_unit_test(lines_limits),
		cmocka_unit_test(paths),
		cmocka_unit_test(append_int_is_printf),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return rc;
}
