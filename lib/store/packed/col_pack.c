/* col_pack.c — the column arrays' numbers (col_pack.h). */
#include "col_pack.h"

#include <string.h>

#include "le64.h"

int amd_col_width(int64_t x)
{
	if (x == 0)
		return 0;
	if (x >= INT8_MIN && x <= INT8_MAX)
		return 1;
	if (x >= INT16_MIN && x <= INT16_MAX)
		return 2;
	if (x >= INT32_MIN && x <= INT32_MAX)
		return 4;
	return 8;
}

void amd_col_get(const unsigned char *p, int w, size_t n, int64_t *x)
{
	switch (w) {
	case 0: memset(x, 0, n * sizeof *x); break;
	case 1:
		for (size_t i = 0; i < n; i++)
			x[i] = (int8_t)p[i];
		break;
	case 2:
		for (size_t i = 0; i < n; i++, p += 2)
			x[i] = (int16_t)(uint16_t)(p[0] | (unsigned)p[1] << 8);
		break;
	case 4:
		for (size_t i = 0; i < n; i++, p += 4)
			x[i] = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
					 (uint32_t)p[3] << 24);
		break;
	default:
		for (size_t i = 0; i < n; i++, p += 8)
			x[i] = (int64_t)amd_get_le64(p);
	}
}

int amd_col_bad_width(const unsigned char *w, int ncols, size_t *row)
{
	*row = 0;
	for (int c = 0; c < ncols; c++) {
		if (w[c] > 8 || (w[c] & (w[c] - 1)))
			return c;
		*row += w[c];
	}
	return -1;
}
