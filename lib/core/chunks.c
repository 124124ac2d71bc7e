/* chunks.c — a file's bytes (gunzipped when gzipped, gunzip.h) in
 * chunks, inflated by a second thread while the caller parses the
 * previous chunk: on two cores a .json.gz then costs about what zcat
 * costs. A file under 256 KiB (a sweep's rank traces) is read on the
 * caller's thread instead, in the same chunks. */
#include "chunks.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "file.h"
#include "gunzip.h"
#include "huge_map.h"
#include "text16.h"


#define NBUF 4
#define CHUNK (1u << 20)
#define SMALL_FILE (256 << 10) /* read on the caller's thread, one buffer */

struct amd_chunk_reader {
	struct amd_gunzip *g;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned char *buf[NBUF];
	unsigned char *region; /* buf[] cut from it (a big file), or malloc'd */
	int len[NBUF];
	int head, count;     /* filled chunks: head .. head+count */
	int held;            /* the caller holds buf[head] */
	int done, stop, joined;
	int sync;            /* a small file: no thread, buf[0] only */
	int begun;           /* the first chunk handed out (its mark skipped) */
	size_t skipped;      /* the byte-order mark's bytes dropped before it */
	int utf16;           /* the data is UTF-16: no chunk handed out */
	int gz_code;
	char gz_msg[128];
	long long raw_offset;
};

/* The stream ended (n <= 0 from amd_gunzip_read): its status kept for
 * amd_chunks_status, nothing more to read. */
static void note_end(struct amd_chunk_reader *r)
{
	const char *m;
	r->gz_code = amd_gunzip_status(r->g, &m, &r->raw_offset);
	strncpy(r->gz_msg, m, sizeof r->gz_msg - 1);
	r->done = 1;
}

static void *inflater(void *arg)
{
	struct amd_chunk_reader *r = arg;
	int slot = 0;
	for (;;) {
		pthread_mutex_lock(&r->mu);
		while (r->count == NBUF && !r->stop)
			pthread_cond_wait(&r->cv, &r->mu);
		int stop = r->stop;
		pthread_mutex_unlock(&r->mu);
		if (stop)
			break;
		long n = amd_gunzip_read(r->g, r->buf[slot], CHUNK);
		pthread_mutex_lock(&r->mu);
		if (n > 0) {
			r->len[slot] = (int)n;
			r->count++;
			slot = (slot + 1) % NBUF;
		} else {
			note_end(r);
		}
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		if (n <= 0)
			break;
	}
	return NULL;
}

/* Regions of closed readers, kept for the next ones (a directory of
 * traces, -j N workers): one per reader that may run at once. */
#define SPARE_REGIONS 8
#define REGION_BYTES ((size_t)NBUF * CHUNK)
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *spare[SPARE_REGIONS];

static unsigned char *region_take(void)
{
	unsigned char *p = NULL;
	pthread_mutex_lock(&spare_lock);
	for (int i = 0; i < SPARE_REGIONS && !p; i++)
		if (spare[i]) {
			p = spare[i];
			spare[i] = NULL;
		}
	pthread_mutex_unlock(&spare_lock);
	return p ? p : amd_huge_alloc(REGION_BYTES);
}

static void region_give(unsigned char *p)
{
	pthread_mutex_lock(&spare_lock);
	for (int i = 0; i < SPARE_REGIONS && p; i++)
		if (!spare[i]) {
			spare[i] = p;
			p = NULL;
		}
	pthread_mutex_unlock(&spare_lock);
	amd_huge_free(p, REGION_BYTES);
}

/* The chunk buffers: one region in huge pages (2 faults for the 4 MiB
 * instead of 1,024 of 4 KB: on the VMs measured a 4 KB fault of fresh
 * memory costs 25-50 us, so four malloc'd chunks were about 30 ms of a
 * 0.6 MB .json.gz's ingest, the size of zcat's whole run; a small
 * file's one chunk up to 256 faults), kept for the next reader; malloc
 * when no region maps. */
static int alloc_buffers(struct amd_chunk_reader *r, int fd)
{
	struct stat st;
	off_t size = fstat(fd, &st) == 0 ? st.st_size : -1;
	r->sync = size >= 0 && size < SMALL_FILE; /* one chunk of the region */
	if ((r->region = region_take())) {
		for (int i = 0; i < NBUF; i++)
			r->buf[i] = r->region + (size_t)i * CHUNK;
		return 0;
	}
	for (int i = 0; i < (r->sync ? 1 : NBUF); i++)
		if (!(r->buf[i] = malloc(CHUNK)))
			return -1;
	return 0;
}

