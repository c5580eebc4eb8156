/*
 * mktables.c - the correction tables of the nvidia profile's special
 * functions (src/math/nvidia_sfu.gz) from the H200 sweep (tests/data/nvsweep).
 *
 *   node decode.mjs ../../tests/data/nvsweep exp2 /tmp/nvdec   (and inverseSqrt, sqrt)
 *   cc -O2 -I../../include -I../../src mktables.c ../../build/src/libstex.a -lm -lz -o /tmp/mktables
 *   /tmp/mktables /tmp/nvdec ../../src/math/nvidia_sfu.gz
 *
 * Six tables of 2^23 entries, each the device's result minus the correctly
 * rounded value (stex_m_correct1) of one input per mantissa, packed 2 bits an
 * entry (0: 0, 1: +1, 2: -1, 3: -2; no other difference occurs):
 *   0 exp2 of i * 2^-23      1 exp2 of -i * 2^-23
 *   2 sqrt of [1, 2)         3 sqrt of [2, 4)
 *   4 inverseSqrt of [1, 2)  5 inverseSqrt of [2, 4)
 * The file (gzip): "NVSFU1\0\0", then the six packed tables (2^21 bytes each).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "math/ops.h"

#define N (1u << 23)

static const struct {
    const char *file;
    stex_math_fn fn;
} TABLES[6] = {
    {"exp2-fix-0x00000000.u32", STEX_MATH_EXP2_F32},
    {"exp2-fix-0x00000001.u32", STEX_MATH_EXP2_F32},
    {"sqrt-bits-0x3f800000.u32", STEX_MATH_SQRT_F32},
    {"sqrt-bits-0x40000000.u32", STEX_MATH_SQRT_F32},
    {"inverseSqrt-bits-0x3f800000.u32", STEX_MATH_INVERSESQRT_F32},
    {"inverseSqrt-bits-0x40000000.u32", STEX_MATH_INVERSESQRT_F32},
};

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mktables DECODED_DIR OUT.gz\n");
        return 2;
    }
    static uint8_t packed[6][N / 4];
    uint32_t *buf = malloc(8u * N);
    for (int t = 0; t < 6; t++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], TABLES[t].file);
        FILE *f = fopen(path, "rb");
        if (!f || fread(buf, 8, N, f) != N) {
            fprintf(stderr, "%s: cannot read\n", path);
            return 1;
        }
        fclose(f);
        long hist[5] = {0};
        for (uint32_t i = 0; i < N; i++) {
            float x = m_float(buf[2 * i]);
            uint32_t cr = m_bits(stex_m_correct1(TABLES[t].fn, x)), dev = buf[2 * i + 1];
            int64_t d = (int64_t)dev - (int64_t)cr;
            unsigned code = d == 0 ? 0 : d == 1 ? 1 : d == -1 ? 2 : 3;
            if (d > 1 || d < -2) {
                fprintf(stderr, "%s: %08x differs by %lld ulp\n", TABLES[t].file, buf[2 * i], (long long)d);
                return 1;
            }
            hist[code]++;
            packed[t][i >> 2] |= (uint8_t)(code << (2 * (i & 3)));
        }
        printf("%-32s 0: %ld  +1: %ld  -1: %ld  -2: %ld\n", TABLES[t].file, hist[0], hist[1],
               hist[2], hist[3]);
    }
    gzFile g = gzopen(argv[2], "wb9");
    gzwrite(g, "NVSFU1\0\0", 8);
    gzwrite(g, packed, sizeof packed);
    gzclose(g);
    free(buf);
    return 0;
}
