/* gunzip.c — plain, ISA-L or zlib reading of one file; see gunzip.h. */
#include "gunzip.h"

#include <errno.h>
#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define INBUF (1u << 18)

enum how { PLAIN, ISAL, ZLIB };

struct amd_gunzip {
	enum how how;
	int fd;
	gzFile gz;                 /* ZLIB */
	struct inflate_state *st;  /* ISAL */
	unsigned char *in;         /* PLAIN, ISAL: bytes read, not yet used */
	size_t in_len;
	int eof, ended;
	long long file_pos;        /* bytes read from fd */
	int code;
	char msg[128];
};

/* Reads up to cap bytes of the file at p: their count (0 at the end of
 * the file), or -1 on a read error. */
static ssize_t read_some(struct amd_gunzip *g, unsigned char *p, size_t cap)
{
	ssize_t n;
	do
		n = read(g->fd, p, cap);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		g->code = Z_ERRNO;
		strncpy(g->msg, strerror(errno), sizeof g->msg - 1);
		return -1;
	}
	g->eof = n == 0;
	g->file_pos += n;
	return n;
}

/* Reads more of the file after the in_len bytes kept; -1 on a read error. */
static int refill(struct amd_gunzip *g)
{
	ssize_t n = read_some(g, g->in + g->in_len, INBUF - g->in_len);
	if (n < 0)
		return -1;
	g->in_len += (size_t)n;
	return 0;
}

static int fail(struct amd_gunzip *g, int code, const char *msg)
{
	g->code = code;
	strncpy(g->msg, msg, sizeof g->msg - 1);
	g->ended = 1;
	return 0;
}

static const char *isal_message(int ret)
{
	switch (ret) {
	case ISAL_INVALID_BLOCK: return "invalid block type";
	case ISAL_INVALID_SYMBOL: return "invalid code";
	case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
	case ISAL_INVALID_WRAPPER: return "incorrect header check";
	case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
	case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
	default: return "invalid deflate data";
	}
}

/* Moves the unused input to the front of in (for the next member). */
static void keep_unused(struct amd_gunzip *g)
{
	memmove(g->in, g->st->next_in, g->st->avail_in);
	g->in_len = g->st->avail_in;
	g->st->next_in = g->in;
}

/* After a member: starts the next one when a gzip magic follows; 1 when
 * one did, 0 at the end, -1 on a read error. */
static int next_member(struct amd_gunzip *g)
{
	keep_unused(g);
	while (g->in_len < 2 && !g->eof)
		if (refill(g) < 0)
			return -1;
	if (g->in_len < 2 || g->in[0] != 0x1f || g->in[1] != 0x8b)
		return 0; /* trailing bytes, if any, ignored as gzread does */
	isal_inflate_reset(g->st);
	g->st->crc_flag = ISAL_GZIP;
	g->st->next_in = g->in;
	g->st->avail_in = (uint32_t)g->in_len;
	return 1;
}

/* One step of isal_read: more input, the next member, or inflating; 1 to
 * go on, 0 when reading ended (g->code says how). */
static int isal_step(struct amd_gunzip *g)
{
	struct inflate_state *st = g->st;
	if (st->block_state == ISAL_BLOCK_FINISH) {
		int more = next_member(g);
		g->ended = more <= 0;
		return more > 0;
	}
	if (st->avail_in == 0) {
		if (g->eof)
			return fail(g, Z_BUF_ERROR, "unexpected end of file");
		g->in_len = 0;
		if (refill(g) < 0)
			return g->ended = 1, 0;
		st->next_in = g->in;
		st->avail_in = (uint32_t)g->in_len;
		return 1;
	}
	uint32_t in = st->avail_in, out = st->avail_out;
	int ret = isal_inflate(st);
	if (ret < 0)
		return fail(g, Z_DATA_ERROR, isal_message(ret));
	if (st->avail_in == in && st->avail_out == out && st->block_state != ISAL_BLOCK_FINISH)
		return fail(g, Z_DATA_ERROR, "inflate made no progress");
	return 1;
}

