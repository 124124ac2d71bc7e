/* tfrecord.c — TFRecord framing (see tfrecord.h): streamed through zlib
 * (which reads plain files as they are), the data buffer growing as
 * bytes arrive, so a length field claiming gigabytes costs nothing
 * until the bytes are there. */
#include "tfrecord.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <isa-l/crc.h>
#include <zlib.h>

#include "buf.h"
#include "file.h"

#define CHUNK (1u << 20)

struct amd_tfrecord {
	char *path;
	gzFile gz;
	unsigned char *buf;
	size_t cap;
	uint64_t offset, count;
	int torn; /* the file ended inside the record at offset */
};

uint32_t amd_tfrecord_masked_crc(const unsigned char *p, size_t n)
{
	uint32_t crc = 0xFFFFFFFFu;
	/* crc32_iscsi takes an int length: long buffers go in pieces */
	while (n > 0) {
		int part = n > (1u << 30) ? 1 << 30 : (int)n;
		crc = crc32_iscsi((unsigned char *)p, part, crc);
		p += part;
		n -= (size_t)part;
	}
	crc ^= 0xFFFFFFFFu; /* CRC32C as TensorFlow computes it */
	return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int amd_tfrecord_head_ok(const unsigned char *head, size_t n)
{
	return n >= 12 && amd_tfrecord_masked_crc(head, 8) == le32(head + 8);
}

struct amd_tfrecord *amd_tfrecord_open(const char *path, struct amd_err *err)
{
	struct amd_tfrecord *r = calloc(1, sizeof *r);
	if (!r || !(r->path = strdup(path))) {
		free(r);
		amd_fail(err, "%s: out of memory", path);
		return NULL;
	}
	int fd = amd_open_regular(path, err);
	if (fd >= 0 && !(r->gz = gzdopen(fd, "rb"))) {
		close(fd);
		amd_fail(err, "%s: cannot open", path);
	}
	if (!r->gz) {
		amd_tfrecord_close(r);
		return NULL;
	}
	return r;
}

/* Reads exactly n bytes at p: 1 done, 0 end of file before any byte of
 * a header, or inside a record (r->torn set), -1 an error (err names it). */
static int read_exact(struct amd_tfrecord *r, unsigned char *p, size_t n, const char *what,
		      struct amd_err *err)
{
	size_t got = 0;
	while (got < n) {
		unsigned want = n - got > CHUNK ? CHUNK : (unsigned)(n - got);
		int k = gzread(r->gz, p + got, want);
		if (k < 0) {
			int zerr;
			const char *m = gzerror(r->gz, &zerr);
			return amd_fail(err, "%s: byte %llu: %s", r->path,
					(unsigned long long)(r->offset + got), m);
		}
		if (k == 0) {
			r->torn = got > 0 || strcmp(what, "header") != 0;
			return 0;
		}
		got += (size_t)k;
	}
	return 1;
}

/* The record's data into r->buf, growing it as the bytes arrive: 1, 0
 * when the file ends inside it (torn), -1 on an error. */
static int read_data(struct amd_tfrecord *r, uint64_t len, struct amd_err *err)
{
	uint64_t got = 0;
	while (got < len || r->cap == 0) {
		size_t part = len - got > CHUNK ? CHUNK : (size_t)(len - got);
		if (amd_grow_to(&r->buf, (size_t)(got + part + 1), &r->cap, 1, 4096) < 0)
			return amd_fail(err, "%s: out of memory", r->path);
		int rc = part ? read_exact(r, r->buf + got, part, "data", err) : 1;
		if (rc < 1)
			return rc;
		got += part;
	}
	return 1;
}

int amd_tfrecord_next(struct amd_tfrecord *r, const unsigned char **data, size_t *len,
		      uint64_t *offset, struct amd_err *err)
{
	unsigned char h[12], c[4];
	int rc = read_exact(r, h, sizeof h, "header", err);
	if (rc <= 0)
		return rc;
	uint64_t n = le64(h);
	unsigned long long rec = (unsigned long long)r->count + 1,
			   at = (unsigned long long)r->offset;
	if (amd_tfrecord_masked_crc(h, 8) != le32(h + 8))
		return amd_fail(err, "%s: record %llu (byte %llu): length CRC mismatch", r->path,
				rec, at);
	if (n > AMD_TFRECORD_MAX)
		return amd_fail(err, "%s: record %llu (byte %llu): %llu bytes, over the limit of %u",
				r->path, rec, at, (unsigned long long)n, AMD_TFRECORD_MAX);
	if ((rc = read_data(r, n, err)) < 1 || (rc = read_exact(r, c, 4, "data CRC", err)) < 1)
		return rc;
	if (amd_tfrecord_masked_crc(r->buf, (size_t)n) != le32(c))
		return amd_fail(err, "%s: record %llu (byte %llu): data CRC mismatch", r->path,
				rec, at);
	*data = r->buf;
	*len = (size_t)n;
	*offset = r->offset;
	r->offset += 16 + n;
	r->count++;
	return 1;
}

int amd_tfrecord_torn(const struct amd_tfrecord *r, uint64_t *offset)
{
	*offset = r->offset;
	return r->torn;
}

uint64_t amd_tfrecord_count(const struct amd_tfrecord *r)
{
	return r->count;
}

void amd_tfrecord_close(struct amd_tfrecord *r)
{
	if (!r)
		return;
	if (r->gz)
		gzclose(r->gz);
	free(r->buf);
	free(r->path);
	free(r);
}
