/* text16.c — the one encoding detection of every text reader (see
 * text16.h): the sniff of a stream's first bytes — a UTF-8 byte-order
 * mark skipped, UTF-16 converted with iconv from UTF-16LE/BE, the raw
 * bytes read from zlib in pieces with a partial character carried to
 * the next piece. */
#include "text16.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#define RAW_CAP (1u << 16)
#define SNIFF 64 /* bytes of the NUL pattern checked without a BOM */

struct amd_text16 {
	iconv_t cd;
	unsigned char raw[RAW_CAP];
	size_t len;     /* raw[0..len) not yet converted */
	uint64_t at;    /* the file's byte offset of raw[0] */
	int eof;
};

int amd_text_sniff(const unsigned char *p, size_t n, size_t *bom)
{
	*bom = 0;
	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		return *bom = 3, '8';
	if (n >= 2 && p[0] == 0xFF && p[1] == 0xFE && !(n >= 4 && p[2] == 0 && p[3] == 0))
		return *bom = 2, 'L'; /* (FF FE 00 00 would be UTF-32) */
	if (n >= 2 && p[0] == 0xFE && p[1] == 0xFF)
		return *bom = 2, 'B';
	size_t m = (n < SNIFF ? n : SNIFF) & ~(size_t)1;
	if (m < 8)
		return 0;
	int le = 1, be = 1;
	for (size_t i = 0; i < m; i += 2) {
		le &= p[i] != 0 && p[i + 1] == 0;
		be &= p[i] == 0 && p[i + 1] != 0;
	}
	return le ? 'L' : be ? 'B' : 0;
}

/* Starts the conversion of a UTF-16 stream whose first raw bytes,
 * byte-order mark skipped, are p[0..n); NULL out of memory. */
static struct amd_text16 *start(int kind, const unsigned char *p, size_t n, size_t bom)
{
	struct amd_text16 *u = malloc(sizeof *u);
	if (!u)
		return NULL;
	u->cd = iconv_open("UTF-8", kind == 'L' ? "UTF-16LE" : "UTF-16BE");
	if (u->cd == (iconv_t)-1) {
		free(u);
		return NULL;
	}
	memcpy(u->raw, p, n); /* n <= the caller's buf, read in pieces of RAW_CAP */
	u->len = n;
	u->at = bom;
	u->eof = 0;
	return u;
}

/* Converts what raw holds into buf (reading more when it holds less than
 * a character): bytes written, 0 at the end, -1/-2 as amd_text_gzread. */
static int convert(gzFile g, struct amd_text16 *u, unsigned char *buf, unsigned n,
		   const char *path, struct amd_err *err)
{
	for (;;) {
		if (u->len < 4 && !u->eof) {
			int k = gzread(g, u->raw + u->len, (unsigned)(RAW_CAP - u->len));
			if (k < 0)
				return -1;
			u->eof = k == 0;
			u->len += (size_t)k;
		}
		if (u->len == 0)
			return 0;
		char *in = (char *)u->raw, *out = (char *)buf;
		size_t inleft = u->len, outleft = n;
		size_t r = iconv(u->cd, &in, &inleft, &out, &outleft);
		int e = r == (size_t)-1 ? errno : 0;
		size_t used = u->len - inleft;
		memmove(u->raw, u->raw + used, inleft);
		u->len = inleft;
		u->at += used;
		if (out > (char *)buf)
			return (int)(out - (char *)buf);
		if (e == EILSEQ)
			return amd_fail(err, "%s: byte %llu: not UTF-16 (an unpaired surrogate)", path,
					(unsigned long long)u->at), -2;
		if (e == EINVAL && u->eof)
			return amd_fail(err, "%s: byte %llu: the UTF-16 text ends inside a character",
					path, (unsigned long long)u->at), -2;
		if (e == EINVAL && u->len >= 4) /* room to read: not expected */
			return amd_fail(err, "%s: byte %llu: not UTF-16", path,
					(unsigned long long)u->at), -2;
		if (e == EINVAL) { /* a character cut by the piece: read on */
			int k = gzread(g, u->raw + u->len, (unsigned)(RAW_CAP - u->len));
			if (k < 0)
				return -1;
			u->eof = k == 0;
			u->len += (size_t)k;
		}
	}
}

int amd_text_gzread(void *gz, struct amd_textread *t, unsigned char *buf, unsigned n,
		    const char *path, struct amd_err *err)
{
	gzFile g = gz;
	if (t->u)
		return convert(g, t->u, buf, n, path, err);
	if (t->sniffed)
		return gzread(g, buf, n);
	unsigned first = n < RAW_CAP ? n : RAW_CAP;
	int k = gzread(g, buf, first);
	if (k <= 0)
		return k;
	t->sniffed = 1;
	size_t bom;
	int kind = amd_text_sniff(buf, (size_t)k, &bom);
	if (kind == '8') { /* the mark is no text: the reader sees what follows it */
		memmove(buf, buf + bom, (size_t)k - bom);
		k -= (int)bom;
		return k > 0 ? k : gzread(g, buf, n);
	}
	if (!kind)
		return k;
	if (!(t->u = start(kind, buf + bom, (size_t)k - bom, bom)))
		return amd_fail(err, "%s: out of memory", path), -2;
	return convert(g, t->u, buf, n, path, err);
}

int amd_text_was_utf16(const struct amd_textread *t)
{
	return t->u != NULL;
}

void amd_textread_free(struct amd_textread *t)
{
	if (t->u) {
		iconv_close(t->u->cd);
		free(t->u);
	}
	t->u = NULL;
	t->sniffed = 0;
}
