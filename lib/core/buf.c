/* buf.c — growable byte buffers and arrays; see buf.h. */
#include "buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int amd_buf_append(struct amd_buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *d = realloc(b->data, cap);
		if (!d)
			return -1;
		b->data = d;
		b->cap = cap;
	}
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int amd_buf_append_int(struct amd_buf *b, long long v)
{
	char d[24], *p = d + sizeof d;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	return amd_buf_append(b, p, (size_t)(d + sizeof d - p));
}

int amd_grow(void *arrp, size_t n, size_t *cap, size_t elem, size_t first)
{
	return amd_grow_to(arrp, n + 1, cap, elem, first);
}

int amd_grow_to(void *arrp, size_t need, size_t *cap, size_t elem, size_t first)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : first ? first : 1;
	while (c < need) {
		if (c > SIZE_MAX / 2 / elem)
			return -1;
		c *= 2;
	}
	void *old;
	memcpy(&old, arrp, sizeof old);
	void *v = realloc(old, c * elem);
	if (!v)
		return -1;
	memcpy(arrp, &v, sizeof v);
	*cap = c;
	return 0;
}

int amd_grow_zeroed(void *arrp, size_t need, size_t *cap, size_t elem, size_t first)
{
	size_t old = *cap;
	if (amd_grow_to(arrp, need, cap, elem, first) < 0)
		return -1;
	if (*cap > old) {
		char *v;
		memcpy(&v, arrp, sizeof v);
		memset(v + old * elem, 0, (*cap - old) * elem);
	}
	return 0;
}

int amd_buf_printf(struct amd_buf *b, const char *fmt, ...)
{
	va_list ap;
	char small[512];
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof small)
		return amd_buf_append(b, small, (size_t)n);
	char *big = malloc((size_t)n + 1);
	if (!big)
		return -1;
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	int rc = amd_buf_append(b, big, (size_t)n);
	free(big);
	return rc;
}

void amd_buf_free(struct amd_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
