/* ch_http.c — the ClickHouse connection (clickhouse.h): the store URL,
 * the password, and SQL over the HTTP interface with libcurl. */
#include "clickhouse.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/sha.h>
#include <zlib.h>

#include "curl_load.h" /* libcurl, loaded on first use */

#include "ch_cluster.h"

#define SCHEME_HTTP "clickhouse://"
#define SCHEME_HTTPS "clickhouse+https://"

struct amd_ch {
	CURL *curl;
	struct curl_slist *headers; /* "Expect:" off: the server answers no 100-continue */
	char *name;     /* the URL as given */
	char *base;     /* http[s]://host:port/ */
	char *base_user; /* http[s]://user@host:port/: libcurl reads ~/.netrc for user */
	char *database;
	char *cluster;  /* ?cluster=NAME: the server's remote_servers entry, or NULL */
	int gzip;       /* ?compress=gzip: INSERT bodies sent gzip-compressed */
	struct curl_slist *gzip_headers; /* headers plus "Content-Encoding: gzip" */
	char *user;     /* NULL: libcurl takes the login from ~/.netrc, else default */
	char *password; /* $AMDAHL_CLICKHOUSE_PASSWORD, or NULL (~/.netrc) */
	int user_query; /* a user's SQL: readonly=1, TSVWithNames by default */
	long stall_s;   /* a request that moves no byte this long fails */
	long total_s;   /* a request that lasts this long fails */
	char *cacert;   /* ?cacert=FILE, else $AMDAHL_CLICKHOUSE_CACERT: the CA (PEM) a
			 * clickhouse+https server's certificate is verified with,
			 * or NULL: the system's */
	int cacert_in_url; /* ch->cacert came from the URL's query */
	int unanswered; /* the last request got no answer (amd_ch_unanswered) */
};

/* A stopped server (SIGSTOP) accepts the connection and never answers:
 * every request has a low-speed and an overall limit, in seconds, from
 * $AMDAHL_CLICKHOUSE_STALL (default 120: no byte moved for that long)
 * and $AMDAHL_CLICKHOUSE_TIMEOUT (default 3600). */
#define CH_STALL_DEFAULT 120L
#define CH_TOTAL_DEFAULT 3600L

/* $name as a whole number of seconds ≥ 1, else fallback; -1 when it is
 * set but not one. */
static long env_seconds(const char *name, long fallback)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return fallback;
	char *end;
	long n = strtol(v, &end, 10);
	return *end || n < 1 || n > 86400L * 365 ? -1 : n;
}

int amd_ch_is_url(const char *location)
{
	return location && (strncmp(location, SCHEME_HTTP, strlen(SCHEME_HTTP)) == 0 ||
			    strncmp(location, SCHEME_HTTPS, strlen(SCHEME_HTTPS)) == 0);
}

