/* fuzz_mail_subject.c — the Subject header's RFC 2047 encoding
 * (lib/deliver/mail.h amd_mail_subject_value) on any bytes up to the
 * first NUL: the value is printable ASCII; a printable ASCII input is
 * kept as it is; otherwise every line is one encoded word
 * "=?UTF-8?B?...?=" (the first after "Subject: ") within 78 columns,
 * lines joined by CRLF SP, and the words' base64 (decoded by libcrypto's
 * EVP_DecodeBlock) joined give back the input byte for byte. */
#include "fuzz.h"
#include "buf.h"
#include "mail.h"

#include <openssl/evp.h>

/* Decodes one word into out; -1 when it is not an encoded word. */
static int decode_word(const char *w, size_t n, struct amd_buf *out)
{
	static const char pre[] = "=?UTF-8?B?";
	if (n < sizeof pre + 1 || memcmp(w, pre, sizeof pre - 1) || memcmp(w + n - 2, "?=", 2))
		return -1;
	const char *b64 = w + sizeof pre - 1;
	size_t m = n - (sizeof pre - 1) - 2;
	if (m % 4)
		return -1;
	unsigned char *bytes = malloc(m / 4 * 3 + 1);
	if (!bytes)
		abort();
	int got = EVP_DecodeBlock(bytes, (const unsigned char *)b64, (int)m);
	if (got < 0)
		abort();
	size_t pad = (m && b64[m - 1] == '=') + (m > 1 && b64[m - 2] == '=');
	amd_buf_append(out, bytes, (size_t)got - pad);
	free(bytes);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = strndup((const char *)data, size);
	struct amd_buf v = {0}, back = {0};
	if (!s || amd_mail_subject_value(s, &v) < 0 || amd_buf_append(&back, "", 0) < 0)
		abort();
	int ascii = 1;
	for (const char *p = s; *p; p++)
		ascii &= *p >= 0x20 && *p <= 0x7e;
	for (size_t i = 0; i < v.len; i++)
		if ((v.data[i] < 0x20 || v.data[i] > 0x7e) && v.data[i] != '\r' && v.data[i] != '\n')
			abort(); /* a byte that is not ASCII in the header */
	if (ascii) {
		if (strcmp(v.data, s) != 0)
			abort();
	} else {
		size_t col = strlen("Subject: ");
		for (const char *w = v.data, *end; *w; w = *end ? end + 3 : end) {
			end = strstr(w, "\r\n ");
			end = end ? end : w + strlen(w);
			if (col + (size_t)(end - w) > 78 || decode_word(w, (size_t)(end - w), &back) < 0)
				abort();
			col = 1;
		}
		if (back.len != strlen(s) || memcmp(back.data, s, back.len) != 0)
			abort();
	}
	amd_buf_free(&v);
	amd_buf_free(&back);
	free(s);
	return 0;
}
