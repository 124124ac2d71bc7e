/* curl_load.c — dlopen of libcurl on first use and dlsym of the functions
 * amdahl calls; see curl_load.h. */
#define AMD_CURL_LOAD_IMPL 1
#include "curl_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct amd_curl_api amd_curl_api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512]; /* empty: loaded */

static const char *soname(void)
{
	const char *env = getenv("AMDAHL_LIBCURL");
	return env && *env ? env : AMD_LIBCURL_SONAME;
}

/* dlsym's answer as the member's own type (POSIX: a function's address
 * round-trips through void *). */
#define AMD_CURL_FIND(name)                                                                   \
	if (!failure[0] && !(*(void **)&amd_curl_api.name = dlsym(lib, #name)))                \
		snprintf(failure, sizeof failure, "%s: no %s in it (libcurl older than 7.62?)",     \
			 soname(), #name);

static void load_once(void)
{
	void *lib = dlopen(soname(), RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *why = dlerror();
		snprintf(failure, sizeof failure, "cannot load libcurl (%s), which this needs: %s",
			 soname(), why ? why : "no reason given");
		return;
	}
	AMD_CURL_FUNCTIONS(AMD_CURL_FIND)
	/* a library without one of them stays mapped (dlclose is not worth
	 * the race with another thread's failed call) */
}

int amd_curl_load(struct amd_err *err)
{
	pthread_once(&once, load_once);
	if (!failure[0])
		return 0;
	return err ? amd_fail(err, "%s", failure) : -1;
}
