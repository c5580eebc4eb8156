/*
 * check.c - replays decoded sweeps (decode.mjs output: pairs of u32 input,
 * u32 device bits) through the nvidia profile and counts bit-exact results
 * and the largest ulp distance per file.
 *
 *   cc -O2 -I../../include check.c ../../build/src/libstex.a -lm -lz -lpthread -o /tmp/nvcheck
 *   /tmp/nvcheck /tmp/nvdec/log2-bits-0x40000000.u32 ...   (function from the name)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stex/math.h"

int main(int argc, char **argv)
{
    const stex_profile *p = stex_profile_get(STEX_PROFILE_NVIDIA);
    int bad = 0;
    for (int a = 1; a < argc; a++) {
        const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
        char op[32];
        size_t len = strcspn(base, "-");
        snprintf(op, sizeof op, "%.*s", (int)len, base);
        stex_math_fn fn;
        if (!stex_math_fn_find(op, "f32->f32", &fn)) {
            fprintf(stderr, "%s: no function %s\n", argv[a], op);
            return 2;
        }
        FILE *f = fopen(argv[a], "rb");
        if (!f)
            return 2;
        uint32_t pair[2], got;
        unsigned long n = 0, exact = 0;
        long long maxulp = 0;
        while (fread(pair, 4, 2, f) == 2) {
            stex_math_eval(p, fn, &pair[0], &got);
            n++;
            if (got == pair[1]) {
                exact++;
                continue;
            }
            long long d = (long long)(got & 0x7fffffffu) * ((got >> 31) ? -1 : 1) -
                          (long long)(pair[1] & 0x7fffffffu) * ((pair[1] >> 31) ? -1 : 1);
            if (d < 0)
                d = -d;
            if (d > maxulp)
                maxulp = d;
        }
        fclose(f);
        printf("%-34s %lu/%lu bit-exact, max ulp %lld\n", base, exact, n, maxulp);
        bad |= exact != n;
    }
    return bad;
}
