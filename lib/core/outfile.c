/* outfile.c — output files written atomically inside a directory,
 * never through a symbolic link; see outfile.h. */
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "file.h"

/* The temporary files open now, for amd_out_remove_pending (a signal
 * handler's): a slot is claimed by compare-and-swap of its state, filled,
 * then published; the handler reads only published slots. */
#define PENDING_SLOTS 64
enum { SLOT_FREE, SLOT_FILLING, SLOT_PUBLISHED };
static struct pending_tmp {
	int state;
	int dirfd;
	char name[256];
} pending[PENDING_SLOTS];

/* The slot now naming o's temporary file, or -1 (all taken: the file is
 * then not removed on a signal, as before). */
static int pending_add(int dirfd, const char *name)
{
	if (strlen(name) >= sizeof pending[0].name)
		return -1;
	for (int i = 0; i < PENDING_SLOTS; i++) {
		int free_state = SLOT_FREE;
		if (!__atomic_compare_exchange_n(&pending[i].state, &free_state, SLOT_FILLING, 0,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			continue;
		pending[i].dirfd = dirfd;
		strcpy(pending[i].name, name);
		__atomic_store_n(&pending[i].state, SLOT_PUBLISHED, __ATOMIC_RELEASE);
		return i;
	}
	return -1;
}

static void pending_drop(int slot)
{
	if (slot >= 0)
		__atomic_store_n(&pending[slot].state, SLOT_FREE, __ATOMIC_RELEASE);
}

void amd_out_remove_pending(void)
{
	for (int i = 0; i < PENDING_SLOTS; i++)
		if (__atomic_load_n(&pending[i].state, __ATOMIC_ACQUIRE) == SLOT_PUBLISHED)
			unlinkat(pending[i].dirfd, pending[i].name, 0);
}

/* The directory holding the last component of rel, opened from dir
 * without following links in rel (made when make is set); *last points
 * at rel's last component. */
static int open_parent(const char *dir, const char *rel, int make, const char **last,
		       struct amd_err *err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return amd_fail(err, "%s: %s", dir, strerror(errno));
	const char *p = rel;
	for (const char *slash; (slash = strchr(p, '/')); p = slash + 1) {
		char comp[256];
		size_t n = (size_t)(slash - p);
		if (n == 0 || n >= sizeof comp) {
			close(fd);
			return amd_fail(err, "%s/%s: not a usable name", dir, rel);
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (make && mkdirat(fd, comp, 0777) != 0 && errno != EEXIST) {
			close(fd);
			return amd_fail(err, "%s/%.*s: %s", dir, (int)(slash - rel), rel,
					strerror(errno));
		}
		int sub = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		if (sub < 0)
			return amd_fail(err, "%s/%.*s: %s", dir, (int)(slash - rel), rel,
					e == ELOOP || e == ENOTDIR ? "not a directory (symbolic links "
								     "are not followed in an output directory)"
								   : strerror(e));
		fd = sub;
	}
	if (!*p || strcmp(p, ".") == 0 || strcmp(p, "..") == 0) {
		close(fd);
		return amd_fail(err, "%s/%s: not a usable name", dir, rel);
	}
	*last = p;
	return fd;
}

static void out_free(struct amd_out *o)
{
	pending_drop(o->slot);
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->shown);
	free(o->name);
	free(o->tmp);
	memset(o, 0, sizeof *o);
	o->dirfd = -1;
	o->slot = -1;
}

/* Refuses a final name that is a link or a directory. */
static int check_final(struct amd_out *o, struct amd_err *err)
{
	struct stat st;
	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : amd_fail(err, "%s: %s", o->shown, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return amd_fail(err, "%s: is a symbolic link; amdahl does not write through "
				     "links in an output directory (remove it first)",
				o->shown);
	if (S_ISDIR(st.st_mode))
		return amd_fail(err, "%s: is a directory", o->shown);
	return 0;
}

static int create_tmp(struct amd_out *o, struct amd_err *err)
{
	size_t len = strlen(o->name) + 32;
	o->tmp = malloc(len);
	if (!o->tmp)
		return amd_fail(err, "%s: out of memory", o->shown);
	unsigned seed = (unsigned)getpid() ^ (unsigned)time(NULL) ^ (unsigned)(size_t)o;
	for (int attempt = 0; attempt < 100; attempt++) {
		seed = seed * 1103515245u + 12345u;
		snprintf(o->tmp, len, ".%s.tmp%08x", o->name, seed);
		int fd = openat(o->dirfd, o->tmp,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return amd_fail(err, "%s: %s", o->shown, strerror(errno));
		o->slot = pending_add(o->dirfd, o->tmp);
		o->f = fdopen(fd, "wb");
		if (!o->f) {
			close(fd);
			unlinkat(o->dirfd, o->tmp, 0);
			return amd_fail(err, "%s: out of memory", o->shown);
		}
		return 0;
	}
	return amd_fail(err, "%s: cannot create a temporary file beside it", o->shown);
}

int amd_out_open(struct amd_out *o, const char *dir, const char *rel, struct amd_err *err)
{
	memset(o, 0, sizeof *o);
	o->slot = -1;
	const char *last = NULL;
	o->dirfd = open_parent(dir, rel, 0, &last, err);
	if (o->dirfd < 0)
		return -1;
	o->shown = amd_path_join(dir, rel);
	o->name = strdup(last);
	if (!o->shown || !o->name) {
		out_free(o);
		return amd_fail(err, "%s/%s: out of memory", dir, rel);
	}
	if (check_final(o, err) < 0 || create_tmp(o, err) < 0) {
		out_free(o);
		return -1;
	}
	return 0;
}

int amd_out_open_path(struct amd_out *o, const char *path, struct amd_err *err)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return amd_out_open(o, ".", path, err);
	size_t n = slash == path ? 1 : (size_t)(slash - path);
	char *dir = strndup(path, n);
	if (!dir)
		return amd_fail(err, "%s: out of memory", path);
	int rc = amd_out_open(o, dir, slash + 1, err);
	if (rc == 0) { /* messages name the file as the user did */
		char *shown = strdup(path);
		if (shown) {
			free(o->shown);
			o->shown = shown;
		}
	}
	free(dir);
	return rc;
}

void amd_out_discard(struct amd_out *o)
{
	if (o->f) {
		fclose(o->f);
		unlinkat(o->dirfd, o->tmp, 0);
	}
	out_free(o);
}

int amd_out_commit(struct amd_out *o, struct amd_err *err)
{
	int bad = ferror(o->f) || fflush(o->f) != 0 || fsync(fileno(o->f)) != 0;
	int e = o->write_errno ? o->write_errno : errno;
	bad |= fclose(o->f) != 0;
	o->f = NULL;
	if (!bad && renameat(o->dirfd, o->tmp, o->dirfd, o->name) == 0) {
		out_free(o);
		return 0;
	}
	if (!bad)
		e = errno;
	unlinkat(o->dirfd, o->tmp, 0);
	int rc = amd_fail(err, "%s: %s", o->shown, e ? strerror(e) : "write failed");
	out_free(o);
	return rc;
}

int amd_out_write_all(const char *dir, const char *rel, const void *data, size_t n,
		      struct amd_err *err)
{
	struct amd_out o;
	if (amd_out_open(&o, dir, rel, err) < 0)
		return -1;
	if (fwrite(data, 1, n, o.f) != n) {
		int rc = amd_fail(err, "%s: %s", o.shown, strerror(errno));
		amd_out_discard(&o);
		return rc;
	}
	return amd_out_commit(&o, err);
}

int amd_out_mkdir(const char *dir, const char *rel, struct amd_err *err)
{
	char *with_slash = amd_path_join(rel, "x"); /* every component of rel is made */
	if (!with_slash)
		return amd_fail(err, "%s: out of memory", dir);
	const char *last;
	int fd = open_parent(dir, with_slash, 1, &last, err);
	free(with_slash);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* ".NAME.tmpXXXXXXXX": create_tmp's pattern. */
static int is_our_tmp(const char *name)
{
	size_t n = strlen(name);
	if (n < 1 + 1 + 4 + 8 || name[0] != '.' || strncmp(name + n - 12, ".tmp", 4) != 0)
		return 0;
	for (const char *p = name + n - 8; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return 0;
	return 1;
}

int amd_out_sweep_tmp(const char *dir, const char *rel, struct amd_err *err)
{
	char *with_x = amd_path_join(*rel ? rel : ".", "x");
	if (!with_x)
		return amd_fail(err, "%s: out of memory", dir);
	const char *last;
	int fd = open_parent(dir, with_x, 0, &last, err);
	free(with_x);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) { /* another build writes here now */
		close(fd);
		return 0;
	}
	int list = dup(fd); /* fd stays open: the lock lasts until the process ends */
	DIR *d = list >= 0 ? fdopendir(list) : NULL;
	if (!d) {
		if (list >= 0)
			close(list);
		return amd_fail(err, "%s/%s: %s", dir, rel, strerror(errno));
	}
	int removed = 0;
	struct dirent *e;
	struct stat st;
	while ((e = readdir(d)) != NULL)
		if (is_our_tmp(e->d_name) && fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && unlinkat(fd, e->d_name, 0) == 0)
			removed++;
	closedir(d);
	return removed;
}

int amd_out_unlink(const char *dir, const char *rel, struct amd_err *err)
{
	const char *last;
	int fd = open_parent(dir, rel, 0, &last, err);
	if (fd < 0)
		return -1;
	int rc = 0;
	if (unlinkat(fd, last, 0) != 0 && errno != ENOENT)
		rc = amd_fail(err, "%s/%s: %s", dir, rel, strerror(errno));
	close(fd);
	return rc;
}