static long isal_read(struct amd_gunzip *g, unsigned char *buf, size_t cap)
{
	g->st->next_out = buf;
	g->st->avail_out = (uint32_t)cap;
	while (g->st->avail_out > 0 && isal_step(g))
		;
	return (long)(cap - g->st->avail_out);
}

/* The bytes kept from telling gzip from plain, then the file read
 * straight into buf (no copy through in). */
static long plain_read(struct amd_gunzip *g, unsigned char *buf, size_t cap)
{
	size_t got = g->in_len < cap ? g->in_len : cap;
	memcpy(buf, g->in, got);
	memmove(g->in, g->in + got, g->in_len - got);
	g->in_len -= got;
	while (got < cap && !g->ended) {
		ssize_t n = g->eof ? 0 : read_some(g, buf + got, cap - got);
		if (n <= 0) {
			g->ended = 1;
			break;
		}
		got += (size_t)n;
	}
	return (long)got;
}

static long zlib_read(struct amd_gunzip *g, unsigned char *buf, size_t cap)
{
	int n = gzread(g->gz, buf, (unsigned)cap);
	if (n > 0)
		return n;
	const char *m = gzerror(g->gz, &g->code);
	strncpy(g->msg, m ? m : "", sizeof g->msg - 1);
	if (g->code == Z_ERRNO)
		strncpy(g->msg, strerror(errno), sizeof g->msg - 1);
	g->file_pos = gzoffset(g->gz);
	g->ended = 1;
	return 0;
}

long amd_gunzip_read(struct amd_gunzip *g, unsigned char *buf, size_t cap)
{
	if (g->ended)
		return 0;
	if (g->how == ZLIB)
		return zlib_read(g, buf, cap);
	return g->how == ISAL ? isal_read(g, buf, cap) : plain_read(g, buf, cap);
}

/* Chooses how to read: the first two bytes say gzip or not. */
static int choose(struct amd_gunzip *g)
{
	const char *env = getenv("AMDAHL_GUNZIP");
	if (env && strcmp(env, "zlib") == 0) {
		g->how = ZLIB;
		g->gz = gzdopen(g->fd, "rb");
		if (!g->gz)
			return -1;
		g->fd = -1; /* gzclose closes it */
		gzbuffer(g->gz, 1u << 17);
		return 0;
	}
	if (!(g->in = malloc(INBUF)))
		return -1;
	while (g->in_len < 2 && !g->eof)
		if (refill(g) < 0)
			return 0; /* reported by the first read */
	g->how = g->in_len >= 2 && g->in[0] == 0x1f && g->in[1] == 0x8b ? ISAL : PLAIN;
	if (g->how == PLAIN)
		return 0;
	if (!(g->st = malloc(sizeof *g->st)))
		return -1;
	isal_inflate_init(g->st);
	g->st->crc_flag = ISAL_GZIP;
	g->st->next_in = g->in;
	g->st->avail_in = (uint32_t)g->in_len;
	return 0;
}

int amd_gunzip_open(int fd, struct amd_gunzip **out)
{
	struct amd_gunzip *g = calloc(1, sizeof *g);
	if (!g) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	g->fd = fd;
	g->code = Z_OK;
	if (choose(g) < 0) {
		int e = errno ? errno : ENOMEM;
		amd_gunzip_close(g);
		errno = e;
		return -1;
	}
	if (g->code != Z_OK)
		g->ended = 1;
	*out = g;
	return 0;
}

int amd_gunzip_status(const struct amd_gunzip *g, const char **msg, long long *raw_offset)
{
	*msg = g->msg;
	*raw_offset = g->how == ISAL ? g->file_pos - (long long)g->st->avail_in : g->file_pos;
	return g->code;
}

void amd_gunzip_close(struct amd_gunzip *g)
{
	if (!g)
		return;
	if (g->gz)
		gzclose(g->gz);
	else if (g->fd >= 0)
		close(g->fd);
	free(g->st);
	free(g->in);
	free(g);
}
