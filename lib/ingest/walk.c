/* walk.c — turning the paths a user names into ingest units: files, and
 * MLflow run directories (whose artifacts are walked on). Also works out
 * which run a file under mlruns/<exp>/<run>/artifacts/ belongs to, and
 * whether two paths holding the same bytes put them in the same run
 * (amd_same_run: a source's identity is its place and content). */
#include <stdio.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "ingest.h"
#include "buf.h"
#include "file.h"

static int add_unit(struct amd_unit_list *l, const char *path, const struct amd_format *f)
{
	char *copy = strdup(path);
	if (!copy || amd_grow(&l->v, l->n, &l->cap, sizeof *l->v, 64) < 0) {
		free(copy);
		return -1;
	}
	struct amd_unit *u = &l->v[l->n++];
	memset(u, 0, sizeof *u);
	u->path = copy;
	u->fmt = f;
	return 0;
}

/* The run_id (or run_uuid) a run's meta.yaml names, or NULL. */
static char *meta_run_id(const char *meta)
{
	struct amd_buf b = {0};
	struct amd_err err;
	struct amd_node *root = NULL;
	char *id = NULL;
	if (amd_read_file(meta, 1 << 20, &b, &err) == 0 &&
	    amd_yaml_parse(b.data, b.len, meta, &root, &err) == 0) {
		const struct amd_node *n = amd_node_get(root, "run_id");
		if (!n || n->kind != AMD_NODE_SCALAR)
			n = amd_node_get(root, "run_uuid");
		if (n && n->kind == AMD_NODE_SCALAR && n->value[0])
			id = strdup(n->value);
	}
	amd_yaml_free(root);
	amd_buf_free(&b);
	return id;
}

/* A run id the file belongs to in *id: the run_id of the meta.yaml in
 * the directory above "artifacts", when there is one (else NULL); -1 out
 * of memory. */
static int run_from_artifacts(const char *path, char **id)
{
	*id = NULL;
	for (const char *a = strstr(path, "/artifacts/"); a; a = strstr(a + 1, "/artifacts/")) {
		char *rundir = strndup(path, (size_t)(a - path));
		char *meta = rundir ? amd_path_join(rundir, "meta.yaml") : NULL;
		if (!meta) {
			free(rundir);
			return -1;
		}
		int found = amd_is_file(meta);
		if (found && !(*id = meta_run_id(meta))) /* MLflow names the directory after the run id */
			*id = strdup(amd_basename(rundir));
		free(meta);
		free(rundir);
		if (found)
			return *id ? 0 : -1;
	}
	return 0;
}

/* itwinai: profiler-traces/<run name>/torch-traces/worker_<rank>.*: the
 * run name in *name (NULL when the path has none); -1 out of memory. */
static int run_from_itwinai(const char *path, char **name)
{
	*name = NULL;
	const char *t = strstr(path, "/torch-traces/");
	if (!t)
		return 0;
	const char *end = t;
	const char *start = end;
	while (start > path && start[-1] != '/')
		start--;
	if (end > start && !(*name = strndup(start, (size_t)(end - start))))
		return -1;
	return 0;
}

/* The run the walk gives the file at path in *key: its run folder's
 * meta.yaml run id, else the run folder's name (amd_path_run_folder: a
 * folder gone since, or itwinai's run name), "" for none; -1 out of
 * memory. */
static int run_key(const char *path, char **key)
{
	if (run_from_artifacts(path, key) < 0)
		return -1;
	if (*key)
		return 0;
	const char *name;
	size_t n;
	amd_path_run_folder(path, &name, &n);
	*key = strndup(name, n);
	return *key ? 0 : -1;
}

int amd_same_run(const char *held, const char *path)
{
	char *a = NULL, *b = NULL;
	/* out of memory: not the same run, so the unit is kept, not lost */
	int same = run_key(held, &a) == 0 && run_key(path, &b) == 0 && strcmp(a, b) == 0;
	free(a);
	free(b);
	return same;
}

/* The directories being walked, innermost first: a symlink back into
 * one of them is a loop, walked once. */
struct dir_chain {
	dev_t dev;
	ino_t ino;
	const struct dir_chain *up;
};

static int walk_dir(const char *dir, const struct amd_ingest_opts *o,
		    struct amd_unit_list *out, int depth, const struct dir_chain *chain,
		    struct amd_err *err);

