/* text_safe.h — text made safe for where it goes, on GLib's UTF-8
 * functions: valid UTF-8 for JSON, XML and HTML (an invalid byte
 * becomes U+FFFD), Markdown with its syntax escaped, and one visible
 * line for a terminal (control characters and invalid bytes escaped). */
#ifndef AMD_TEXT_SAFE_H
#define AMD_TEXT_SAFE_H

#include "buf.h"

/* Appends s with every invalid UTF-8 byte replaced by U+FFFD; -1 when
 * out of memory. */
int amd_utf8_valid(struct amd_buf *out, const char *s, size_t len);
/* s as valid UTF-8 (malloc'd), NULL when out of memory. */
char *amd_utf8_valid_dup(const char *s);
/* Appends s (made valid UTF-8) with Markdown's syntax characters
 * backslash-escaped (\ ` * _ [ ] < > | # ~ ! &; an underscore inside a
 * word, which opens nothing, is kept), newlines as spaces, so names
 * cannot open a tag, a code span or a table cell. */
int amd_md_escape(struct amd_buf *out, const char *s);
/* Undoes amd_md_escape's backslashes in place (a reader of summary.md). */
void amd_md_unescape(char *s);
/* Appends s as one visible line: control characters (C0, DEL, C1) and
 * invalid UTF-8 bytes as \xNN (\u00NN for C1), the line and paragraph
 * separators (U+2028, U+2029: Unicode's other mandatory line breaks) as
 * \u2028 and \u2029, so an error line or a table cell cannot carry
 * terminal escape sequences or break where a terminal would. */
int amd_visible_line(struct amd_buf *out, const char *s);

#endif
