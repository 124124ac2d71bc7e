/* trace_innermost.c — the innermost op of a thread over time, and
 * charging later-written calls to it; see trace_innermost.h. */
#include "trace_innermost.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

int amd_innermost_set(struct amd_innermost *m, int64_t t, uint32_t op)
{
	if (m->n > m->from) {
		struct amd_innermost_step *last = &m->v[m->n - 1];
		if (last->op == op)
			return 0;
		if (t <= last->t) {
			last->op = op; /* the same moment: the later word holds */
			return 0;
		}
	}
	if (m->from > 1024 && m->from * 2 > m->n) {
		memmove(m->v, m->v + m->from, (m->n - m->from) * sizeof *m->v);
		m->n -= m->from;
		m->from = 0;
	}
	if (amd_grow(&m->v, m->n, &m->cap, sizeof *m->v, 64) < 0)
		return -1;
	m->v[m->n++] = (struct amd_innermost_step){t, op};
	return 0;
}

/* The index of the step in force at t (the last with v[i].t <= t), or
 * m->n when none is. */
static size_t step_at(const struct amd_innermost *m, int64_t t)
{
	size_t lo = m->from, hi = m->n; /* answer in [lo - 1, hi) */
	if (lo == hi || m->v[lo].t > t)
		return m->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].t <= t)
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
	}
	for (; i < m->n && m->v[i].t < end; i++) {
		int64_t s = m->v[i].t > start ? m->v[i].t : start;
		int64_t e = i + 1 < m->n && m->v[i + 1].t < end ? m->v[i + 1].t : end;
		if (m->v[i].op && e > s)
			charge(ctx, m->v[i].op - 1, e - s);
	}
}

void amd_innermost_free(struct amd_innermost *m)
{
	free(m->v);
	memset(m, 0, sizeof *m);
}
