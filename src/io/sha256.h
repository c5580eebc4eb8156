/* SHA-256 (FIPS 180-4), streaming: the sidecar of a golden records the hash
 * of its data file and of its recorded inputs, so that a golden and its
 * companions can be checked to belong together. */
#ifndef STEX_IO_SHA256_H
#define STEX_IO_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct io_sha256 {
    uint32_t h[8];
    uint64_t bytes;    /* message length so far */
    uint8_t block[64]; /* the partial block */
    size_t fill;       /* bytes in block */
} io_sha256;

void io_sha256_init(io_sha256 *s);
void io_sha256_update(io_sha256 *s, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL into hex. */
void io_sha256_hex(io_sha256 *s, char hex[65]);
/* The hash of one buffer, in one call. */
void io_sha256_of(const void *data, size_t n, char hex[65]);

#endif
