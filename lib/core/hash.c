/* hash.c — SHA-256 of files and byte pieces (OpenSSL's libcrypto);
 * see hash.h. Through libcrypto's SHA256_Init/_Update/_Final, the same
 * digest code as EVP's (SHA extensions where the CPU has them), not
 * through EVP: OpenSSL 3 sets up its library context, default provider
 * and configuration file at the first EVP digest, 2.6-3.2 ms of every
 * ingest process (best of 20 on this VM; the SHA256_* calls' first use
 * 0.27 ms), a tenth of what zcat takes on a 0.6 MB trace. Those calls
 * are marked deprecated in OpenSSL 3, still part of its API. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "hash.h"

#include <errno.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"

struct amd_sha {
	SHA256_CTX ctx;
};

struct amd_sha *amd_sha_new(void)
{
	struct amd_sha *s = calloc(1, sizeof *s);
	if (s && SHA256_Init(&s->ctx) != 1) {
		free(s);
		return NULL;
	}
	return s;
}

int amd_sha_update(struct amd_sha *s, const void *p, size_t n)
{
	return SHA256_Update(&s->ctx, p, n) == 1 ? 0 : -1;
}

int amd_sha_update_file(struct amd_sha *s, const char *path, uint64_t *size,
			struct amd_err *err)
{
	int fd = amd_open_regular(path, err);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return amd_fail(err, "%s: %s", path, strerror(errno));
	}
	unsigned char chunk[1 << 16];
	size_t n;
	uint64_t total = 0;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		amd_sha_update(s, chunk, n);
		total += n;
	}
	int bad = ferror(f);
	int e = errno;
	fclose(f);
	if (bad)
		return amd_fail(err, "%s: byte %llu: %s", path,
				(unsigned long long)total, strerror(e));
	if (size)
		*size += total;
	return 0;
}

void amd_sha_final(struct amd_sha *s, char hex[65])
{
	unsigned char md[SHA256_DIGEST_LENGTH];
	SHA256_Final(md, &s->ctx);
	for (unsigned i = 0; i < SHA256_DIGEST_LENGTH; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	hex[64] = '\0';
	free(s);
}

int amd_sha256_file(const char *path, char hex[65], uint64_t *size,
		    struct amd_err *err)
{
	struct amd_sha *s = amd_sha_new();
	if (!s)
		return amd_fail(err, "%s: cannot start SHA-256", path);
	if (size)
		*size = 0;
	if (amd_sha_update_file(s, path, size, err) < 0) {
		amd_sha_final(s, hex);
		return -1;
	}
	amd_sha_final(s, hex);
	return 0;
}
