/* trace_innermost.c — the innermost op of a thread over time, and
 * charging later-written calls to it; see trace_innermost.h. Step k
 * (counted from the thread's first) is slot k % bs of block k / bs. Blocks
 * before `base` are forgotten; blocks base .. mem_base - 1 are in the
 * temporary file, block b at offset (b - file_base) * block bytes; blocks
 * mem_base .. n_blocks - 1 are in memory (the newest, where steps are
 * added). A step is found by a binary search over the blocks' first
 * times, then inside one block. */
#include "trace_innermost.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"

struct amd_innermost_slot {
	int64_t first;      /* the time of the block's first step */
	unsigned char *mem; /* the block in memory, or NULL when in the file */
};

static size_t bsteps(const struct amd_innermost *m)
{
	return m->block_steps ? m->block_steps : AMD_INNERMOST_BLOCK;
}

static size_t mem_cap(const struct amd_innermost *m)
{
	return m->mem_blocks ? m->mem_blocks : AMD_INNERMOST_MEM_BLOCKS;
}

static size_t cache_cap(const struct amd_innermost *m)
{
	size_t c = m->cache_blocks ? m->cache_blocks : AMD_INNERMOST_CACHE_BLOCKS;
	return c < AMD_INNERMOST_CACHE_MAX ? c : AMD_INNERMOST_CACHE_MAX;
}

/* A block's bytes: bs times, then bs ops. */
static size_t block_bytes(const struct amd_innermost *m)
{
	return bsteps(m) * (sizeof(int64_t) + sizeof(uint32_t));
}

static int64_t *times(const struct amd_innermost *m, unsigned char *b)
{
	(void)m;
	return (int64_t *)(void *)b;
}

static uint32_t *ops(const struct amd_innermost *m, unsigned char *b)
{
	return (uint32_t *)(void *)(b + bsteps(m) * sizeof(int64_t));
}

static const char *tmp_dir(void)
{
	const char *d = getenv("TMPDIR");
	return d && *d ? d : "/tmp";
}

/* -1, with the cause in m->why and m->sys_errno. */
static int file_failed(struct amd_innermost *m, const char *verb, int e)
{
	m->sys_errno = e ? e : EIO;
	snprintf(m->why, sizeof m->why,
		 "cannot %s the temporary file in %s that holds a thread's innermost-op steps: %s",
		 verb, tmp_dir(), strerror(m->sys_errno));
	return -1;
}

/* The temporary file, created unlinked (O_TMPFILE, else mkostemp and
 * unlink) once a block must leave memory. */
static int open_file(struct amd_innermost *m)
{
	const char *dir = tmp_dir();
	int fd = -1;
#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (fd < 0) {
		char path[4096];
		if (snprintf(path, sizeof path, "%s/amdahl-steps-XXXXXX", dir) >= (int)sizeof path)
			return file_failed(m, "create", ENAMETOOLONG);
		fd = mkostemp(path, O_CLOEXEC);
		if (fd < 0)
			return file_failed(m, "create", errno);
		unlink(path);
	}
	m->fd = fd;
	m->has_file = 1;
	return 0;
}

static int write_all(int fd, const unsigned char *p, size_t n, off_t at)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w == 0 ? (errno = ENOSPC, -1) : -1;
		p += w;
		n -= (size_t)w;
		at += w;
	}
	return 0;
}

