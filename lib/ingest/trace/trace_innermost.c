/* trace_innermost.c — the innermost op of a thread over time, and
 * charging later-written calls to it; see trace_innermost.h. Step k
 * (counted from the thread's first) is slot k % BLOCK of block
 * k / BLOCK - base. */
#include "trace_innermost.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define BLOCK AMD_INNERMOST_BLOCK

struct amd_innermost_block {
	int64_t t[BLOCK];
	uint32_t op[BLOCK];
};

static int64_t *t_at(const struct amd_innermost *m, size_t k)
{
	return &m->blocks[k / BLOCK - m->base]->t[k % BLOCK];
}

static uint32_t *op_at(const struct amd_innermost *m, size_t k)
{
	return &m->blocks[k / BLOCK - m->base]->op[k % BLOCK];
}

/* Gives back the blocks whose steps all come before m->from. */
static void forget(struct amd_innermost *m)
{
	size_t drop = m->from / BLOCK - m->base;
	if (drop == 0)
		return;
	for (size_t i = 0; i < drop; i++) {
		if (!m->spare)
			m->spare = m->blocks[i];
		else
			free(m->blocks[i]);
	}
	memmove(m->blocks, m->blocks + drop, (m->n_blocks - drop) * sizeof *m->blocks);
	m->n_blocks -= drop;
	m->base += drop;
}

/* Room for step m->n; -1 when out of memory. */
static int room(struct amd_innermost *m)
{
	if (m->n / BLOCK - m->base < m->n_blocks)
		return 0;
	if (amd_grow_to(&m->blocks, m->n_blocks + 1, &m->cap_blocks, sizeof *m->blocks, 16) < 0)
		return -1;
	struct amd_innermost_block *b = m->spare ? m->spare : malloc(sizeof *b);
	if (!b)
		return -1;
	m->spare = NULL;
	m->blocks[m->n_blocks++] = b;
	return 0;
}

int amd_innermost_set(struct amd_innermost *m, int64_t t, uint32_t op)
{
	if (m->n > m->from) {
		uint32_t *last = op_at(m, m->n - 1);
		if (*last == op)
			return 0;
		if (t <= *t_at(m, m->n - 1)) {
			*last = op; /* the same moment: the later word holds */
			return 0;
		}
	}
	if (room(m) < 0)
		return -1;
	*t_at(m, m->n) = t;
	*op_at(m, m->n) = op;
	m->n++;
	return 0;
}

/* The index of the step in force at t (the last with t_at(i) <= t), or
 * m->n when none is. */
static size_t step_at(const struct amd_innermost *m, int64_t t)
{
	size_t lo = m->from, hi = m->n; /* answer in [lo - 1, hi) */
	if (lo == hi || *t_at(m, lo) > t)
		return m->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (*t_at(m, mid) <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void amd_innermost_charge(struct amd_innermost *m, int64_t start, int64_t end,
			  amd_innermost_charge_fn *charge, void *ctx)
{
	size_t i = step_at(m, start);
	if (i == m->n) {
		/* before the first step: the call ran under no op until then */
		if (m->from == m->n)
			return;
		i = m->from;
	} else {
		m->from = i;
		forget(m);
	}
	for (; i < m->n && *t_at(m, i) < end; i++) {
		int64_t ti = *t_at(m, i);
		int64_t s = ti > start ? ti : start;
		int64_t e = i + 1 < m->n && *t_at(m, i + 1) < end ? *t_at(m, i + 1) : end;
		uint32_t op = *op_at(m, i);
		if (op && e > s)
			charge(ctx, op - 1, e - s);
	}
}

void amd_innermost_free(struct amd_innermost *m)
{
	for (size_t i = 0; i < m->n_blocks; i++)
		free(m->blocks[i]);
	free(m->blocks);
	free(m->spare);
	memset(m, 0, sizeof *m);
}