int amd_chunks_open(const char *path, struct amd_chunk_reader **out, struct amd_err *err)
{
	struct amd_chunk_reader *r = calloc(1, sizeof *r);
	if (!r)
		return amd_fail(err, "%s: out of memory", path);
	r->joined = 1; /* no thread yet */
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	errno = 0;
	int fd = amd_open_regular(path, err);
	if (fd < 0) {
		amd_chunks_close(r);
		return -1;
	}
	if (amd_gunzip_open(fd, &r->g) < 0) {
		int e = errno ? errno : ENOMEM;
		amd_chunks_close(r);
		return amd_fail(err, "%s: %s", path, strerror(e));
	}
	if (alloc_buffers(r, fd) < 0) {
		amd_chunks_close(r);
		return amd_fail(err, "%s: out of memory", path);
	}
	if (r->sync) { /* a thread costs more than it saves (clone, its stack) */
		*out = r;
		return 0;
	}
	if (pthread_create(&r->th, NULL, inflater, r) != 0) {
		amd_chunks_close(r);
		return amd_fail(err, "%s: cannot start a reader thread", path);
	}
	r->joined = 0;
	*out = r;
	return 0;
}

/* amd_chunks_next of a small file: the same amd_gunzip_read calls, the
 * same chunks, on the caller's thread. */
static long next_sync(struct amd_chunk_reader *r, const unsigned char **data)
{
	if (r->done)
		return 0;
	long n = amd_gunzip_read(r->g, r->buf[0], CHUNK);
	if (n > 0) {
		*data = r->buf[0];
		return n;
	}
	note_end(r);
	return 0;
}

static long next_chunk(struct amd_chunk_reader *r, const unsigned char **data);

/* The first chunk without a UTF-8 byte-order mark (text16.h: the one
 * detection every text reader shares). UTF-16 JSON is not read here: the
 * data ends at once, amd_chunks_status saying why. */
long amd_chunks_next(struct amd_chunk_reader *r, const unsigned char **data)
{
	if (r->utf16)
		return 0;
	long n = next_chunk(r, data);
	if (r->begun || n <= 0)
		return n;
	r->begun = 1;
	size_t bom;
	int kind = amd_text_sniff(*data, (size_t)n, &bom);
	if (kind == 'L' || kind == 'B') {
		r->utf16 = 1;
		return 0;
	}
	if (kind != '8')
		return n;
	*data += bom;
	r->skipped = bom;
	n -= (long)bom;
	return n > 0 ? n : amd_chunks_next(r, data);
}

static long next_chunk(struct amd_chunk_reader *r, const unsigned char **data)
{
	if (r->sync)
		return next_sync(r, data);
	pthread_mutex_lock(&r->mu);
	if (r->held) { /* hand the last chunk back to the inflater */
		r->held = 0;
		r->head = (r->head + 1) % NBUF;
		r->count--;
		pthread_cond_broadcast(&r->cv);
	}
	while (r->count == 0 && !r->done)
		pthread_cond_wait(&r->cv, &r->mu);
	long n = 0;
	if (r->count) {
		r->held = 1;
		*data = r->buf[r->head];
		n = r->len[r->head];
	}
	pthread_mutex_unlock(&r->mu);
	return n;
}

static void join(struct amd_chunk_reader *r)
{
	if (r->joined)
		return;
	pthread_mutex_lock(&r->mu);
	r->stop = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->th, NULL);
	r->joined = 1;
}

size_t amd_chunks_skipped(const struct amd_chunk_reader *r)
{
	return r->skipped;
}

int amd_chunks_status(struct amd_chunk_reader *r, const char **msg, long long *raw_offset)
{
	join(r);
	*msg = r->gz_msg;
	*raw_offset = r->raw_offset;
	if (r->utf16) {
		*msg = "UTF-16 text: JSON is read as UTF-8 only (save the file as UTF-8)";
		*raw_offset = 0;
		return Z_ERRNO;
	}
	return r->gz_code;
}

void amd_chunks_close(struct amd_chunk_reader *r)
{
	if (!r)
		return;
	join(r);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	if (r->region)
		region_give(r->region);
	else
		for (int i = 0; i < NBUF; i++)
			free(r->buf[i]);
	amd_gunzip_close(r->g);
	free(r);
}
