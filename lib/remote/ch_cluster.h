/* ch_cluster.h — what a store on a ClickHouse cluster changes in the
 * SQL amdahl sends and in what a failure says (ch_http.c calls both):
 * subqueries and joins over Distributed tables read every shard, and a
 * read that cannot reach a shard names it. Included by ch_http.c (and
 * tests/unit/test_clickhouse.c). */
#ifndef AMD_CH_CLUSTER_H
#define AMD_CH_CLUSTER_H

#include "clickhouse.h"

/* sql for a cluster: each IN (SELECT …) and ANY LEFT JOIN made GLOBAL,
 * so a subquery over a Distributed table is run once over all shards
 * and its result sent to each (a plain one would see one shard's rows).
 * A copy to free(), or NULL when out of memory. */
char *amd_ch_cluster_sql(const char *sql);

/* When the server's answer resp says no replica of some shard could be
 * reached (ClickHouse's code 279), fills err with one line naming the
 * shard(s) of the cluster and their replicas and returns -1; else 0. */
int amd_ch_cluster_fail(struct amd_ch *ch, const char *resp, struct amd_err *err);

#endif
