/* pyspy_stack.h — what the py-spy parsers share: reading one frame's
 * text ("name (file:line)", "name (file)", bare), the root frames py-spy
 * adds with -s ("process PID:\"cmdline\"") and -t ("thread (TID): name"),
 * splitting a collapsed line "frame;frame;… COUNT", an accumulator
 * that merges identical stacks before they go to the sink, and the
 * regions of their functions. */
#ifndef AMD_PYSPY_STACK_H
#define AMD_PYSPY_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "ingest.h"
#include "sink.h"

/* py-spy's default sampling rate (py-spy record --rate), used when
 * neither --rate nor the file says otherwise. */
#define AMD_PYSPY_DEFAULT_RATE 100.0
/* Bounds that keep sums in int64: a rate above 1 MHz, a count, a stack's
 * samples above 1e15, a weight or time above 1e9 s are refused. */
#define AMD_PYSPY_MAX_RATE 1e6
#define AMD_PYSPY_MAX_SAMPLES 1e15
#define AMD_PYSPY_MAX_SECONDS 1e9

/* A stack being built; frame texts point into a caller's buffer. */
struct amd_pyspy_stack {
	struct amd_stack_frame *frames; /* root first */
	size_t depth, cap;
	const char *process, *thread;   /* NULL when the stack does not say */
};

/* Parses one frame's text in place (s is modified): "name (file:line)",
 * "name (file)" or a bare name. Returns 0, or -1 with *why set. */
int amd_pyspy_parse_frame(char *s, struct amd_stack_frame *f, const char **why);

/* If s is py-spy's -s root frame `process PID:"cmdline"` (also the old
 * `… ()` and `… (:0)` forms), rewrites it in place to "PID cmdline" and
 * returns 1; else 0. */
int amd_pyspy_process_frame(char *s);
/* If s is py-spy's -t frame `thread (TID): name` or `thread (TID)`,
 * rewrites it in place to "TID name" (or "TID") and returns 1; else 0. */
int amd_pyspy_thread_frame(char *s);

/* Splits a collapsed line "frame;frame;… COUNT" in place into st
 * (process/thread root frames taken out; a `;` inside a process's
 * quoted command line is kept) and *count. Returns 0, or -1 with *why. */
int amd_pyspy_parse_collapsed(char *line, struct amd_pyspy_stack *st, int64_t *count,
			      const char **why);

/* The deepest stack read: Python's default recursion limit is 1000
 * frames, and a stack of 100 k frames (an absurd dump) would otherwise
 * be held, merged and stored whole. */
#define AMD_PYSPY_MAX_DEPTH 4096

int amd_pyspy_push(struct amd_pyspy_stack *st, const struct amd_stack_frame *f);
/* amd_pyspy_push for a frame read from a file: NULL when pushed, else
 * why not ("out of memory", or a stack deeper than AMD_PYSPY_MAX_DEPTH). */
const char *amd_pyspy_push_why(struct amd_pyspy_stack *st, const struct amd_stack_frame *f);
void amd_pyspy_stack_free(struct amd_pyspy_stack *st);

/* Merges identical stacks (same frames, process and thread): samples and
 * seconds add up. amd_pyspy_acc_flush sends each merged stack to the
 * sink, in a stable order. */
struct amd_pyspy_acc;
struct amd_pyspy_acc *amd_pyspy_acc_new(void);
int amd_pyspy_acc_add(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st,
		      int64_t samples, double seconds);
/* The place of a stack in the accumulator (-1: out of memory), to add
 * to it again without reading its frames: amd_pyspy_acc_add is
 * amd_pyspy_acc_add_at(a, amd_pyspy_acc_place(a, st), …). */
int64_t amd_pyspy_acc_place(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st);
int amd_pyspy_acc_add_at(struct amd_pyspy_acc *a, int64_t place, int64_t samples,
			 double seconds);
/* Adds a stack whose samples are derived at flush from seconds × rate
 * (time-weighted formats); the unit is 1 µs. */
int amd_pyspy_acc_add_us(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st,
			 int64_t us);
/* A stack's place built a frame at a time, for a reader that keeps each
 * thread's places as its frames open and close (chrometrace), or whose
 * stacks form a tree and so place each node once (the flame graph SVG),
 * instead of handing amd_pyspy_acc_add_us the whole stack at every event: the root
 * of st's process and thread, then the place of frame f under place.
 * Taken in the order amd_pyspy_acc_add_us would (root, then frames
 * outward, when time is first added), they intern the same frames and
 * nodes in the same order. -1 when out of memory. */
int64_t amd_pyspy_acc_root(struct amd_pyspy_acc *a, const struct amd_pyspy_stack *st);
int64_t amd_pyspy_acc_child(struct amd_pyspy_acc *a, int64_t place,
			    const struct amd_stack_frame *f);
/* amd_pyspy_acc_add_us at a place amd_pyspy_acc_child gave. */
void amd_pyspy_acc_add_us_at(struct amd_pyspy_acc *a, int64_t place, int64_t us);
int amd_pyspy_acc_flush(struct amd_pyspy_acc *a, double rate, struct amd_sink *sink,
			const char *path, struct amd_err *err);
size_t amd_pyspy_acc_count(const struct amd_pyspy_acc *a);
/* A parse's end: when rc is 0, "PATH: <if_empty>" if no stack was added,
 * else amd_pyspy_acc_flush's result; rc itself when it is not 0. */
int amd_pyspy_acc_finish(struct amd_pyspy_acc *a, int rc, const char *if_empty, double rate,
			 struct amd_sink *sink, const char *path, struct amd_err *err);
void amd_pyspy_acc_free(struct amd_pyspy_acc *a);

/* The regions of a unit's Python functions (pyspy_funcs.c): each merged
 * stack counted as it goes to the sink (self time for the leaf's
 * function, total time once for every function in it), then one region
 * per function (name and file; kind function, profiler py-spy).
 * amd_pyspy_acc_flush does both; the texts must outlive the emit. */
struct amd_pyspy_funcs;
struct amd_pyspy_funcs *amd_pyspy_funcs_new(void);
int amd_pyspy_funcs_count(struct amd_pyspy_funcs *f, const struct amd_stack_rec *r);
int amd_pyspy_funcs_emit(struct amd_pyspy_funcs *f, struct amd_sink *sink, struct amd_err *err);
void amd_pyspy_funcs_free(struct amd_pyspy_funcs *f);

/* The sampling rate to use: --rate, else what the file says (0: says
 * nothing), else py-spy's default. */
double amd_pyspy_rate(const struct amd_input *in, double file_rate);

#endif
