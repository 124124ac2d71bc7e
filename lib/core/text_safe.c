/* text_safe.c — valid UTF-8, escaped Markdown and visible lines, on
 * GLib's UTF-8 validation (g_utf8_validate_len,
 * g_utf8_get_char_validated) without its aborting allocators; see
 * text_safe.h. */
#include "text_safe.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

int amd_utf8_valid(struct amd_buf *out, const char *s, size_t len)
{
	const char *end = s + len;
	while (s < end) {
		const char *stop = NULL;
		if (g_utf8_validate_len(s, (gsize)(end - s), &stop))
			return amd_buf_append(out, s, (size_t)(end - s));
		if (amd_buf_append(out, s, (size_t)(stop - s)) < 0 ||
		    amd_buf_append(out, REPLACEMENT, 3) < 0)
			return -1;
		s = stop + 1;
	}
	return amd_buf_append(out, "", 0);
}

char *amd_utf8_valid_dup(const char *s)
{
	struct amd_buf b = {0};
	if (amd_utf8_valid(&b, s, strlen(s)) < 0) {
		amd_buf_free(&b);
		return NULL;
	}
	return b.data;
}

static const char md_special[] = "\\`*_[]<>|#~!&";

/* An underscore between two letters or digits ("global_batch_size")
 * opens no emphasis in CommonMark and is left as it is. */
static int intraword_underscore(const char *start, const char *p)
{
	return *p == '_' && p > start && g_ascii_isalnum(p[-1]) && g_ascii_isalnum(p[1]);
}

int amd_md_escape(struct amd_buf *out, const char *s)
{
	char *valid = amd_utf8_valid_dup(s);
	if (!valid)
		return -1;
	int rc = 0;
	for (const char *p = valid; *p && rc == 0; p++) {
		if (*p == '\n' || *p == '\r')
			rc = amd_buf_append(out, " ", 1);
		else if (strchr(md_special, *p) && !intraword_underscore(valid, p))
			rc = amd_buf_printf(out, "\\%c", *p);
		else
			rc = amd_buf_append(out, p, 1);
	}
	free(valid);
	return rc == 0 ? amd_buf_append(out, "", 0) : -1; /* out->data is a string, even empty */
}

void amd_md_unescape(char *s)
{
	char *w = s;
	for (const char *r = s; *r; r++) {
		if (*r == '\\' && r[1] && strchr(md_special, r[1]))
			r++;
		*w++ = *r;
	}
	*w = '\0';
}

/* A character Unicode says ends a line (line break classes BK, CR, LF,
 * NL: U+2028, U+2029 besides the C0 and C1 ones), which a terminal may
 * break the line at. */
static int breaks_line(gunichar c)
{
	GUnicodeBreakType t = g_unichar_break_type(c);
	return t == G_UNICODE_BREAK_MANDATORY || t == G_UNICODE_BREAK_CARRIAGE_RETURN ||
	       t == G_UNICODE_BREAK_LINE_FEED || t == G_UNICODE_BREAK_NEXT_LINE;
}

/* A bidirectional embedding, override or isolate (U+202A..U+202E,
 * U+2066..U+2069): it reorders what follows it on the terminal's line,
 * so a name holding one could make a table row read as another
 * ("Trojan Source"). The marks U+200E, U+200F and U+061C reorder nothing
 * and stay. */
static int reorders_line(gunichar c)
{
	return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

int amd_visible_line(struct amd_buf *out, const char *s)
{
	int rc = 0;
	size_t len = strlen(s);
	for (const char *p = s, *end = s + len; p < end && rc == 0;) {
		gunichar c = g_utf8_get_char_validated(p, (gssize)(end - p));
		if (c == (gunichar)-1 || c == (gunichar)-2) {
			rc = amd_buf_printf(out, "\\x%02X", (unsigned char)*p);
			p++;
			continue;
		}
		int n = g_utf8_skip[*(const unsigned char *)p];
		if (c == '\t')
			rc = amd_buf_append(out, " ", 1);
		else if (c < 0x20 || c == 0x7f)
			rc = amd_buf_printf(out, "\\x%02X", (unsigned)c);
		else if ((c >= 0x80 && c < 0xa0) || breaks_line(c) || reorders_line(c))
			rc = amd_buf_printf(out, "\\u%04X", (unsigned)c);
		else
			rc = amd_buf_append(out, p, (size_t)n);
		p += n;
	}
	return rc == 0 ? amd_buf_append(out, "", 0) : -1;
}
