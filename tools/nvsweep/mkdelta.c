/*
 * mkdelta.c - per-mantissa result tables of the nvidia profile for the
 * functions whose H200 results are not within -2..+1 ulp of the correctly
 * rounded value (src/math/nvidia_lg2.gz: log2) from the H200 sweep
 * (tests/data/nvsweep).
 *
 *   node decode.mjs ../../tests/data/nvsweep log2 /tmp/nvdec
 *   cc -O2 -I../../include -I../../src mkdelta.c ../../build/src/libstex.a -lm -lz -o /tmp/mkdelta
 *   /tmp/mkdelta /tmp/nvdec ../../src/math/nvidia_lg2.gz
 *
 * Two tables of 2^23 entries, the device's log2 of every f32 of [1, 2) and of
 * [0.5, 1) by mantissa: int8 device bits - correctly rounded bits
 * (stex_m_correct1), -128 = an exception, then u32 n and n pairs (u32 index,
 * u32 device bits) for the exceptions, in index order (little-endian).  The
 * file (gzip): "NVLG2\0\0\0", then the two tables.
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
} TABLES[] = {
    {"log2-bits-0x3f800000.u32", STEX_MATH_LOG2_F32},
    {"log2-bits-0x3f000000.u32", STEX_MATH_LOG2_F32},
};
#define NT (sizeof TABLES / sizeof TABLES[0])

static void put32(gzFile g, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    gzwrite(g, b, 4);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mkdelta DECODED_DIR OUT.gz\n");
        return 2;
    }
    static int8_t delta[N];
    uint32_t *buf = malloc(8u * N), *exc = malloc(8u * N);
    gzFile g = gzopen(argv[2], "wb9");
    gzwrite(g, "NVLG2\0\0\0", 8);
    for (unsigned t = 0; t < NT; t++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], TABLES[t].file);
        FILE *f = fopen(path, "rb");
        if (!f || fread(buf, 8, N, f) != N) {
            fprintf(stderr, "%s: cannot read\n", path);
            return 1;
        }
        fclose(f);
        uint32_t n = 0;
        for (uint32_t i = 0; i < N; i++) {
            float x = m_float(buf[2 * i]);
            uint32_t cr = m_bits(stex_m_correct1(TABLES[t].fn, x)), dev = buf[2 * i + 1];
            int64_t d = (int64_t)(dev & 0x7fffffffu) - (int64_t)(cr & 0x7fffffffu);
            if ((dev ^ cr) >> 31 || d < -127 || d > 127) {
                delta[i] = -128;
                exc[2 * n] = i;
                exc[2 * n + 1] = dev;
                n++;
            } else {
                delta[i] = (int8_t)d;
            }
        }
        gzwrite(g, delta, N);
        put32(g, n);
        for (uint32_t k = 0; k < 2 * n; k++)
            put32(g, exc[k]);
        printf("%-28s exceptions %u\n", TABLES[t].file, n);
    }
    gzclose(g);
    free(buf);
    free(exc);
    return 0;
}