static int read_all(int fd, unsigned char *p, size_t n, off_t at)
{
	while (n) {
		ssize_t r = pread(fd, p, n, at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r == 0 ? (errno = EIO, -1) : -1;
		p += r;
		n -= (size_t)r;
		at += r;
	}
	return 0;
}

static struct amd_innermost_slot *slot(const struct amd_innermost *m, size_t b)
{
	return &m->slots[b - m->base];
}

/* A block no longer in memory: kept as the spare, or freed. */
static void let_go(struct amd_innermost *m, unsigned char *b)
{
	if (!m->spare)
		m->spare = b;
	else
		free(b);
}

/* Block b (base <= b < n_blocks), read from the file into the cache when
 * not in memory; NULL when it cannot be read. The pointer is valid until
 * the next call. */
static unsigned char *block(struct amd_innermost *m, size_t b)
{
	if (b >= m->mem_base)
		return slot(m, b)->mem;
	size_t i;
	for (i = 0; i < m->n_cache; i++)
		if (m->cache[i].id == b)
			return m->cache[i].buf;
	if (m->n_cache < cache_cap(m)) {
		unsigned char *buf = malloc(block_bytes(m));
		if (!buf)
			return NULL;
		i = m->n_cache++;
		m->cache[i].buf = buf;
	} else {
		i = m->next_victim++ % m->n_cache;
	}
	m->cache[i].id = SIZE_MAX;
	if (read_all(m->fd, m->cache[i].buf, block_bytes(m),
		     (off_t)((b - m->file_base) * block_bytes(m))) < 0) {
		file_failed(m, "read", errno);
		return NULL;
	}
	m->cache[i].id = b;
	return m->cache[i].buf;
}

/* The time and op of step k (from <= k < n); -1 when it cannot be read. */
static int step(struct amd_innermost *m, size_t k, int64_t *t, uint32_t *op)
{
	unsigned char *b = block(m, k / bsteps(m));
	if (!b)
		return -1;
	*t = times(m, b)[k % bsteps(m)];
	*op = ops(m, b)[k % bsteps(m)];
	return 0;
}

/* Gives back the blocks whose steps all come before m->from; once the
 * file holds only such blocks, it is emptied. */
static void forget(struct amd_innermost *m)
{
	size_t nb = m->from / bsteps(m);
	if (nb <= m->base)
		return;
	for (size_t b = m->mem_base > m->base ? m->mem_base : m->base; b < nb; b++)
		let_go(m, slot(m, b)->mem);
	if (nb >= m->mem_base) {
		if (m->has_file && m->mem_base > m->file_base && ftruncate(m->fd, 0) < 0) {
			/* not fatal: the file is written again from offset 0 */
		}
		m->mem_base = m->file_base = nb;
	}
	memmove(m->slots, m->slots + (nb - m->base), (m->n_blocks - nb) * sizeof *m->slots);
	m->base = nb;
}

/* The oldest block in memory to the end of the file. */
static int spill(struct amd_innermost *m)
{
	if (!m->has_file && open_file(m) < 0)
		return -1;
	struct amd_innermost_slot *s = slot(m, m->mem_base);
	if (write_all(m->fd, s->mem, block_bytes(m),
		      (off_t)((m->mem_base - m->file_base) * block_bytes(m))) < 0)
		return file_failed(m, "write", errno);
	let_go(m, s->mem);
	s->mem = NULL;
	m->mem_base++;
	return 0;
}

/* Room for step m->n; -1 when out of memory or the file fails. */
static int room(struct amd_innermost *m)
{
	if (m->n / bsteps(m) < m->n_blocks)
		return 0;
	if (m->n_blocks - m->mem_base >= mem_cap(m) && spill(m) < 0)
		return -1;
	if (amd_grow_to(&m->slots, m->n_blocks - m->base + 1, &m->cap_slots, sizeof *m->slots,
			16) < 0)
		return -1;
	unsigned char *b = m->spare ? m->spare : malloc(block_bytes(m));
	if (!b)
		return -1;
	m->spare = NULL;
	m->slots[m->n_blocks - m->base] = (struct amd_innermost_slot){0, b};
	m->n_blocks++;
	return 0;
}

int amd_innermost_set(struct amd_innermost *m, int64_t t, uint32_t op)
{
	size_t bs = bsteps(m);
	if (m->n > m->from) { /* the last step is in the newest block, in memory */
		unsigned char *b = slot(m, (m->n - 1) / bs)->mem;
		uint32_t *last = &ops(m, b)[(m->n - 1) % bs];
		if (*last == op)
			return 0;
		if (t <= times(m, b)[(m->n - 1) % bs]) {
			*last = op; /* the same moment: the later word holds */
			return 0;
		}
	}
	if (room(m) < 0)
		return -1;
	struct amd_innermost_slot *s = slot(m, m->n / bs);
	times(m, s->mem)[m->n % bs] = t;
	ops(m, s->mem)[m->n % bs] = op;
	if (m->n % bs == 0)
		s->first = t;
	m->n++;
	return 0;
}

/* In *at, the index of the step in force at t (the last with time <= t),
 * or m->n when none is; -1 when a block cannot be read. */
static int step_at(struct amd_innermost *m, int64_t t, size_t *at)
{
	size_t bs = bsteps(m);
	int64_t tk;
	uint32_t op;
	*at = m->n;
	if (m->from == m->n)
		return 0;
	if (step(m, m->from, &tk, &op) < 0)
		return -1;
	if (tk > t)
		return 0;
	size_t lo = m->from / bs, hi = m->n_blocks; /* the block: in [lo, hi) */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (slot(m, mid)->first <= t)
			lo = mid;
		else
			hi = mid;
	}
	unsigned char *b = block(m, lo);
	if (!b)
		return -1;
	const int64_t *ts = times(m, b);
	size_t k0 = lo * bs > m->from ? lo * bs : m->from;
	size_t k1 = (lo + 1) * bs < m->n ? (lo + 1) * bs : m->n; /* the step: in [k0, k1) */
	while (k1 - k0 > 1) {
		size_t mid = k0 + (k1 - k0) / 2;
		if (ts[mid % bs] <= t)
			k0 = mid;
		else
			k1 = mid;
	}
	*at = k0;
	return 0;
}

int amd_innermost_charge(struct amd_innermost *m, int64_t start, int64_t end,
			 amd_innermost_charge_fn *charge, void *ctx)
{
	size_t i;
	if (step_at(m, start, &i) < 0)
		return -1;
	if (i == m->n) {
		/* before the first step: the call ran under no op until then */
		if (m->from == m->n)
			return 0;
		i = m->from;
	} else {
		m->from = i;
		forget(m);
	}
	int64_t ti = 0;
	uint32_t op = 0;
	if (i < m->n && step(m, i, &ti, &op) < 0)
		return -1;
	while (i < m->n && ti < end) {
		int64_t tn = 0;
		uint32_t opn = 0;
		int more = i + 1 < m->n;
		if (more && step(m, i + 1, &tn, &opn) < 0)
			return -1;
		int64_t s = ti > start ? ti : start;
		int64_t e = more && tn < end ? tn : end;
		if (op && e > s)
			charge(ctx, op - 1, e - s);
		i++;
		ti = tn;
		op = opn;
	}
	return 0;
}

size_t amd_innermost_blocks_held(const struct amd_innermost *m)
{
	return (m->n_blocks - m->mem_base) + m->n_cache + (m->spare != NULL);
}

size_t amd_innermost_blocks_spilled(const struct amd_innermost *m)
{
	return m->mem_base - m->base;
}

void amd_innermost_free(struct amd_innermost *m)
{
	for (size_t b = m->mem_base; b < m->n_blocks; b++)
		free(slot(m, b)->mem);
	for (size_t i = 0; i < m->n_cache; i++)
		free(m->cache[i].buf);
	free(m->slots);
	free(m->spare);
	if (m->has_file)
		close(m->fd);
	memset(m, 0, sizeof *m);
}
