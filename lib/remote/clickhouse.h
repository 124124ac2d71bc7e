/* clickhouse.h — the ClickHouse backend's connection: a store URL
 * (clickhouse://[user@]host:port/database[?cluster=NAME],
 * clickhouse+https://… for TLS)
 * parsed with libcurl's URL API, the password from
 * $AMDAHL_CLICKHOUSE_PASSWORD or ~/.netrc (never the URL), and one SQL
 * statement at a time over the HTTP interface with libcurl. Included
 * only inside lib/remote; docs/design.md, "The ClickHouse backend". */
#ifndef AMD_CLICKHOUSE_H
#define AMD_CLICKHOUSE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "err.h"

struct amd_ch;

/* 1 when location names a ClickHouse store (a clickhouse:// or
 * clickhouse+https:// URL), else 0. */
int amd_ch_is_url(const char *location);

/* Parses url and prepares a connection (nothing is sent yet). */
int amd_ch_open(const char *url, struct amd_ch **out, struct amd_err *err);
void amd_ch_close(struct amd_ch *ch);

/* The URL as given (for messages) and the database name. */
const char *amd_ch_name(const struct amd_ch *ch);
const char *amd_ch_database(const struct amd_ch *ch);

/* The cluster the URL names (clickhouse://host:port/db?cluster=NAME):
 * the store's tables are ReplicatedMergeTree tables NAME_local on every
 * node and Distributed tables over them (ch_schema.c); NULL for a store
 * on one server. */
const char *amd_ch_cluster(const struct amd_ch *ch);

/* Runs sql. With body (body_len bytes), sql goes in the URL and body is
 * the data an INSERT … FORMAT reads; otherwise sql is the POST body.
 * in_db: 0 to run outside the database (CREATE DATABASE). The response
 * is appended to out when out is not NULL. A server error fills err with
 * the server's first line. */
int amd_ch_run(struct amd_ch *ch, const char *sql, const char *body, size_t body_len,
	       int in_db, struct amd_buf *out, struct amd_err *err);

/* 1 when the last request sent on ch got no answer from the server:
 * it could not be reached or stopped answering (libcurl failed the
 * transfer: connection refused, name not resolved, the connection
 * broken, no byte for $AMDAHL_CLICKHOUSE_STALL), or it was not sent
 * because the server stopped answering an earlier request of this
 * process. 0 when the server answered (its errors included) or the
 * request failed here (out of memory). The transport says so, so that
 * no caller reads libcurl's words in a message (ch_target.c). */
int amd_ch_unanswered(const struct amd_ch *ch);

/* Runs a user's sql read-only (the server's readonly=1), its answer as
 * TSVWithNames unless the query names a FORMAT, appended to out. */
int amd_ch_user_query(struct amd_ch *ch, const char *sql, struct amd_buf *out,
		      struct amd_err *err);

/* Runs sql (no body, in the database) and appends its result to out. */
int amd_ch_query(struct amd_ch *ch, const char *sql, struct amd_buf *out,
		 struct amd_err *err);

/* Runs the n queries sql[] as amd_ch_query does, several at once (up to
 * AMD_CH_AT_ONCE, the others on connections of their own, opened from
 * ch's URL for the call), the answer of sql[i] in out[i]. 0, or -1 with
 * the error of the first query in sql's order that failed. The server
 * answers a load's dozen small SELECTs in about the time of the
 * slowest, not of their sum. */
#define AMD_CH_AT_ONCE 4
int amd_ch_query_each(struct amd_ch *ch, const char *const *sql, size_t n, struct amd_buf *out,
		      struct amd_err *err);

/* The id ClickHouse keeps for a string that has a global identity (a
 * dict string, a run's ext_id, a sweep name): the first 60 bits of its
 * SHA-256, so every host computes it without asking the server. > 0. */
int64_t amd_ch_string_id(const char *s, size_t n);

#endif
