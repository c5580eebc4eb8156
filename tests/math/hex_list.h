/* tests/math/hex_list.h - the conformance files' comma-separated hex words
 * ("3f800000,00000001"), read by every test of the measured rows. */
#ifndef STEX_TESTS_MATH_HEX_LIST_H
#define STEX_TESTS_MATH_HEX_LIST_H

#include <stdint.h>
#include <stdlib.h>

/* Up to max words of s into out[]; their count, or -1 at a word that is not hex. */
static inline int parse_hex_list(const char *s, uint32_t *out, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        out[n++] = (uint32_t)strtoul(s, &end, 16);
        if (end == s)
            return -1;
        s = end;
        if (*s == ',')
            s++;
    }
    return n;
}

#endif
