/* engine.c — ingesting units: hash, skip what the store already holds,
 * parse through the store's sink, one transaction per unit; -j N runs N
 * workers, each with its own connection to the store. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"
#include "store_sink.h"
#include "util.h"

static int hash_unit(const struct amd_unit *u, char hex[65], uint64_t *size,
		     struct amd_err *err)
{
	if (u->fmt->hash)
		return u->fmt->hash(u->path, hex, size, err);
	return amd_sha256_file(u->path, hex, size, err);
}

int amd_ingest_one(struct amd_store *st, struct amd_unit *u,
		   const struct amd_ingest_opts *o, struct amd_err *err)
{
	char sha[65];
	uint64_t size = 0;
	u->result = AMD_UNIT_FAILED;
	if (hash_unit(u, sha, &size, err) < 0)
		return -1;
	int state = amd_store_source_state(st, u->path, sha, NULL, 0, err);
	if (state < 0)
		return -1;
	if (state == AMD_SOURCE_SAME || state == AMD_SOURCE_DUPLICATE) {
		u->result = AMD_UNIT_UNCHANGED;
		return 0;
	}
	struct amd_store_sink *ss = amd_store_sink_new(st, u->path, u->fmt->name, sha, size,
						       o->sweep, o->config);
	if (!ss)
		return amd_fail(err, "%s: out of memory", u->path);
	struct amd_input in = {
		.path = u->path,
		.run_ext_hint = o->run ? NULL : u->run_ext_hint,
		.run_name_hint = o->run ? o->run : u->run_name_hint,
		.sweep_hint = o->sweep,
		.rank_hint = o->rank,
		.sample_rate = o->sample_rate,
		.config = o->config,
	};
	if (u->fmt->parse(&in, amd_store_sink_iface(ss), err) < 0) {
		amd_store_sink_abort(ss);
		return -1;
	}
	enum amd_source_state final;
	if (amd_store_sink_finish(ss, &final, err) < 0)
		return -1;
	u->result = final == AMD_SOURCE_CHANGED ? AMD_UNIT_REPLACED
		  : final == AMD_SOURCE_NEW     ? AMD_UNIT_ADDED
						: AMD_UNIT_UNCHANGED;
	return 0;
}

struct pool {
	const char *store_path;
	struct amd_unit_list *units;
	const struct amd_ingest_opts *o;
	pthread_mutex_t lock;
	size_t next, done;
	int failed;
	int open_failed;
	struct amd_err open_err;
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	struct amd_store *st = NULL;
	struct amd_err err = {{0}};
	if (amd_store_open(p->store_path, AMD_STORE_WRITE, &st, &err) < 0) {
		pthread_mutex_lock(&p->lock);
		p->open_failed = 1;
		p->open_err = err;
		pthread_mutex_unlock(&p->lock);
		return NULL;
	}
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next < p->units->n ? p->next++ : (size_t)-1;
		pthread_mutex_unlock(&p->lock);
		if (i == (size_t)-1)
			break;
		struct amd_unit *u = &p->units->v[i];
		err.msg[0] = '\0';
		if (amd_ingest_one(st, u, p->o, &err) < 0) {
			u->result = AMD_UNIT_FAILED;
			snprintf(u->error, sizeof u->error, "%s", err.msg);
		}
		pthread_mutex_lock(&p->lock);
		p->done++;
		if (u->result == AMD_UNIT_FAILED)
			p->failed++;
		if (p->o->progress)
			p->o->progress(p->o->progress_ctx, p->done, p->units->n, u);
		pthread_mutex_unlock(&p->lock);
	}
	amd_store_close(st);
	return NULL;
}

int amd_ingest_units(const char *store_path, struct amd_unit_list *units,
		     const struct amd_ingest_opts *o, struct amd_err *err)
{
	/* create and migrate the store once, before workers race for it */
	struct amd_store *st = NULL;
	if (amd_store_open(store_path, AMD_STORE_WRITE, &st, err) < 0)
		return -1;
	amd_store_close(st);

	struct pool p = {.store_path = store_path, .units = units, .o = o};
	pthread_mutex_init(&p.lock, NULL);
	int jobs = o->jobs > 0 ? o->jobs : 1;
	if ((size_t)jobs > units->n)
		jobs = units->n ? (int)units->n : 1;
	pthread_t *t = calloc((size_t)jobs, sizeof *t);
	if (!t)
		return amd_fail(err, "out of memory");
	int started = 0;
	for (int i = 0; i < jobs; i++)
		if (pthread_create(&t[i], NULL, worker, &p) == 0)
			started++;
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
	pthread_mutex_destroy(&p.lock);
	if (!started)
		return amd_fail(err, "cannot start an ingest worker");
	if (p.open_failed && p.done < units->n) {
		*err = p.open_err;
		return -1;
	}
	return p.failed;
}
