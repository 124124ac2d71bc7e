/* buf.h — growable byte buffers (amd_buf) and the one way arrays grow
 * (amd_grow). Every allocation in lib/ is checked; growth goes through
 * these two. */
#ifndef AMD_BUF_H
#define AMD_BUF_H

#include <stddef.h>

struct amd_buf {
	char *data;
	size_t len, cap;
};

int amd_buf_append(struct amd_buf *b, const void *p, size_t n);
int amd_buf_printf(struct amd_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* v in decimal, the bytes amd_buf_printf(b, "%lld", v) appends, without
 * printf's parsing of its format (a key built per frame spent more time
 * there than in the key). */
int amd_buf_append_int(struct amd_buf *b, long long v);
void amd_buf_free(struct amd_buf *b);

/* Makes room for element n of the array *arrp (a T **) of *cap elements
 * of elem bytes: when full, doubles *cap (first when 0) and reallocates.
 * -1 when out of memory (the array is left as it was). */
int amd_grow(void *arrp, size_t n, size_t *cap, size_t elem, size_t first);
/* The same for need elements at once: *cap doubles (from first) until
 * it holds them. */
int amd_grow_to(void *arrp, size_t need, size_t *cap, size_t elem, size_t first);
/* amd_grow_to, the new elements zeroed: a table indexed by a number
 * (its element 0 while nothing was put there). */
int amd_grow_zeroed(void *arrp, size_t need, size_t *cap, size_t elem, size_t first);

#endif
