/* file.c — opening and reading input files (gunzipped when gzipped,
 * whole, a slice at a time, line by line in bounded memory) and path
 * helpers; see file.h. */
#include "file.h"
#include "text16.h"
#include "huge_map.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

int amd_open_regular(const char *path, struct amd_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return amd_fail(err, "%s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return amd_fail(err, "%s: not a regular file", path);
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

#define READ_BUFFER (1u << 17)
_Static_assert(2 * (size_t)READ_BUFFER <= AMD_STREAM_SLICE_MIN, "a stream's slice is twice zlib's buffer");
/* A head (detection: AMD_HEAD_BYTES): with READ_BUFFER zlib inflated
 * 256 KB of every gzipped file to detect its format, all of a small
 * trace, before its reader began. */
#define HEAD_BUFFER 4096u

static int fd_is_gzip(int fd)
{
	unsigned char m[2];
	return pread(fd, m, 2, 0) == 2 && m[0] == 0x1f && m[1] == 0x8b;
}

/* The smallest buffer zlib is given: a file smaller than bufsize gets
 * one just larger than itself, so a 10-byte MLflow param is not read
 * through 3 x 128 KB of zlib's buffers (three mmaps and munmaps a file;
 * under ASan each maps and clears its shadow). */
#define SMALL_BUFFER 4096u

/* gzdopen on a regular file, reading at most bufsize bytes at a time
 * (zlib inflates twice that per refill); the gzFile owns fd; the file's
 * size in *size unless size is NULL. */
static gzFile open_gz(const char *path, int *gz, unsigned bufsize, off_t *size,
		      struct amd_err *err)
{
	int fd = amd_open_regular(path, err);
	if (fd < 0)
		return NULL;
	struct stat st;
	off_t bytes = fstat(fd, &st) == 0 ? st.st_size : 0;
	if (size)
		*size = bytes;
	if (bytes >= 0 && (uint64_t)bytes < bufsize)
		bufsize = (unsigned)bytes < SMALL_BUFFER ? SMALL_BUFFER : (unsigned)bytes + 1;
	*gz = fd_is_gzip(fd);
	gzFile g = gzdopen(fd, "rb");
	if (!g) {
		close(fd);
		amd_fail(err, "%s: cannot open", path);
		return NULL;
	}
	gzbuffer(g, bufsize);
	return g;
}

/* After gzread returned n <= 0: -1 with err filled when that was an
 * error (including a gzip stream that ends early), else 0. */
static int gz_check(gzFile g, const char *path, int n, int gz, struct amd_err *err)
{
	int zerr = Z_OK;
	const char *m = gzerror(g, &zerr);
	if (n < 0 || (gz && zerr != Z_OK && zerr != Z_STREAM_END))
		return amd_fail(err, "%s: byte %ld: %s", path, (long)gzoffset(g),
				zerr == Z_BUF_ERROR ? "truncated gzip data" : m);
	return 0;
}

/* Closes g after its last read (n: what that read returned; rc: the
 * reading's result before it): gz_check's error for a failed read, one
 * for a gzip stream gzclose finds cut short, else rc. */
static int gz_end(gzFile g, const char *path, int n, int gz, int rc, struct amd_err *err)
{
	if (rc == 0)
		rc = n == -2 ? -1 : gz_check(g, path, n, gz, err);
	if (gzclose(g) != Z_OK && gz && rc == 0)
		rc = amd_fail(err, "%s: truncated gzip data", path);
	return rc;
}

int amd_read_file(const char *path, size_t max_bytes, struct amd_buf *out,
		  struct amd_err *err)
{
	int gz = 0;
	off_t size = 0;
	gzFile g = open_gz(path, &gz, READ_BUFFER, &size, err);
	if (!g)
		return -1;
	const size_t step = (size_t)1 << 20; /* read straight into the buffer: one copy */
	/* a plain file's size known: its buffer made once, not regrown as it
	 * fills, and no larger than the file and the byte that shows its end
	 * (a file that grows meanwhile reads on in steps) */
	size_t first = step;
	if (!gz && size > 0 && (uint64_t)size < max_bytes)
		first = (size_t)size + 1;
	int n = 0, rc = 0;
	struct amd_textread t = {0};
	out->len = 0;
	if (amd_grow_to(&out->data, first + 1, &out->cap, 1, first + 1) < 0)
		rc = amd_fail(err, "%s: out of memory", path);
	else /* a big file's buffer in 2 MB pages: one fault each, not 512 */
		amd_huge_hint(out->data, out->cap);
	while (rc == 0) {
		/* room for the next read: a byte (at the end, to see the end),
		 * a whole UTF-8 character when UTF-16 is converted */
		size_t least = amd_text_was_utf16(&t) ? 4 : 1;
		if (out->cap - out->len - 1 < least &&
		    amd_grow_to(&out->data, out->len + step + 1, &out->cap, 1, step + 1) < 0) {
			rc = amd_fail(err, "%s: out of memory", path);
			break;
		}
		size_t room = out->cap - out->len - 1;
		out->data[out->len] = '\0';
		if ((n = amd_text_gzread(g, &t, (unsigned char *)out->data + out->len,
					 (unsigned)(room < step ? room : step), path, err)) <= 0)
			break;
		if (out->len + (size_t)n > max_bytes)
			rc = amd_fail(err, "%s: larger than the limit of %zu bytes%s", path,
				      max_bytes, gz ? " once decompressed" : "");
		out->len += (size_t)n;
		out->data[out->len] = '\0';
	}
	rc = gz_end(g, path, n, gz, rc, err);
	amd_textread_free(&t);
	if (rc < 0)
		amd_buf_free(out); /* on failure the caller has nothing to free */
	return rc;
}

struct amd_stream {
	gzFile g;
	const char *path;
	int gz, ended;
	size_t max_bytes, total;
	struct amd_textread t;
};

struct amd_stream *amd_stream_open(const char *path, size_t max_bytes, struct amd_err *err)
{
	struct amd_stream *s = calloc(1, sizeof *s);
	if (!s) {
		amd_fail(err, "%s: out of memory", path);
		return NULL;
	}
	*s = (struct amd_stream){.path = path, .max_bytes = max_bytes};
	if (!(s->g = open_gz(path, &s->gz, READ_BUFFER, NULL, err))) {
		free(s);
		return NULL;
	}
	return s;
}

/* The end of the stream as amd_read_file ends: 0, or -1 with err. */
static int stream_end(struct amd_stream *s, int n, struct amd_err *err)
{
	s->ended = 1;
	int rc = gz_end(s->g, s->path, n, s->gz, 0, err);
	s->g = NULL;
	return rc;
}

long amd_stream_read(struct amd_stream *s, char *buf, size_t n, struct amd_err *err)
{
	if (s->ended)
		return 0;
	if (n < AMD_STREAM_SLICE_MIN)
		return amd_fail(err, "%s: a read of %zu bytes, under %zu", s->path, n,
				AMD_STREAM_SLICE_MIN);
	unsigned ask = n < (size_t)1 << 30 ? (unsigned)n : 1u << 30;
	int got = amd_text_gzread(s->g, &s->t, (unsigned char *)buf, ask, s->path, err);
	if (got <= 0)
		return stream_end(s, got, err);
	if (s->total + (size_t)got > s->max_bytes) {
		stream_end(s, 0, err);
		return amd_fail(err, "%s: larger than the limit of %zu bytes%s", s->path,
				s->max_bytes, s->gz ? " once decompressed" : "");
	}
	s->total += (size_t)got;
	return got;
}

void amd_stream_close(struct amd_stream *s)
{
	if (!s)
		return;
	if (s->g)
		gzclose(s->g);
	amd_textread_free(&s->t);
	free(s);
}

struct amd_lines {
	gzFile g;
	char *path;
	int gz, eof;
	char *buf;
	size_t cap, start, end; /* buf[start, end) not yet returned */
	size_t max_line;
	uint64_t max_bytes, total;
	long line;
	int unended; /* the line last returned had no newline: the file's end */
	struct amd_textread text; /* UTF-16 read as UTF-8 */
};

struct amd_lines *amd_lines_open(const char *path, size_t max_line, uint64_t max_bytes,
				 struct amd_err *err)
{
	struct amd_lines *l = calloc(1, sizeof *l);
	if (!l || !(l->path = strdup(path)) || !(l->buf = malloc(max_line + 2))) {
		amd_lines_close(l);
		amd_fail(err, "%s: out of memory", path);
		return NULL;
	}
	l->cap = max_line + 1; /* room for the longest line and its newline */
	l->max_line = max_line;
	l->max_bytes = max_bytes;
	if (!(l->g = open_gz(path, &l->gz, READ_BUFFER, NULL, err))) {
		amd_lines_close(l);
		return NULL;
	}
	return l;
}

static int lines_fill(struct amd_lines *l, struct amd_err *err)
{
	if (l->start > 0) {
		memmove(l->buf, l->buf + l->start, l->end - l->start);
		l->end -= l->start;
		l->start = 0;
	}
	int n = amd_text_gzread(l->g, &l->text, (unsigned char *)l->buf + l->end,
				(unsigned)(l->cap - l->end), l->path, err);
	if (n <= 0) {
		l->eof = 1;
		return n == -2 ? -1 : gz_check(l->g, l->path, n, l->gz, err);
	}
	l->total += (uint64_t)n;
	if (l->total > l->max_bytes)
		return amd_fail(err, "%s: larger than the limit of %llu bytes%s", l->path,
				(unsigned long long)l->max_bytes,
				l->gz ? " once decompressed" : "");
	l->end += (size_t)n;
	return 0;
}

int amd_lines_next(struct amd_lines *l, char **line, size_t *len, struct amd_err *err)
{
	for (;;) {
		char *s = l->buf + l->start;
		char *nl = memchr(s, '\n', l->end - l->start);
		if (nl || (l->eof && l->end > l->start)) {
			size_t n = nl ? (size_t)(nl - s) : l->end - l->start;
			l->line++;
			if (n > l->max_line)
				break;
			s[n] = '\0';
			l->start += n + (nl ? 1 : 0);
			l->unended = !nl;
			*line = s;
			*len = n;
			return 1;
		}
		if (l->eof)
			return 0;
		if (l->end - l->start >= l->cap) {
			l->line++;
			break;
		}
		if (lines_fill(l, err) < 0)
			return -1;
	}
	return amd_fail(err, "%s: line %ld: longer than the limit of %zu bytes", l->path,
			l->line, l->max_line);
}

long amd_lines_number(const struct amd_lines *l)
{
	return l->line;
}

int amd_lines_unended(const struct amd_lines *l)
{
	return l->unended;
}

void amd_lines_close(struct amd_lines *l)
{
	if (!l)
		return;
	if (l->g)
		gzclose(l->g);
	amd_textread_free(&l->text);
	free(l->path);
	free(l->buf);
	free(l);
}

/* Fills err with zlib's reason a read of g failed (a wrong CRC-32 or
 * ISIZE named as such) and the compressed byte it reached. */
static void gz_read_fail(gzFile g, int gz, const char *path, struct amd_err *err)
{
	int zerr = 0;
	const char *why = gzerror(g, &zerr);
	const char *tail = why ? strstr(why, ">: ") : NULL; /* "<fd:3>: " */
	why = tail ? tail + 3 : why;
	if (why && strcmp(why, "incorrect data check") == 0)
		why = "its CRC-32 does not match the data (a damaged file)";
	else if (why && strcmp(why, "incorrect length check") == 0)
		why = "its ISIZE does not match the data's length (a damaged or cut file)";
	amd_fail(err, "%s: compressed byte %lld: cannot read%s: %s", path, (long long)gzoffset(g),
		 gz ? " the gzip stream" : "", zerr == Z_ERRNO ? strerror(errno) : why && *why ? why : "damaged");
}

/* The first n (>= 4) bytes of a text stream, reading until n or the end:
 * one read gives less when a byte-order mark was skipped or UTF-16 was
 * converted, and detectors take a head shorter than n for the whole file.
 * The last few bytes go through a 4-byte piece, room for any UTF-8
 * character. Returns the bytes read or amd_text_gzread's -1/-2. */
static long text_head(gzFile g, struct amd_textread *t, unsigned char *head, size_t n,
		      const char *path, struct amd_err *err)
{
	size_t got = 0;
	while (got < n) {
		unsigned char piece[4];
		size_t room = n - got;
		unsigned char *to = room >= sizeof piece ? head + got : piece;
		int k = amd_text_gzread(g, t, to, (unsigned)(room >= sizeof piece ? room : sizeof piece),
					path, err);
		if (k < 0)
			return k;
		if (k == 0)
			break;
		size_t take = (size_t)k < room ? (size_t)k : room;
		if (to == piece)
			memcpy(head + got, piece, take);
		got += take;
	}
	return (long)got;
}

long amd_read_head(const char *path, unsigned char *head, size_t n,
		   struct amd_err *err)
{
	int gz = 0;
	gzFile g = open_gz(path, &gz, HEAD_BUFFER, NULL, err);
	if (!g)
		return -1;
	struct amd_textread t = {0};
	long got = n >= 4 ? text_head(g, &t, head, n, path, err) : gzread(g, head, (unsigned)n);
	amd_textread_free(&t);
	if (got == -1)
		gz_read_fail(g, gz, path, err);
	gzclose(g);
	return got < 0 ? -1 : got;
}

int amd_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int amd_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

void amd_path_run_folder(const char *path, const char **name, size_t *n)
{
	const char *end = NULL;
	for (const char *a = strstr(path, "/artifacts/"); a; a = strstr(a + 1, "/artifacts/"))
		end = a;
	if (!end)
		end = strstr(path, "/torch-traces/");
	const char *start = end;
	while (start && start > path && start[-1] != '/')
		start--;
	*name = start ? start : path;
	*n = start ? (size_t)(end - start) : 0;
}

int amd_same_run_folder(const char *held, const char *path)
{
	const char *a, *b;
	size_t na, nb;
	amd_path_run_folder(held, &a, &na);
	amd_path_run_folder(path, &b, &nb);
	return na == nb && memcmp(a, b, na) == 0;
}

char *amd_path_join(const char *a, const char *b)
{
	size_t la = strlen(a);
	while (la > 1 && a[la - 1] == '/')
		la--;
	size_t lb = strlen(b);
	char *p = malloc(la + lb + 2);
	if (!p)
		return NULL;
	memcpy(p, a, la);
	p[la] = '/';
	memcpy(p + la + 1, b, lb + 1);
	return p;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int amd_list_dir(const char *dir, char ***names, size_t *n, struct amd_err *err)
{
	*names = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return amd_fail(err, "%s: %s", dir, strerror(errno));
	size_t cap = 0;
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (amd_grow(names, *n, &cap, sizeof **names, 32) < 0 ||
		    !((*names)[*n] = strdup(e->d_name)))
			rc = amd_fail(err, "%s: out of memory", dir);
		else
			(*n)++;
	}
	closedir(d);
	if (rc < 0) {
		amd_names_free(*names, *n);
		*names = NULL;
		*n = 0;
		return -1;
	}
	if (*n)
		qsort(*names, *n, sizeof **names, cmp_name);
	return 0;
}

void amd_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

const char *amd_basename(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The places templates/<name> may be, most wanted first, into cand
 * (room for 5); their count, or -1 out of memory. Beside the binary:
 * PREFIX/bin/amdahl and PREFIX/libexec/amdahl/amdahl-report (the helper
 * that draws, cmd/main.c) both find PREFIX/share/amdahl/templates. */
static int template_candidates(const char *name, char *cand[5])
{
	const char *env = getenv("AMDAHL_TEMPLATES");
	char exe[PATH_MAX];
	int n = 0, oom = 0;
	if (env && *env)
		oom |= !(cand[n++] = amd_path_join(env, name));
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[len > 0 ? len : 0] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash) {
		*slash = '\0';
		const char *dirs[] = {"../share/amdahl/templates", "../../share/amdahl/templates",
				      "../templates"};
		for (int i = 0; i < 3; i++) {
			char *dir = amd_path_join(exe, dirs[i]);
			oom |= !dir || !(cand[n++] = amd_path_join(dir, name));
			free(dir);
		}
	}
	oom |= !(cand[n++] = amd_path_join("templates", name));
	if (!oom)
		return n;
	for (int i = 0; i < n; i++)
		free(cand[i]);
	return -1;
}

int amd_template_find(const char *name, char **out, struct amd_err *err)
{
	char *cand[5] = {0};
	int n = template_candidates(name, cand);
	*out = NULL;
	if (n < 0)
		return amd_fail(err, "templates/%s: out of memory", name);
	for (int i = 0; i < n; i++) {
		if (!*out && amd_is_file(cand[i]))
			*out = cand[i];
		else
			free(cand[i]);
	}
	return *out ? 0 : amd_fail(err, "templates/%s: not found (set AMDAHL_TEMPLATES)", name);
}

char *amd_template_path(const char *name)
{
	char *path;
	return amd_template_find(name, &path, NULL) < 0 ? NULL : path;
}
