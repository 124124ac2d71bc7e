/* mlflow_fs.c — one run directory of an MLflow file store
 * (mlruns/<exp>/<run>/{meta.yaml,metrics,params,tags}): its meta.yaml
 * (run_name in MLflow 2.x/3.x, name in 1.x), the experiment's name from
 * ../meta.yaml (`Default` named after the tree: mlflow_sweep.h), metric files (3-field lines, or 2-field legacy lines at
 * step 0, one form a file; keys with '/' are subfolders), params and tags (bare values). */
#include <stdio.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "ingest.h"
#include "buf.h"
#include "file.h"
#include "hash.h"
#include "mlflow_sweep.h"
#include "mlflow_tags.h"
#include "num.h"

/* Limits on what a run directory may hold (errors name the file and
 * the limit): MLflow itself caps param values at 6000 characters. */
#define META_MAX (1 << 20)          /* meta.yaml */
#define METRIC_LINE_MAX 4096        /* one "timestamp value step" line */
#define METRIC_FILE_MAX (1ULL << 32) /* one metric file, decompressed */

static int detect(const char *path, const unsigned char *head, size_t n)
{
	char *meta = amd_path_join(path, "meta.yaml");
	char *metrics = amd_path_join(path, "metrics");
	char *params = amd_path_join(path, "params");
	char *tags = amd_path_join(path, "tags");
	int score = 0;
	if (!meta || !metrics || !params || !tags)
		score = -1;
	else if (amd_is_file(meta) &&
		 (amd_is_dir(metrics) || amd_is_dir(params) || amd_is_dir(tags)))
		score = 90;
	free(meta);
	free(metrics);
	free(params);
	free(tags);
	return score;
}

/* Calls fn for each regular file below dir, with its key relative to
 * root ("a/b" for metrics/a/b). */
typedef int (*file_fn)(void *ctx, const char *path, const char *key, struct amd_err *err);

static int each_file(const char *dir, const char *prefix, file_fn fn, void *ctx, int depth,
		     struct amd_err *err)
{
	if (depth > 32)
		return amd_fail(err, "%s: nested too deeply", dir);
	size_t n;
	char **names;
	if (amd_list_dir(dir, &names, &n, err) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *p = amd_path_join(dir, names[i]);
		char *key = prefix ? amd_path_join(prefix, names[i]) : strdup(names[i]);
		if (!p || !key)
			rc = amd_fail(err, "%s: out of memory", dir);
		else if (amd_is_dir(p))
			rc = each_file(p, key, fn, ctx, depth + 1, err);
		else
			rc = fn(ctx, p, key, err);
		free(p);
		free(key);
	}
	amd_names_free(names, n);
	return rc;
}

static int hash_one(void *ctx, const char *path, const char *key, struct amd_err *err)
{
	struct {
		struct amd_sha *sha;
		uint64_t size;
	} *h = ctx;
	amd_sha_update(h->sha, key, strlen(key) + 1);
	return amd_sha_update_file(h->sha, path, &h->size, err);
}

/* A run's identity is meta.yaml and everything under metrics/, params/
 * and tags/ (not artifacts, which are units of their own). */
static int hash(const char *path, char hex[65], uint64_t *size, struct amd_err *err)
{
	struct {
		struct amd_sha *sha;
		uint64_t size;
	} h = {amd_sha_new(), 0};
	if (!h.sha)
		return amd_fail(err, "%s: cannot start SHA-256", path);
	static const char *const parts[] = {"metrics", "params", "tags"};
	char *meta = amd_path_join(path, "meta.yaml");
	int rc = meta ? hash_one(&h, meta, "meta.yaml", err) : amd_fail(err, "%s: out of memory", path);
	free(meta);
	for (size_t i = 0; i < 3 && rc == 0; i++) {
		char *d = amd_path_join(path, parts[i]);
		if (!d)
			rc = amd_fail(err, "%s: out of memory", path);
		else if (amd_is_dir(d))
			rc = each_file(d, parts[i], hash_one, &h, 0, err);
		free(d);
	}
	amd_sha_final(h.sha, hex);
	*size = h.size;
	return rc;
}

static const char *map_str(const struct amd_node *map, const char *key)
{
	const struct amd_node *n = amd_node_get(map, key);
	return n && n->kind == AMD_NODE_SCALAR && n->value[0] ? n->value : NULL;
}

static int64_t map_int(const struct amd_node *map, const char *key)
{
	const char *s = map_str(map, key);
	int64_t v;
	return s && amd_parse_int64(s, &v) == 0 ? v : 0;
}

static int load_yaml(const char *path, struct amd_node **root, struct amd_err *err)
{
	struct amd_buf b = {0};
	if (amd_read_file(path, META_MAX, &b, err) < 0)
		return -1;
	int rc = amd_yaml_parse(b.data, b.len, path, root, err);
	amd_buf_free(&b);
	if (rc == 0 && (!*root || (*root)->kind != AMD_NODE_MAP)) {
		amd_yaml_free(*root);
		*root = NULL;
		return amd_fail(err, "%s: line 1: expected a map of run fields", path);
	}
	return rc;
}

