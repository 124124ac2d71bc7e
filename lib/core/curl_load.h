/* curl_load.h — libcurl, loaded on first use (issue 38, "an ingest that
 * starts fast"). amdahl is not linked with libcurl: a process that only
 * ingests into SQLite or prints statistics never maps it and the ~40
 * libraries it pulls in (TLS, Kerberos, LDAP, SSH...). The two users, the
 * ClickHouse transport (lib/remote/ch_http.c) and the mail
 * (lib/deliver/mail.c), include this header instead of <curl/curl.h>,
 * call amd_curl_load() at each entry point, and then call libcurl by its
 * own names: each name below is a macro for the function dlsym found.
 * (curl's compile-time option type check, typecheck-gcc.h, is off here:
 * it is written against the function names, not pointers.) */
#ifndef AMD_CURL_LOAD_H
#define AMD_CURL_LOAD_H

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

#include "err.h"

/* The soname of Debian's libcurl4 (libcurl4-openssl-dev's link name
 * points at it); AMDAHL_LIBCURL overrides it (a test names a missing
 * file to see the error). */
#define AMD_LIBCURL_SONAME "libcurl.so.4"

/* Every libcurl function amdahl calls, once. */
#define AMD_CURL_FUNCTIONS(X)                                                                  \
	X(curl_easy_cleanup) X(curl_easy_escape) X(curl_easy_getinfo) X(curl_easy_init)        \
	X(curl_easy_perform) X(curl_easy_reset) X(curl_easy_setopt)                            \
	X(curl_easy_strerror) X(curl_easy_unescape) X(curl_free) X(curl_mime_addpart)          \
	X(curl_mime_data) X(curl_mime_encoder) X(curl_mime_filedata)                           \
	X(curl_mime_filename) X(curl_mime_free) X(curl_mime_init) X(curl_mime_subparts)        \
	X(curl_mime_type) X(curl_slist_append) X(curl_slist_free_all) X(curl_url)              \
	X(curl_url_cleanup) X(curl_url_get) X(curl_url_set)

#define AMD_CURL_MEMBER(name) __typeof__(name) *name;
struct amd_curl_api {
	AMD_CURL_FUNCTIONS(AMD_CURL_MEMBER)
};
#undef AMD_CURL_MEMBER

/* Filled by amd_curl_load; read only after it returned 0. */
extern struct amd_curl_api amd_curl_api;

/* Loads libcurl once per process (thread-safe) and finds every function
 * above: 0, or -1 with "libcurl.so.4: <dlerror>" in err (err may be
 * NULL) on every call after a failed load. */
int amd_curl_load(struct amd_err *err);

#ifndef AMD_CURL_LOAD_IMPL
#undef curl_easy_getinfo /* curl.h's own argument-count checks */
#undef curl_easy_setopt
#define curl_easy_cleanup (amd_curl_api.curl_easy_cleanup)
#define curl_easy_escape (amd_curl_api.curl_easy_escape)
#define curl_easy_getinfo (amd_curl_api.curl_easy_getinfo)
#define curl_easy_init (amd_curl_api.curl_easy_init)
#define curl_easy_perform (amd_curl_api.curl_easy_perform)
#define curl_easy_reset (amd_curl_api.curl_easy_reset)
#define curl_easy_setopt (amd_curl_api.curl_easy_setopt)
#define curl_easy_strerror (amd_curl_api.curl_easy_strerror)
#define curl_easy_unescape (amd_curl_api.curl_easy_unescape)
#define curl_free (amd_curl_api.curl_free)
#define curl_mime_addpart (amd_curl_api.curl_mime_addpart)
#define curl_mime_data (amd_curl_api.curl_mime_data)
#define curl_mime_encoder (amd_curl_api.curl_mime_encoder)
#define curl_mime_filedata (amd_curl_api.curl_mime_filedata)
#define curl_mime_filename (amd_curl_api.curl_mime_filename)
#define curl_mime_free (amd_curl_api.curl_mime_free)
#define curl_mime_init (amd_curl_api.curl_mime_init)
#define curl_mime_subparts (amd_curl_api.curl_mime_subparts)
#define curl_mime_type (amd_curl_api.curl_mime_type)
#define curl_slist_append (amd_curl_api.curl_slist_append)
#define curl_slist_free_all (amd_curl_api.curl_slist_free_all)
#define curl_url (amd_curl_api.curl_url)
#define curl_url_cleanup (amd_curl_api.curl_url_cleanup)
#define curl_url_get (amd_curl_api.curl_url_get)
#define curl_url_set (amd_curl_api.curl_url_set)
#endif

#endif
