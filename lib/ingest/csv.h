/* csv.h — the CSV reader the CSV parsers share (RFC 4180: quoted fields
 * may hold commas, newlines and doubled quotes; CRLF or LF line ends),
 * streaming a file (plain or gzipped) or reading a buffer (a leading
 * UTF-8 byte-order mark is skipped), with the line
 * each record starts on for error messages. Also the number parser for values that carry a unit
 * ("75.29 W", "0 %", "[N/A]") as nvidia-smi writes them. */
#ifndef AMD_CSV_H
#define AMD_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "text16.h"

#define AMD_CSV_RECORD_MAX (64 << 20) /* one record's text, at most */

struct amd_csv {
	const char *path;     /* for error messages */
	const char *p, *end;  /* the unread rest of the buffer / window */
	void *gz;             /* gzFile when streaming a file, else NULL */
	char *window;         /* the streamed file's current piece */
	struct amd_textread *text16; /* UTF-16 read as UTF-8 (core/text16.h) */
	struct amd_err text16_err;
	int at_eof;
	uint64_t offset;      /* bytes taken so far (uncompressed) */
	char io_error[512];   /* a read error, reported by amd_csv_next */
	int next_line;        /* line number at p */
	int line;             /* line the current record starts on */
	int trim;             /* 1: drop blanks around unquoted fields */
	char **field;         /* the current record's fields (NUL-terminated) */
	size_t n;             /* how many */
	int unended;          /* the record ends the data with no line end after it */
	char *text;           /* storage behind field[] */
	size_t text_cap, field_cap;
};

/* Starts streaming the file at path (gunzipped when gzipped). */
int amd_csv_open(struct amd_csv *c, const char *path, int trim, struct amd_err *err);
/* Starts reading data[0..len) (not copied; must outlive the reader). */
void amd_csv_init(struct amd_csv *c, const char *path, const char *data, size_t len,
		  int trim);
/* Reads the next record into c->field/c->n. Returns 1 for a record, 0 at
 * the end, -1 on error ("PATH: line N: unterminated quoted field"). Blank
 * lines are skipped. */
int amd_csv_next(struct amd_csv *c, struct amd_err *err);
void amd_csv_free(struct amd_csv *c); /* also closes the file */

/* Index of the header field named name (exact match), or -1. */
int amd_csv_find(const struct amd_csv *c, const char *name);

/* Keeps an error message one line when it quotes input: control
 * characters (a newline inside a quoted field) become '?'. Returns -1. */
int amd_err_one_line(struct amd_err *err);

/* A number with an optional unit after it: "75.29 W", "0 %", "0 MiB",
 * "12.5" (units are letters, '%' and '/'). "N/A" and a status in
 * brackets, "[N/A]", "[Not Supported]", "[GPU is lost]" (nvidia-smi's
 * "no value": words, no digits) give NAN. Returns 0, or -1
 * when s is not a number. */
int amd_parse_unit_double(const char *s, double *out);
/* The same, giving the unit's text too ("" when there is none, or for a
 * "no value"), truncated to unit_size - 1 bytes. */
int amd_parse_value_unit(const char *s, double *out, char *unit, size_t unit_size);

/* The fraction after a timestamp's seconds (".177", ".5", ".123456"): its
 * first three digits as milliseconds in *ms (0 when p has no '.').
 * Returns the place after the digits. */
const char *amd_parse_frac_ms(const char *p, int64_t *ms);

#endif
