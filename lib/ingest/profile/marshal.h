/* marshal.h — the smallest reader of Python's marshal format that
 * pstats files need (no C library reads marshal outside libpython):
 * None/True/False, int ('i') and long ('l', to 63 bits), float ('g'
 * binary and 'f' text), str in every Python 3 form ('u', 't', 'a', 'A',
 * 'z', 'Z'), tuple ('(' and ')'), list, dict, and references (the 0x80
 * flag and 'r'), i.e. what marshal versions 0 to 4 write for a pstats
 * dump. Python 2's byte strings ('s') and string references ('R') are
 * recognised and refused by name. Values point into the caller's
 * buffer, which must outlive them. */
#ifndef AMD_MARSHAL_H
#define AMD_MARSHAL_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum amd_mv_type { AMD_MV_NONE, AMD_MV_BOOL, AMD_MV_INT, AMD_MV_FLOAT, AMD_MV_STR,
		   AMD_MV_TUPLE, AMD_MV_LIST, AMD_MV_DICT };

struct amd_mv { /* 24 bytes: a 40 MB dump holds some two million */
	enum amd_mv_type type;
	uint32_t offset; /* where it starts in the buffer (amd_marshal_read takes < 4 GiB) */
	union {
		int64_t i;     /* BOOL, INT */
		double f;      /* FLOAT */
		struct {
			const char *p;
			size_t len;
		} s;           /* STR: UTF-8, not NUL-terminated */
		struct {
			struct amd_mv **v; /* DICT: key, value, key, value, … */
			size_t n;          /* items (DICT: 2 × pairs) */
		} seq;
	} u;
};

struct amd_marshal;

/* Reads the one value at the start of buf[0..len); *out is the root,
 * owned by the returned reader (amd_marshal_free frees every value).
 * Fails naming path and the byte offset; refuses a buffer of 4 GiB or
 * more (offsets are 32 bits). */
struct amd_marshal *amd_marshal_read(const char *path, const unsigned char *buf, size_t len,
				     struct amd_mv **out, struct amd_err *err);
void amd_marshal_free(struct amd_marshal *m);

/* 1 when buf starts like a marshal dict whose first key is a tuple
 * (what pstats and Python 2's pstats write). */
int amd_marshal_looks_like_stats(const unsigned char *buf, size_t len);

#endif