static int walk_path(const char *path, int named, const struct amd_ingest_opts *o,
		     struct amd_unit_list *out, int depth, const struct dir_chain *chain,
		     struct amd_err *err)
{
	const struct amd_format *forced = o->format ? amd_format_by_name(o->format) : NULL;
	if (o->format && !forced)
		return amd_fail(err, "--format %s: no such format", o->format);
	if (amd_is_dir(path)) {
		const struct amd_format *f;
		if (amd_detect(path, 1, &f, err) < 0)
			return -1;
		if (!f)
			return walk_dir(path, o, out, depth + 1, chain, err);
		if (add_unit(out, path, f) < 0)
			return amd_fail(err, "out of memory");
		if (!f->walk_into || (f->walk_skip && f->walk_skip(path)))
			return 0;
		char *sub = amd_path_join(path, f->walk_into);
		if (!sub)
			return amd_fail(err, "out of memory");
		int rc = amd_is_dir(sub) ? walk_dir(sub, o, out, depth + 1, chain, err) : 0;
		free(sub);
		return rc;
	}
	if (!amd_is_file(path)) {
		if (named)
			return amd_fail(err, "%s: %s", path,
					errno == ENOENT ? "no such file or directory"
							: "not a regular file or directory");
		return 0;
	}
	struct amd_err derr = {{0}};
	const struct amd_format *f = forced && !forced->is_dir ? forced : NULL;
	if (!f && amd_detect(path, 0, &f, &derr) == -2)
		return amd_fail(err, "%s", derr.msg);
	if (!f) {
		if (named && derr.msg[0])
			return amd_fail(err, "%s", derr.msg);
		if (named) {
			char looks[200];
			amd_detect_describe(path, looks, sizeof looks);
			return amd_fail(err, "%s: not a format amdahl reads (it looks like %s;"
					" see 'amdahl ingest --formats')", path, looks);
		}
		out->skipped++;
		return 0;
	}
	if (o->run && f->is_run)
		return amd_fail(err, "%s: --run names the run of profiler files; this %s file is"
				" a run of its own: ingest it without --run", path, f->name);
	if (add_unit(out, path, f) < 0)
		return amd_fail(err, "out of memory");
	struct amd_unit *u = &out->v[out->n - 1];
	u->named = named;
	if (run_from_artifacts(path, &u->run_ext_hint) < 0 ||
	    (!u->run_ext_hint && run_from_itwinai(path, &u->run_name_hint) < 0))
		return amd_fail(err, "out of memory");
	return 0;
}

static int walk_dir(const char *dir, const struct amd_ingest_opts *o,
		    struct amd_unit_list *out, int depth, const struct dir_chain *chain,
		    struct amd_err *err)
{
	if (depth > 64)
		return amd_fail(err, "%s: directories nested more than 64 deep", dir);
	struct stat st;
	if (stat(dir, &st) < 0)
		return amd_fail(err, "%s: %s", dir, strerror(errno));
	for (const struct dir_chain *c = chain; c; c = c->up)
		if (c->dev == st.st_dev && c->ino == st.st_ino) {
			out->skipped++; /* a symlink loop */
			return 0;
		}
	struct dir_chain here = {st.st_dev, st.st_ino, chain};
	char **names; /* no ., .., .trash or hidden files */
	size_t n;
	if (amd_list_dir(dir, &names, &n, err) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char *p = amd_path_join(dir, names[i]);
		rc = p ? walk_path(p, 0, o, out, depth, &here, err) : amd_fail(err, "out of memory");
		free(p);
	}
	amd_names_free(names, n);
	return rc;
}

int amd_walk(const char *const *paths, size_t n, const struct amd_ingest_opts *o,
	     struct amd_unit_list *out, struct amd_err *err)
{
	for (size_t i = 0; i < n; i++) {
		char real[PATH_MAX];
		if (!realpath(paths[i], real))
			return amd_fail(err, "%s: %s", paths[i], strerror(errno));
		if (walk_path(real, 1, o, out, 0, NULL, err) < 0)
			return -1;
	}
	return 0;
}

const char *amd_unit_error(const struct amd_unit *u)
{
	return u->error ? u->error : "out of memory (keeping the unit's error)";
}

void amd_unit_list_free(struct amd_unit_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].run_ext_hint);
		free(l->v[i].run_name_hint);
		amd_warnings_free(&l->v[i].warnings);
		free(l->v[i].error);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}
