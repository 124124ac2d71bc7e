/* csv.h — the CSV reader the CSV parsers share (RFC 4180: quoted fields
 * may hold commas, newlines and doubled quotes; CRLF or LF line ends),
 * over an in-memory buffer, with the line each record starts on for
 * error messages. Also the number parser for values that carry a unit
 * ("75.29 W", "0 %", "[N/A]") as nvidia-smi writes them. */
#ifndef AMD_CSV_H
#define AMD_CSV_H

#include <stddef.h>

#include "err.h"

struct amd_csv {
	const char *path;     /* for error messages */
	const char *p, *end;  /* the unread rest of the buffer */
	int next_line;        /* line number at p */
	int line;             /* line the current record starts on */
	int trim;             /* 1: drop blanks around unquoted fields */
	char **field;         /* the current record's fields (NUL-terminated) */
	size_t n;             /* how many */
	char *text;           /* storage behind field[] */
	size_t text_cap, field_cap;
};

/* Starts reading data[0..len) (not copied; must outlive the reader). */
void amd_csv_init(struct amd_csv *c, const char *path, const char *data, size_t len,
		  int trim);
/* Reads the next record into c->field/c->n. Returns 1 for a record, 0 at
 * the end, -1 on error ("PATH: line N: unterminated quoted field"). Blank
 * lines are skipped. */
int amd_csv_next(struct amd_csv *c, struct amd_err *err);
void amd_csv_free(struct amd_csv *c);

/* Index of the header field named name (exact match), or -1. */
int amd_csv_find(const struct amd_csv *c, const char *name);

/* Keeps an error message one line when it quotes input: control
 * characters (a newline inside a quoted field) become '?'. Returns -1. */
int amd_err_one_line(struct amd_err *err);

/* A number with an optional unit after it: "75.29 W", "0 %", "0 MiB",
 * "12.5" (units are letters, '%' and '/'). "[N/A]", "N/A" and
 * "[Not Supported]" (nvidia-smi's "no value") give NAN. Returns 0, or -1
 * when s is not a number. */
int amd_parse_unit_double(const char *s, double *out);

#endif