/* 1 when meta.yaml says the run is deleted (MLflow's trash). */
static int is_deleted(const struct amd_node *meta)
{
	const char *lifecycle = map_str(meta, "lifecycle_stage");
	return lifecycle && strcmp(lifecycle, "deleted") == 0;
}

/* A deleted run's artifacts are not walked: they belong to no run. */
static int walk_skip(const char *path)
{
	struct amd_node *meta = NULL;
	struct amd_err err = {{0}};
	char *meta_path = amd_path_join(path, "meta.yaml");
	int skip = meta_path && load_yaml(meta_path, &meta, &err) == 0 && is_deleted(meta);
	amd_yaml_free(meta);
	free(meta_path);
	return skip;
}

struct run_ctx {
	struct amd_sink *sink;
};

/* A metric file's form: its first point's field count (0 before it) and line. */
struct metric_form {
	int fields;
	long line;
};

/* One line of a metric file of form *form: every line has as many fields
 * as its first point (MLflow writes a file in one form, so a shorter line
 * is one cut short). */
static int metric_line(struct run_ctx *rc, const char *path, const char *key, long line,
		       char *s, struct metric_form *form, struct amd_err *err)
{
	char *f[4], *save = NULL;
	int nf = 0;
	for (char *t = strtok_r(s, " \t\r", &save); t && nf < 4; t = strtok_r(NULL, " \t\r", &save))
		f[nf++] = t;
	if (nf == 0)
		return 0; /* a blank line */
	if (nf < 2 || nf > 3)
		return amd_fail(err, "%s: line %ld: expected 'timestamp value step', got %d field%s",
				path, line, nf, nf == 1 ? "" : "s");
	if (form->fields && nf != form->fields)
		return amd_fail(err, "%s: line %ld: %d fields where line %ld has %d (%s): %s cut"
				" short?", path, line, nf, form->line, form->fields,
				form->fields == 3 ? "timestamp value step" : "timestamp value",
				nf < form->fields ? "this line" : "that line");
	if (!form->fields)
		*form = (struct metric_form){nf, line};
	int64_t ts, step = 0;
	double v;
	if (amd_parse_int64(f[0], &ts) < 0)
		return amd_fail(err, "%s: line %ld: timestamp '%.64s' is not an integer", path,
				line, f[0]);
	if (amd_parse_double(f[1], &v) < 0)
		return amd_fail(err, "%s: line %ld: value '%.64s' is not a number", path, line,
				f[1]);
	if (nf == 3 && amd_parse_int64(f[2], &step) < 0)
		return amd_fail(err, "%s: line %ld: step '%.64s' is not an integer", path, line,
				f[2]);
	return rc->sink->metric ? rc->sink->metric(rc->sink, key, step, ts, v, err) : 0;
}

/* Streams a metric file line by line: memory stays bounded whatever its size. */
static int metric_file(void *ctx, const char *path, const char *key, struct amd_err *err)
{
	struct amd_lines *l = amd_lines_open(path, METRIC_LINE_MAX, METRIC_FILE_MAX, err);
	if (!l)
		return -1;
	char *s;
	size_t len;
	int got, ret = 0;
	struct metric_form form = {0, 0};
	while (ret == 0 && (got = amd_lines_next(l, &s, &len, err)) == 1) {
		if (memchr(s, '\0', len))
			ret = amd_fail(err, "%s: line %ld: a NUL byte", path, amd_lines_number(l));
		else
			ret = metric_line(ctx, path, key, amd_lines_number(l), s, &form, err);
	}
	/* MLflow ends every point's line: a last one without its newline is
	 * a file cut short, whose last value may have lost digits */
	if (ret == 0 && got == 0 && amd_lines_unended(l))
		ret = amd_fail(err, "%s: line %ld: the last line has no end (truncated file?)", path,
			       amd_lines_number(l));
	amd_lines_close(l);
	return ret < 0 || got < 0 ? -1 : 0;
}

static int value_file(struct run_ctx *rc, const char *path, const char *key, int is_tag,
		      struct amd_err *err)
{
	struct amd_buf b = {0};
	/* read no further than the limit (AMD_VALUE_MAX, ingest.h) */
	if (amd_read_file(path, AMD_VALUE_MAX, &b, err) < 0)
		return -1;
	if (memchr(b.data, '\0', b.len)) {
		size_t at = strlen(b.data);
		amd_buf_free(&b);
		return amd_fail(err, "%s: byte %zu: a NUL byte in a %s value", path, at,
				is_tag ? "tag" : "param");
	}
	int ret = amd_sink_key_value(rc->sink, is_tag, path, key, b.data, b.len, err);
	amd_buf_free(&b);
	return ret;
}

static int param_file(void *ctx, const char *path, const char *key, struct amd_err *err)
{
	return value_file(ctx, path, key, 0, err);
}

