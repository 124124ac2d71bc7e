/* sentences.h — a list of sentences (findings, data gaps, notes). Out
 * of memory marks the list failed; report build checks it once and
 * fails rather than print a report with sentences missing. */
#ifndef AMD_REPORT_SENTENCES_H
#define AMD_REPORT_SENTENCES_H

#include <stddef.h>

struct report_text {
	char **v;
	size_t n, cap;
	int failed; /* a sentence was lost: out of memory */
};

/* Appends the formatted sentence; -1 (and failed set) when out of memory. */
int report_text_add(struct report_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_text_free(struct report_text *t);

#endif
