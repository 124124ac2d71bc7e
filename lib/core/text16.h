/* text16.h — the one encoding detection of every text reader: the first
 * bytes of a (gunzipped) stream say whether it begins with a UTF-8
 * byte-order mark (EF BB BF: Excel, PowerShell 7, Notepad's "UTF-8 with
 * BOM"), skipped, or is UTF-16 (Windows PowerShell's `>`, Notepad's
 * "Unicode") — a byte-order mark FF FE or FE FF, or without one a NUL in
 * every other byte of the first 64 (ASCII text) — read as UTF-8 through
 * iconv; other text passes through untouched. file.h's readers and the
 * CSV reader read through amd_text_gzread; the chunk reader of the JSON
 * streams (chunks.h) skips the UTF-8 mark by amd_text_sniff. */
#ifndef AMD_TEXT16_H
#define AMD_TEXT16_H

#include <stddef.h>

#include "err.h"

/* The encoding p[0..n) begins with: '8' UTF-8 after a byte-order mark,
 * 'L' UTF-16 little-endian, 'B' big-endian, 0 neither (UTF-8 or ASCII
 * without a mark); *bom the mark's length (0, 2 or 3), bytes that are
 * not text. */
int amd_text_sniff(const unsigned char *p, size_t n, size_t *bom);

/* A stream's conversion state: zeroed before the first read. */
struct amd_text16;
struct amd_textread {
	int sniffed;
	struct amd_text16 *u; /* NULL: not UTF-16 */
};

/* Reads up to n (>= 4) bytes of UTF-8 text from the gzFile gz into buf
 * (a leading UTF-8 byte-order mark skipped), as gzread does (> 0 bytes, 0 at the end, -1 a read error: gzerror
 * says which); -2 when the UTF-16 is invalid or ends inside a character
 * (err names path and the byte). */
int amd_text_gzread(void *gz, struct amd_textread *t, unsigned char *buf, unsigned n,
		    const char *path, struct amd_err *err);
/* 1 when the stream was UTF-16. */
int amd_text_was_utf16(const struct amd_textread *t);
void amd_textread_free(struct amd_textread *t);

#endif
