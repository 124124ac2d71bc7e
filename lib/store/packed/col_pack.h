/* col_pack.h — the signed little-endian numbers of the column-array
 * layouts (region_pack.h, call_pack.h): a column's n values each take
 * the least width (0, 1, 2, 4 or 8 bytes) that holds all of them, 0 when
 * they are all 0. */
#ifndef AMD_COL_PACK_H
#define AMD_COL_PACK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "le64.h"

/* The least width (0, 1, 2, 4, 8) holding x as a signed number. */
int amd_col_width(int64_t x);
/* x's w low bytes (w of 0, 1, 2, 4, 8) at out, little-endian; inline,
 * since the packers call it once a value. */
static inline void amd_col_put(unsigned char *out, int w, int64_t x)
{
	unsigned char word[8];
	amd_put_le64(word, (uint64_t)x);
	memcpy(out, word, (size_t)w);
}
/* The n signed little-endian numbers of width w (0, 1, 2, 4, 8) at p
 * into x (0 for width 0). */
void amd_col_get(const unsigned char *p, int w, size_t n, int64_t *x);
/* The column of ncols widths w[0..ncols) that is not 0, 1, 2, 4 or 8
 * (-1: none), and in *row the widths' sum (the bytes of a record). */
int amd_col_bad_width(const unsigned char *w, int ncols, size_t *row);

#endif
