/* tfrecord.h — reading TFRecord framing (TensorBoard event files): each
 * record is an 8-byte little-endian length, the masked CRC32C of those
 * 8 bytes, the data, and the masked CRC32C of the data. Both CRCs are
 * checked (ISA-L's crc32_iscsi); a CRC that does not match or a record
 * over the size limit is an error naming the file, the record and its
 * byte offset. A file that ends inside its last record (a job killed, or
 * still writing) ends the records there: amd_tfrecord_torn says where.
 * Gzipped files are read through. */
#ifndef AMD_TFRECORD_H
#define AMD_TFRECORD_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define AMD_TFRECORD_MAX (1u << 30) /* one record's data */

/* The masked CRC32C TFRecord stores for n bytes at p. */
uint32_t amd_tfrecord_masked_crc(const unsigned char *p, size_t n);
/* Does the head hold a record header whose length CRC matches? */
int amd_tfrecord_head_ok(const unsigned char *head, size_t n);

struct amd_tfrecord;
struct amd_tfrecord *amd_tfrecord_open(const char *path, struct amd_err *err);
/* 1: *data and *len hold the next record's data (valid until the next
 * call), *offset its header's byte offset; 0: end of file; -1: error. */
int amd_tfrecord_next(struct amd_tfrecord *r, const unsigned char **data, size_t *len,
		      uint64_t *offset, struct amd_err *err);
/* After amd_tfrecord_next returned 0: 1 when the file ended inside a
 * record (torn), its header's byte offset in *offset; else 0. */
int amd_tfrecord_torn(const struct amd_tfrecord *r, uint64_t *offset);
/* Records read so far (the current one is number count, from 1). */
uint64_t amd_tfrecord_count(const struct amd_tfrecord *r);
void amd_tfrecord_close(struct amd_tfrecord *r);

#endif
