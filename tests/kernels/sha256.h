/* SHA-256 of the library (src/io), checked against FIPS 180-2 answers. */
#ifndef STEX_TESTS_SHA256_H
#define STEX_TESTS_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Writes 64 lowercase hex digits and a NUL into hex. */
void sha256_hex(const void *data, size_t size, char hex[65]);
/* Known answers (FIPS 180-2): NULL if right, else the message that failed. */
const char *sha256_self_check(void);

#endif