static int tag_file(void *ctx, const char *path, const char *key, struct amd_err *err)
{
	return value_file(ctx, path, key, 1, err);
}

/* The run facts MLflow keeps in tags (mlflow_tags.h), read from
 * tags/<key> ahead of the run record, each value as tag_file reports it
 * (the caller frees facts[f]). A file that cannot be read is left to
 * the tags pass, which says what is wrong with it. */
static void tag_facts(const char *run_dir, struct amd_run_rec *r, char *facts[AMD_MLFLOW_FACTS])
{
	for (int f = 0; f < AMD_MLFLOW_FACTS; f++) {
		struct amd_buf b = {0};
		struct amd_err ignored = {{0}};
		char *tags = amd_path_join(run_dir, "tags");
		char *path = tags ? amd_path_join(tags, amd_mlflow_tag_key[f]) : NULL;
		facts[f] = NULL;
		if (path && amd_is_file(path) && amd_read_file(path, AMD_VALUE_MAX, &b, &ignored) == 0 && b.data &&
		    !memchr(b.data, '\0', b.len))
			facts[f] = strdup(b.data);
		amd_buf_free(&b);
		free(path);
		free(tags);
	}
	amd_mlflow_run_facts(r, (const char *const *)facts);
}

static char *parent_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash != path ? strndup(path, (size_t)(slash - path)) : strdup("/");
}

static int parse(const struct amd_input *in, struct amd_sink *sink, struct amd_err *err)
{
	struct amd_node *meta = NULL, *exp = NULL;
	char *meta_path = amd_path_join(in->path, "meta.yaml");
	char *expdir = parent_dir(in->path);
	char *exp_path = expdir ? amd_path_join(expdir, "meta.yaml") : NULL;
	int ret = meta_path && exp_path ? load_yaml(meta_path, &meta, err)
					: amd_fail(err, "%s: out of memory", in->path);
	if (ret == 0 && amd_is_file(exp_path))
		ret = load_yaml(exp_path, &exp, err);
	if (ret < 0)
		goto out;
	const char *id = map_str(meta, "run_id");
	if (!id)
		id = map_str(meta, "run_uuid");
	if (!id) {
		ret = amd_fail(err, "%s: line 1: no run_id or run_uuid", meta_path);
		goto out;
	}
	const char *name = map_str(meta, "run_name");
	if (!name)
		name = map_str(meta, "name"); /* MLflow 1.x */
	char *store = parent_dir(expdir), holder[256];
	if (!store) {
		ret = amd_fail(err, "%s: out of memory", in->path);
		goto out;
	}
	struct amd_run_rec r = {
		.ext_id = id,
		.name = name,
		.sweep = amd_mlflow_sweep_name(exp ? map_str(exp, "name") : NULL, store, holder,
					       sizeof holder),
		.sweep_ext_id = map_str(meta, "experiment_id"),
		.status = amd_status_of_number(map_str(meta, "status")),
		.start_ms = map_int(meta, "start_time"),
		.end_ms = map_int(meta, "end_time"),
	};
	if (is_deleted(meta)) {
		/* deleted runs are in the trash, not the sweep: nothing to add */
		free(store);
		amd_fail(err, "a deleted run (lifecycle_stage: deleted): its artifacts are not read either");
		ret = AMD_PARSE_NOTHING;
		goto out;
	}
	char *facts[AMD_MLFLOW_FACTS];
	tag_facts(in->path, &r, facts);
	ret = sink->run ? sink->run(sink, &r, err) : 0;
	free(store);
	for (int f = 0; f < AMD_MLFLOW_FACTS; f++)
		free(facts[f]);
	if (ret < 0)
		goto out;
	struct run_ctx rc = {sink};
	static const struct {
		const char *dir;
		file_fn fn;
	} parts[] = {{"params", param_file}, {"tags", tag_file}, {"metrics", metric_file}};
	for (size_t i = 0; i < 3 && ret == 0; i++) {
		char *d = amd_path_join(in->path, parts[i].dir);
		if (!d)
			ret = amd_fail(err, "%s: out of memory", in->path);
		else if (amd_is_dir(d))
			ret = each_file(d, NULL, parts[i].fn, &rc, 0, err);
		free(d);
	}
out:
	amd_yaml_free(meta);
	amd_yaml_free(exp);
	free(meta_path);
	free(expdir);
	free(exp_path);
	return ret;
}

const struct amd_format amd_fmt_mlflow_run = {
	.name = "mlflow-run",
	.variants = "an MLflow file-store run directory (mlruns/, mllogs/mlflow/), MLflow 1.x-3.x"
		    " meta.yaml, 1.x Projects runs without a name (grouped by entry point, source,"
		    " params); a deleted run: nothing to add",
	.is_dir = 1,
	.detect = detect,
	.parse = parse,
	.hash = hash,
	.walk_into = "artifacts",
	.walk_skip = walk_skip,
};
