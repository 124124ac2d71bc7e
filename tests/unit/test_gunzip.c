/* test_gunzip.c — lib/core/gunzip.c: ISA-L's inflate against zlib's
 * gzread (the reference) on a real H100 trace, read with buffers from 7
 * bytes to 1 MiB; concatenated members and trailing bytes; a truncated
 * file, a wrong CRC, a plain and an empty file; and the zlib fallback
 * (AMDAHL_GUNZIP=zlib) giving the same bytes and codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "buf.h"
#include "file.h"
#include "gunzip.h"

#define REAL_TRACE "testdata/gpu-batch-sweep/mlruns/1/4f693a5b95314925a54889959cfdcab9/" \
		   "artifacts/traces/rank0.1795347653451003089.pt.trace.json.gz"

static char dir[64];

struct bytes {
	unsigned char *p;
	size_t n, cap;
};

/* Appends k bytes to b (amd_buf: grows geometrically). */
static void append(struct bytes *b, const unsigned char *p, size_t k)
{
	struct amd_buf a = {(char *)b->p, b->n, b->cap};
	assert_int_equal(amd_buf_append(&a, p, k), 0);
	b->p = (unsigned char *)a.data;
	b->n = a.len;
	b->cap = a.cap;
}

/* zlib's reading of path, the reference. */
static struct bytes zlib_read_all(const char *path)
{
	struct bytes b = {0};
	gzFile g = gzopen(path, "rb");
	assert_non_null(g);
	unsigned char buf[65536];
	int k;
	while ((k = gzread(g, buf, sizeof buf)) > 0) {
		append(&b, buf, (size_t)k);
	}
	gzclose(g);
	return b;
}

/* amd_gunzip's reading of path with reads of cap bytes; *code its status. */
static struct bytes gunzip_read_all(const char *path, size_t cap, int *code)
{
	struct bytes b = {0};
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	struct amd_gunzip *g;
	assert_int_equal(amd_gunzip_open(fd, &g), 0);
	unsigned char *buf = malloc(cap);
	assert_non_null(buf);
	long k;
	while ((k = amd_gunzip_read(g, buf, cap)) > 0) {
		append(&b, buf, (size_t)k);
	}
	const char *msg;
	long long off;
	*code = amd_gunzip_status(g, &msg, &off);
	assert_true(off >= 0);
	amd_gunzip_close(g);
	free(buf);
	return b;
}

static struct bytes file_bytes(const char *path)
{
	struct bytes b = {0};
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	b.n = (size_t)ftell(f);
	rewind(f);
	b.p = malloc(b.n + 1);
	assert_non_null(b.p);
	assert_int_equal(fread(b.p, 1, b.n, f), b.n);
	fclose(f);
	return b;
}

static char *write_tmp(const char *name, const void *p, size_t n)
{
	char *path = amd_path_join(dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
	return path;
}

/* gunzip_read_all through ISA-L, or through the zlib fallback. */
static struct bytes read_with(const char *path, size_t cap, int fallback, int *code)
{
	if (fallback)
		setenv("AMDAHL_GUNZIP", "zlib", 1);
	struct bytes got = gunzip_read_all(path, cap, code);
	unsetenv("AMDAHL_GUNZIP");
	return got;
}

/* The same bytes and code from ISA-L (reads of cap) and from the zlib
 * fallback. */
static void assert_both(const char *path, const struct bytes *want, size_t cap, int want_code)
{
	for (int fallback = 0; fallback < 2; fallback++) {
		int code;
		struct bytes got = read_with(path, cap, fallback, &code);
		assert_int_equal(code, want_code);
		assert_int_equal(got.n, want->n);
		assert_memory_equal(got.p, want->p, want->n);
		free(got.p);
	}
}

static void real_trace_any_read_size(void **state)
{
	struct bytes want = zlib_read_all(REAL_TRACE);
	assert_true(want.n > 1000000);
	size_t caps[] = {1u << 20, 65536, 4097, 7};
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		int code;
		struct bytes got = gunzip_read_all(REAL_TRACE, caps[i], &code);
		assert_int_equal(code, Z_OK);
		assert_int_equal(got.n, want.n);
		assert_memory_equal(got.p, want.p, want.n);
		free(got.p);
	}
	assert_both(REAL_TRACE, &want, 1u << 20, Z_OK);
	free(want.p);
}

static void members_and_trailing_bytes(void **state)
{
	struct bytes gz = file_bytes(REAL_TRACE), one = zlib_read_all(REAL_TRACE);
	size_t n = 2 * gz.n + 5;
	unsigned char *two = malloc(n);
	assert_non_null(two);
	memcpy(two, gz.p, gz.n);
	memcpy(two + gz.n, gz.p, gz.n);
	memcpy(two + 2 * gz.n, "junk\n", 5); /* ignored, as gzread does */
	char *path = write_tmp("two.json.gz", two, n);
	struct bytes want = {malloc(2 * one.n), 2 * one.n, 2 * one.n};
	assert_non_null(want.p);
	memcpy(want.p, one.p, one.n);
	memcpy(want.p + one.n, one.p, one.n);
	assert_both(path, &want, 1u << 20, Z_OK);
	assert_both(path, &want, 777, Z_OK);
	free(path);
	free(two);
	free(want.p);
	free(one.p);
	free(gz.p);
}

static void truncated_is_buf_error(void **state)
{
	struct bytes gz = file_bytes(REAL_TRACE), all = zlib_read_all(REAL_TRACE);
	char *path = write_tmp("cut.json.gz", gz.p, gz.n / 2);
	for (int fallback = 0; fallback < 2; fallback++) {
		int code;
		struct bytes got = read_with(path, 1u << 20, fallback, &code);
		assert_int_equal(code, Z_BUF_ERROR);
		assert_true(got.n > 0 && got.n < all.n); /* a prefix of the data */
		assert_memory_equal(got.p, all.p, got.n);
		free(got.p);
	}
	free(path);
	free(gz.p);
	free(all.p);
}

static void wrong_crc_is_data_error(void **state)
{
	struct bytes gz = file_bytes(REAL_TRACE);
	gz.p[gz.n - 8] ^= 0x55; /* the trailer's CRC-32 */
	char *path = write_tmp("crc.json.gz", gz.p, gz.n);
	for (int fallback = 0; fallback < 2; fallback++) {
		int code;
		struct bytes got = read_with(path, 1u << 20, fallback, &code);
		assert_int_equal(code, Z_DATA_ERROR);
		free(got.p);
	}
	free(path);
	free(gz.p);
}

static void plain_and_empty_pass_through(void **state)
{
	struct bytes plain = zlib_read_all(REAL_TRACE);
	char *path = write_tmp("plain.json", plain.p, plain.n);
	assert_both(path, &plain, 4097, Z_OK);
	free(path);
	struct bytes none = {plain.p, 0, 0};
	path = write_tmp("empty.json", "", 0);
	assert_both(path, &none, 4097, Z_OK);
	free(path);
	path = write_tmp("magic-only.gz", "\x1f", 1); /* one byte: not gzip */
	struct bytes one = {(unsigned char *)"\x1f", 1, 1};
	assert_both(path, &one, 4097, Z_OK);
	free(path);
	free(plain.p);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/amdahl-gunzip.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_trace_any_read_size),
		cmocka_unit_test(members_and_trailing_bytes),
		cmocka_unit_test(truncated_is_buf_error),
		cmocka_unit_test(wrong_crc_is_data_error),
		cmocka_unit_test(plain_and_empty_pass_through),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
