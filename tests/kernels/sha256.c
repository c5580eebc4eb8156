/* The kernel tests' SHA-256: the library's, after its known answers. */
#include "sha256.h"

#include <stdio.h>
#include <string.h>

#include "io/sha256.h"

/* The library's SHA-256 (src/io/sha256.c, which the golden sidecars use);
 * the known answers below check it before any hash comparison is trusted. */
void sha256_hex(const void *data, size_t size, char hex[65])
{
    io_sha256_of(data, size, hex);
}

/* The FIPS 180-2 examples (one block, two blocks, a million 'a') and the
 * empty message: NULL when all match, else the message that failed.  The
 * kernel tests run it before trusting a hash. */
const char *sha256_self_check(void)
{
    static const struct {
        const char *msg, *hex;
    } known[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    char hex[65];
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        sha256_hex(known[i].msg, strlen(known[i].msg), hex);
        if (strcmp(hex, known[i].hex))
            return known[i].msg;
    }
    static uint8_t a[1000000];
    memset(a, 'a', sizeof a);
    sha256_hex(a, sizeof a, hex);
    if (strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"))
        return "a million 'a'";
    return NULL;
}
