/* ch_cluster.c — a store on a ClickHouse cluster (ch_cluster.h): the
 * GLOBAL form of subqueries and joins, and the line a read says when a
 * whole shard is down (never a partial answer: the server's
 * skip_unavailable_shards stays off). */
#include "ch_cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

static const char *const global_forms[][2] = {
	{" NOT IN (SELECT", " GLOBAL NOT IN (SELECT"},
	{" IN (SELECT", " GLOBAL IN (SELECT"},
	{" ANY LEFT JOIN", " GLOBAL ANY LEFT JOIN"},
};
#define N_FORMS (sizeof global_forms / sizeof global_forms[0])

/* The form that starts at p, or -1. */
static int form_at(const char *p)
{
	for (size_t i = 0; i < N_FORMS; i++)
		if (strncmp(p, global_forms[i][0], strlen(global_forms[i][0])) == 0)
			return (int)i;
	return -1;
}

char *amd_ch_cluster_sql(const char *sql)
{
	struct amd_buf b = {0};
	for (const char *p = sql; *p;) {
		int f = form_at(p);
		const char *put = f < 0 ? p : global_forms[f][1];
		size_t n = f < 0 ? 1 : strlen(put);
		if (amd_buf_append(&b, put, n) < 0) {
			amd_buf_free(&b);
			return NULL;
		}
		p += f < 0 ? 1 : strlen(global_forms[f][0]);
	}
	if (amd_buf_append(&b, "", 1) < 0) {
		amd_buf_free(&b);
		return NULL;
	}
	return b.data;
}

/* Appends to names shard's replicas that resp says refused or failed
 * ("(host:port)" in the server's log of connection tries); returns how
 * many of the shard's replicas it did not mention. */
static int unreached(const char *resp, char *line, struct amd_buf *names)
{
	int missing = 0;
	char *save = NULL;
	for (char *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char needle[300];
		snprintf(needle, sizeof needle, "(%s)", tok);
		if (!strstr(resp, needle))
			missing++;
		else if (amd_buf_printf(names, "%s%s", names->len ? ", " : "", tok) < 0)
			return -1;
	}
	return missing;
}

/* The cluster's shards, one line each: "N host:port host:port…". */
#define SHARDS_SQL "SELECT shard_num, arrayStringConcat(groupArray(concat(host_address, ':'," \
	" toString(port))), ' ') FROM system.clusters WHERE cluster = '%s'" \
	" GROUP BY shard_num ORDER BY shard_num FORMAT TabSeparated"

int amd_ch_cluster_fail(struct amd_ch *ch, const char *resp, struct amd_err *err)
{
	const char *c = amd_ch_cluster(ch);
	if (!c || strncmp(resp, "Code: 279,", 10) != 0)
		return 0;
	char sql[400];
	snprintf(sql, sizeof sql, SHARDS_SQL, c);
	struct amd_buf out = {0}, down = {0}, names = {0};
	struct amd_err probe = {0};
	int found = 0;
	if (amd_ch_run(ch, sql, NULL, 0, 0, &out, &probe) == 0 && amd_buf_append(&out, "", 1) == 0)
		for (char *at = NULL, *line = strtok_r(out.data, "\n", &at); line;
		     line = strtok_r(NULL, "\n", &at)) {
			char *tab = strchr(line, '\t');
			if (!tab)
				continue;
			*tab = '\0';
			size_t before = names.len;
			char *hosts = strdup(tab + 1);
			int missing = hosts ? unreached(resp, hosts, &names) : -1;
			free(hosts);
			if (missing == 0) {
				found++;
				amd_buf_printf(&down, "%s%s", down.len ? ", " : "", line);
			} else
				names.len = before;
		}
	if (found)
		amd_fail(err, "%s: shard %.*s of cluster %s is unavailable (no replica answered: %.*s);"
			 " start one and run again", amd_ch_name(ch), (int)down.len, down.data, c,
			 (int)names.len, names.data);
	amd_buf_free(&out);
	amd_buf_free(&down);
	amd_buf_free(&names);
	return found ? -1 : 0;
}
