/* name_cap.c — a long name as its prefix, "…" and a short hash of the
 * whole (name_cap.h). */
#include "name_cap.h"

#include <string.h>

#include "hash.h"

#define ELLIPSIS "\xe2\x80\xa6"

const char *amd_name_cap(const char *s, char out[AMD_NAME_MAX + 1])
{
	size_t n = strlen(s);
	if (n <= AMD_NAME_MAX)
		return s;
	struct amd_sha *sha = amd_sha_new();
	if (!sha)
		return NULL;
	char hex[65];
	if (amd_sha_update(sha, s, n) < 0) {
		amd_sha_final(sha, hex);
		return NULL;
	}
	amd_sha_final(sha, hex);
	size_t keep = AMD_NAME_MAX - (sizeof ELLIPSIS - 1) - AMD_NAME_HASH_HEX;
	while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
		keep--; /* s[keep] continues a character: cut before it */
	memcpy(out, s, keep);
	memcpy(out + keep, ELLIPSIS, sizeof ELLIPSIS - 1);
	memcpy(out + keep + sizeof ELLIPSIS - 1, hex, AMD_NAME_HASH_HEX);
	out[keep + sizeof ELLIPSIS - 1 + AMD_NAME_HASH_HEX] = '\0';
	return out;
}