static int valid_database(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* cacert=FILE, percent-decoded (a path holding & or % is written %26,
 * %25): 0, -1 when given twice or empty, -2 out of memory. */
static int parse_cacert(struct amd_ch *ch, const char *v, size_t n)
{
	if (ch->cacert || n == 0)
		return -1;
	int len = 0;
	char *path = curl_easy_unescape(NULL, v, (int)n, &len);
	if (!path)
		return -2;
	int ok = len > 0 && !memchr(path, '\0', (size_t)len);
	ch->cacert = ok ? strdup(path) : NULL;
	curl_free(path);
	if (!ok)
		return -1;
	if (!ch->cacert)
		return -2;
	ch->cacert_in_url = 1;
	return 0;
}

/* One NAME=VALUE of a store URL's query: cluster=NAME (letters, digits,
 * _ and -), compress=gzip|none or cacert=FILE. 0, or -1 when it is
 * none of them. */
static int parse_param(struct amd_ch *ch, const char *p, size_t n)
{
	if (n >= 7 && strncmp(p, "cacert=", 7) == 0)
		return parse_cacert(ch, p + 7, n - 7);
	if (n == 13 && strncmp(p, "compress=gzip", 13) == 0)
		return ch->gzip = 1, 0;
	if (n == 13 && strncmp(p, "compress=none", 13) == 0)
		return ch->gzip = 0, 0;
	if (n <= 8 || strncmp(p, "cluster=", 8) != 0 || ch->cluster)
		return -1;
	for (size_t i = 8; i < n; i++)
		if (!isalnum((unsigned char)p[i]) && p[i] != '_' && p[i] != '-')
			return -1;
	return (ch->cluster = strndup(p + 8, n - 8)) ? 0 : -2;
}

/* Fills ch->cluster and ch->gzip from the URL's query, parameters
 * joined by &. */
static int parse_query(struct amd_ch *ch, const char *url, const char *query,
		       struct amd_err *err)
{
	for (const char *p = query; p && *p;) {
		size_t n = strcspn(p, "&");
		int rc = parse_param(ch, p, n);
		if (rc == -2)
			return amd_fail(err, "%s: out of memory", url);
		if (rc < 0)
			return amd_fail(err, "%s: a store URL's query takes cluster=NAME (a cluster of"
					" the server's remote_servers), compress=gzip|none and"
					" cacert=FILE, joined by &", url);
		p += n + (p[n] == '&');
	}
	return 0;
}

/* Fills ch->base, user and database from url through libcurl's parser. */
static int parse_url(struct amd_ch *ch, const char *url, struct amd_err *err)
{
	int tls = strncmp(url, SCHEME_HTTPS, strlen(SCHEME_HTTPS)) == 0;
	const char *rest = url + strlen(tls ? SCHEME_HTTPS : SCHEME_HTTP);
	char *http = NULL, *host = NULL, *port = NULL, *user = NULL, *pass = NULL, *path = NULL;
	char *query = NULL;
	int ret = -1;
	CURLU *u = curl_url();
	if (!u || asprintf(&http, "%s://%s", tls ? "https" : "http", rest) < 0) {
		http = NULL;
		amd_fail(err, "%s: out of memory", url);
		goto out;
	}
	if (curl_url_set(u, CURLUPART_URL, http, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
		amd_fail(err, "%s: not a store URL; expected clickhouse://[user@]host:port/database",
			 url);
		goto out;
	}
	if (curl_url_get(u, CURLUPART_PASSWORD, &pass, 0) == CURLUE_OK) {
		/* the URL is not repeated: it holds the password */
		amd_fail(err, "%s%s: a password in the store URL is refused; set"
			 " AMDAHL_CLICKHOUSE_PASSWORD or use ~/.netrc",
			 tls ? SCHEME_HTTPS : SCHEME_HTTP, host);
		goto out;
	}
	curl_url_get(u, CURLUPART_USER, &user, CURLU_URLDECODE);
	curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
	curl_url_get(u, CURLUPART_PATH, &path, 0);
	curl_url_get(u, CURLUPART_QUERY, &query, 0);
	if (parse_query(ch, url, query, err) < 0)
		goto out;
	const char *db = path && path[0] == '/' ? path + 1 : "";
	if (!valid_database(db)) {
		amd_fail(err, "%s: the URL must end in /DATABASE (letters, digits, _)", url);
		goto out;
	}
	if (asprintf(&ch->base, "%s://%s:%s/", tls ? "https" : "http", host,
		     port ? port : (tls ? "8443" : "8123")) < 0) {
		ch->base = NULL;
		amd_fail(err, "%s: out of memory", url);
		goto out;
	}
	char *enc = user && *user ? curl_easy_escape(NULL, user, 0) : NULL;
	if (enc && asprintf(&ch->base_user, "%s://%s@%s:%s/", tls ? "https" : "http", enc, host,
			    port ? port : (tls ? "8443" : "8123")) < 0)
		ch->base_user = NULL;
	int no_user_url = enc && !ch->base_user;
	curl_free(enc);
	if (no_user_url || (user && *user && !enc)) {
		amd_fail(err, "%s: out of memory", url);
		goto out;
	}
	ch->database = strdup(db);
	ch->user = user && *user ? strdup(user) : NULL;
	if (!ch->database || (user && *user && !ch->user)) {
		amd_fail(err, "%s: out of memory", url);
		goto out;
	}
	ret = 0;
out:
	curl_free(host);
	curl_free(port);
	curl_free(user);
	curl_free(pass);
	curl_free(path);
	curl_free(query);
	curl_url_cleanup(u);
	free(http);
	return ret;
}

/* ch->cacert (a server's own CA, e.g. a self-signed certificate): the
 * URL's ?cacert=FILE, else $AMDAHL_CLICKHOUSE_CACERT. A file that cannot
 * be read is an error naming it and where it was given, before any
 * request; so is a CA for a server spoken to without TLS. */
static int set_cacert(struct amd_ch *ch, int tls, struct amd_err *err)
{
	const char *from = ch->cacert_in_url ? "?cacert=" : "$AMDAHL_CLICKHOUSE_CACERT";
	if (!ch->cacert) {
		const char *ca = getenv("AMDAHL_CLICKHOUSE_CACERT");
		if (!ca || !*ca)
			return 0;
		if (!(ch->cacert = strdup(ca)))
			return amd_fail(err, "%s: out of memory", ch->name);
	}
	if (!tls && ch->cacert_in_url)
		return amd_fail(err, "%s: ?cacert= verifies a TLS server: the URL's scheme is"
				     " clickhouse+https://", ch->name);
	FILE *f = fopen(ch->cacert, "r");
	if (!f)
		return amd_fail(err, "%s: %s: cannot read %s: %s", ch->name, from, ch->cacert,
				strerror(errno));
	fclose(f);
	return 0;
}

int amd_ch_open(const char *url, struct amd_ch **out, struct amd_err *err)
{
	*out = NULL;
	if (amd_curl_load(err) < 0)
		return amd_fail_prefix(err, "%s", url);
	struct amd_ch *ch = calloc(1, sizeof *ch);
	if (!ch || !(ch->name = strdup(url))) {
		free(ch);
		return amd_fail(err, "%s: out of memory", url);
	}
	if (parse_url(ch, url, err) < 0) {
		amd_ch_close(ch);
		return -1;
	}
	ch->stall_s = env_seconds("AMDAHL_CLICKHOUSE_STALL", CH_STALL_DEFAULT);
	ch->total_s = env_seconds("AMDAHL_CLICKHOUSE_TIMEOUT", CH_TOTAL_DEFAULT);
	if (ch->stall_s < 0 || ch->total_s < 0) {
		const char *which = ch->stall_s < 0 ? "STALL" : "TIMEOUT";
		amd_ch_close(ch);
		return amd_fail(err, "%s: $AMDAHL_CLICKHOUSE_%s is not a number of seconds from 1 "
				     "up", url, which);
	}
	const char *pw = getenv("AMDAHL_CLICKHOUSE_PASSWORD");
	if (pw && *pw && !(ch->password = strdup(pw))) {
		amd_ch_close(ch);
		return amd_fail(err, "%s: out of memory", url);
	}
	if (set_cacert(ch, strncmp(url, SCHEME_HTTPS, strlen(SCHEME_HTTPS)) == 0, err) < 0) {
		amd_ch_close(ch);
		return -1;
	}
	if (!(ch->curl = curl_easy_init()) ||
	    !(ch->headers = curl_slist_append(NULL, "Expect:")) ||
	    !(ch->gzip_headers = curl_slist_append(NULL, "Expect:")) ||
	    !curl_slist_append(ch->gzip_headers, "Content-Encoding: gzip")) {
		amd_ch_close(ch);
		return amd_fail(err, "%s: cannot start libcurl", url);
	}
	*out = ch;
	return 0;
}

void amd_ch_close(struct amd_ch *ch)
{
	if (!ch)
		return;
	if (ch->curl)
		curl_easy_cleanup(ch->curl);
	curl_slist_free_all(ch->headers);
	curl_slist_free_all(ch->gzip_headers);
	free(ch->name);
	free(ch->base);
	free(ch->base_user);
	free(ch->database);
	free(ch->cluster);
	free(ch->cacert);
	free(ch->user);
	if (ch->password)
		memset(ch->password, 0, strlen(ch->password));
	free(ch->password);
	free(ch);
}

const char *amd_ch_name(const struct amd_ch *ch)
{
	return ch->name;
}

const char *amd_ch_database(const struct amd_ch *ch)
{
	return ch->database;
}

const char *amd_ch_cluster(const struct amd_ch *ch)
{
	return ch->cluster;
}

int amd_ch_unanswered(const struct amd_ch *ch)
{
	return ch->unanswered;
}

static size_t on_data(char *p, size_t size, size_t n, void *ud)
{
	struct amd_buf *b = ud;
	return amd_buf_append(b, p, size * n) < 0 ? 0 : size * n;
}

/* The request URL: base, ?database=, and the query when a body carries data. */
static char *request_url(struct amd_ch *ch, const char *sql, int with_body, int in_db)
{
	struct amd_buf u = {0};
	/* with a password the login goes in options; without, in the URL,
	 * where libcurl looks it up in ~/.netrc */
	const char *base = ch->password || !ch->base_user ? ch->base : ch->base_user;
	int bad = amd_buf_printf(&u, "%s?", base) < 0;
	if (in_db)
		bad |= amd_buf_printf(&u, "database=%s&", ch->database) < 0;
	/* on a cluster an INSERT returns once its shard has the rows (a
	 * setting only a writer sends: a read-only user may set none) */
	if (ch->cluster && (with_body || strncmp(sql, "INSERT", 6) == 0))
		bad |= amd_buf_printf(&u, "insert_distributed_sync=1&") < 0;
	if (ch->user_query)
		bad |= amd_buf_printf(&u, "readonly=1&default_format=TSVWithNames&") < 0;
	if (with_body) {
		char *q = curl_easy_escape(ch->curl, sql, 0);
		bad |= !q || amd_buf_printf(&u, "query=%s", q) < 0;
		curl_free(q);
	}
	if (bad || amd_buf_append(&u, "", 1) < 0) {
		amd_buf_free(&u);
		return NULL;
	}
	return u.data;
}

/* The server's error: its first line, without the trailing e.what(). */
static int server_fail(struct amd_ch *ch, long code, const struct amd_buf *resp,
		       struct amd_err *err)
{
	const char *msg = resp->len ? resp->data : "";
	int len = (int)strcspn(msg, "\n");
	const char *what = strstr(msg, ", e.what()");
	if (what && what - msg < len)
		len = (int)(what - msg);
	if (len > 600)
		len = 600;
	if (amd_ch_cluster_fail(ch, msg, err) < 0)
		return -1;
	return amd_fail(err, "%s: server said (HTTP %ld): %.*s", ch->name, code, len, msg);
}

static void set_auth(struct amd_ch *ch)
{
	curl_easy_setopt(ch->curl, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	if (ch->password) {
		if (ch->user)
			curl_easy_setopt(ch->curl, CURLOPT_USERNAME, ch->user);
		curl_easy_setopt(ch->curl, CURLOPT_PASSWORD, ch->password);
	}
}

/* What a request was doing when it failed, by what libcurl saw: the
 * stage of a message about a server that stopped answering. */
static const char *stage(struct amd_ch *ch)
{
	curl_off_t up = 0, down = 0;
	double connected = 0;
	curl_easy_getinfo(ch->curl, CURLINFO_CONNECT_TIME, &connected);
	curl_easy_getinfo(ch->curl, CURLINFO_SIZE_UPLOAD_T, &up);
	curl_easy_getinfo(ch->curl, CURLINFO_SIZE_DOWNLOAD_T, &down);
	return connected <= 0 ? "connecting"
	       : down > 0     ? "reading the answer"
	       : up > 0       ? "waiting for the answer"
			      : "sending the request";
}

/* The server (base URL) a request of this process found stopped (no byte
 * for the stall limit, or past the overall one): every later request to
 * it fails at once, so an ingest of many units (several connections, one
 * per worker) ends within one limit, not one per unit. */
static pthread_mutex_t stopped_lock = PTHREAD_MUTEX_INITIALIZER;
static char stopped_base[512];

static void mark_stopped(const struct amd_ch *ch)
{
	pthread_mutex_lock(&stopped_lock);
	snprintf(stopped_base, sizeof stopped_base, "%s", ch->base);
	pthread_mutex_unlock(&stopped_lock);
}

static int found_stopped(const struct amd_ch *ch)
{
	pthread_mutex_lock(&stopped_lock);
	int is = stopped_base[0] && strcmp(stopped_base, ch->base) == 0;
	pthread_mutex_unlock(&stopped_lock);
	return is;
}

/* err for a failed transfer: a timeout names the limit and the stage, and
 * the statement's first words (what was asked). */
static int transfer_fail(struct amd_ch *ch, CURLcode rc, const char *sql, struct amd_err *err)
{
	if (rc == CURLE_WRITE_ERROR)
		return amd_fail(err, "%s: out of memory reading the answer", ch->name);
	if (rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE)
		return amd_fail(err, "%s: %s; the URL's ?cacert=FILE (or $AMDAHL_CLICKHOUSE_CACERT)"
				     " names the CA (PEM) that signed the server's certificate%s",
				ch->name, curl_easy_strerror(rc),
				!ch->cacert ? "" : ch->cacert_in_url ? " (?cacert= did not verify it)"
								     : " ($AMDAHL_CLICKHOUSE_CACERT did not verify it)");
	if (rc != CURLE_OPERATION_TIMEDOUT)
		return amd_fail(err, "%s: %s", ch->name, curl_easy_strerror(rc));
	mark_stopped(ch);
	double took = 0;
	curl_easy_getinfo(ch->curl, CURLINFO_TOTAL_TIME, &took);
	int words = (int)strcspn(sql, "\n(");
	if (words > 40)
		words = 40;
	if (took + 0.5 >= (double)ch->total_s)
		return amd_fail(err, "%s: the server did not finish within %ld s, %s to `%.*s…` "
				     "($AMDAHL_CLICKHOUSE_TIMEOUT)",
				ch->name, ch->total_s, stage(ch), words, sql);
	return amd_fail(err, "%s: the server stopped answering: nothing for %ld s, %s to "
			     "`%.*s…` ($AMDAHL_CLICKHOUSE_STALL sets the limit)",
			ch->name, ch->stall_s, stage(ch), words, sql);
}
static int run_sql(struct amd_ch *ch, const char *sql, const char *body, size_t body_len,
		   int in_db, struct amd_buf *out, struct amd_err *err);

int amd_ch_run(struct amd_ch *ch, const char *sql, const char *body, size_t body_len,
	       int in_db, struct amd_buf *out, struct amd_err *err)
{
	if (!ch->cluster || ch->user_query)
		return run_sql(ch, sql, body, body_len, in_db, out, err);
	char *global = amd_ch_cluster_sql(sql);
	int rc = global ? run_sql(ch, global, body, body_len, in_db, out, err)
			: amd_fail(err, "%s: out of memory", ch->name);
	free(global);
	return rc;
}

/* body gzip-compressed (level 1: the wire, not the disk) into z. */
static int gzip_body(const char *body, size_t len, struct amd_buf *z)
{
	z_stream s = {0};
	if (deflateInit2(&s, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	size_t cap = deflateBound(&s, (uLong)len);
	int rc = amd_grow_to(&z->data, cap + 1, &z->cap, 1, 256);
	if (rc == 0) {
		s.next_in = (Bytef *)body;
		s.avail_in = (uInt)len;
		s.next_out = (Bytef *)z->data;
		s.avail_out = (uInt)cap;
		rc = deflate(&s, Z_FINISH) == Z_STREAM_END ? 0 : -1;
		z->len = cap - s.avail_out;
	}
	deflateEnd(&s);
	return rc;
}

/* Sends sql (and body) and reads the answer (amd_ch_run); a body goes
 * gzip-compressed when the URL asks for it (?compress=gzip). */
static int send_sql(struct amd_ch *ch, const char *sql, const char *body, size_t body_len,
		    int gzipped, int in_db, struct amd_buf *out, struct amd_err *err);

static int run_sql(struct amd_ch *ch, const char *sql, const char *body, size_t body_len,
		   int in_db, struct amd_buf *out, struct amd_err *err)
{
	if (!ch->gzip || !body || body_len > UINT32_MAX / 2)
		return send_sql(ch, sql, body, body_len, 0, in_db, out, err);
	struct amd_buf z = {0};
	int rc = gzip_body(body, body_len, &z) < 0
			 ? amd_fail(err, "%s: out of memory compressing a request", ch->name)
			 : send_sql(ch, sql, z.data, z.len, 1, in_db, out, err);
	amd_buf_free(&z);
	return rc;
}

static int send_sql(struct amd_ch *ch, const char *sql, const char *body, size_t body_len,
		    int gzipped, int in_db, struct amd_buf *out, struct amd_err *err)
{
	ch->unanswered = found_stopped(ch);
	if (ch->unanswered)
		return amd_fail(err, "%s: not sent: the server stopped answering an earlier request"
				     " of this command", ch->name);
	char *url = request_url(ch, sql, body != NULL, in_db);
	if (!url)
		return amd_fail(err, "%s: out of memory", ch->name);
	struct amd_buf resp = {0};
	curl_easy_reset(ch->curl);
	curl_easy_setopt(ch->curl, CURLOPT_URL, url);
	curl_easy_setopt(ch->curl, CURLOPT_POST, 1L);
	curl_easy_setopt(ch->curl, CURLOPT_POSTFIELDS, body ? body : sql);
	curl_easy_setopt(ch->curl, CURLOPT_POSTFIELDSIZE_LARGE,
			 (curl_off_t)(body ? body_len : strlen(sql)));
	curl_easy_setopt(ch->curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(ch->curl, CURLOPT_WRITEDATA, &resp);
	curl_easy_setopt(ch->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(ch->curl, CURLOPT_HTTPHEADER,
			 gzipped ? ch->gzip_headers : ch->headers);
	curl_easy_setopt(ch->curl, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(ch->curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(ch->curl, CURLOPT_LOW_SPEED_TIME, ch->stall_s);
	curl_easy_setopt(ch->curl, CURLOPT_TIMEOUT, ch->total_s);
	if (ch->cacert)
		curl_easy_setopt(ch->curl, CURLOPT_CAINFO, ch->cacert);
	set_auth(ch);
	CURLcode rc = curl_easy_perform(ch->curl);
	free(url);
	long code = 0;
	curl_easy_getinfo(ch->curl, CURLINFO_RESPONSE_CODE, &code);
	int ret = 0;
	if (rc != CURLE_OK)
		ret = transfer_fail(ch, rc, sql, err);
	else if (code != 200)
		ret = server_fail(ch, code, &resp, err);
	else if (out && amd_buf_append(out, resp.data ? resp.data : "", resp.len) < 0)
		ret = amd_fail(err, "%s: out of memory", ch->name);
	/* set after server_fail, whose probe of a cluster is a request too;
	 * CURLE_WRITE_ERROR is this process out of memory (on_data) */
	ch->unanswered = rc != CURLE_OK && rc != CURLE_WRITE_ERROR;
	amd_buf_free(&resp);
	return ret;
}

int amd_ch_query(struct amd_ch *ch, const char *sql, struct amd_buf *out,
		 struct amd_err *err)
{
	return amd_ch_run(ch, sql, NULL, 0, 1, out, err);
}

/* amd_ch_query_each's queries, taken in turn by its threads. */
struct query_set {
	const char *url;
	const char *const *sql;
	struct amd_buf *out;
	struct amd_err *err;
	int *rc;
	size_t n, next;
	pthread_mutex_t lock;
};

static void run_queries(struct amd_ch *ch, struct query_set *q)
{
	for (;;) {
		pthread_mutex_lock(&q->lock);
		size_t i = q->next < q->n ? q->next++ : q->n;
		pthread_mutex_unlock(&q->lock);
		if (i == q->n)
			return;
		q->rc[i] = amd_ch_query(ch, q->sql[i], &q->out[i], &q->err[i]);
	}
}

/* A thread of amd_ch_query_each on a connection of its own; one that
 * cannot open it leaves its share to the others. */
static void *query_thread(void *arg)
{
	struct query_set *q = arg;
	struct amd_ch *ch;
	struct amd_err ignored;
	if (amd_ch_open(q->url, &ch, &ignored) < 0)
		return NULL;
	run_queries(ch, q);
	amd_ch_close(ch);
	return NULL;
}

int amd_ch_query_each(struct amd_ch *ch, const char *const *sql, size_t n, struct amd_buf *out,
		      struct amd_err *err)
{
	struct query_set q = {.url = ch->name, .sql = sql, .out = out, .n = n};
	q.err = calloc(n ? n : 1, sizeof *q.err);
	q.rc = calloc(n ? n : 1, sizeof *q.rc);
	if (!q.err || !q.rc) {
		free(q.err);
		free(q.rc);
		return amd_fail(err, "%s: out of memory", ch->name);
	}
	pthread_mutex_init(&q.lock, NULL);
	pthread_t t[AMD_CH_AT_ONCE - 1];
	size_t started = 0;
	while (started + 1 < AMD_CH_AT_ONCE && started + 1 < n &&
	       pthread_create(&t[started], NULL, query_thread, &q) == 0)
		started++;
	run_queries(ch, &q);
	for (size_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	pthread_mutex_destroy(&q.lock);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (q.rc[i] < 0) {
			*err = q.err[i];
			rc = -1;
		}
	free(q.err);
	free(q.rc);
	return rc;
}

int amd_ch_user_query(struct amd_ch *ch, const char *sql, struct amd_buf *out,
		      struct amd_err *err)
{
	ch->user_query = 1;
	int rc = amd_ch_run(ch, sql, NULL, 0, 1, out, err);
	ch->user_query = 0;
	return rc;
}

/* The first 15 hex digits of the SHA-256 are its first 60 bits: read
 * from the digest's bytes (one-shot SHA256, no context allocated, no
 * hex text), 2.5 µs → 0.34 µs a string, once per identity a shipped
 * row names. */
int64_t amd_ch_string_id(const char *s, size_t n)
{
	unsigned char md[SHA256_DIGEST_LENGTH];
	if (!SHA256((const unsigned char *)s, n, md))
		return -1;
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | md[i];
	int64_t id = (int64_t)(v >> 4);
	return id ? id : 1;
}
