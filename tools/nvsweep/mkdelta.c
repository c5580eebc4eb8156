/*
 * mkdelta.c - result tables of the nvidia profile for the functions whose
 * H200 results are not within -2..+1 ulp of the correctly rounded value
 * (src/math/nvidia_lg2.gz: log2; src/math/nvidia_sin.gz: MUFU.SIN/COS) from
 * the H200 sweep (tests/data/nvsweep).
 *
 *   node decode.mjs ../../tests/data/nvsweep log2 /tmp/nvdec   (and sin, cos)
 *   cc -O2 -I../../include -I../../src mkdelta.c ../../build/src/libstex.a -lm -lz -lpthread -o /tmp/mkdelta
 *   /tmp/mkdelta /tmp/nvdec ../../src/math/nvidia_lg2.gz ../../src/math/nvidia_sin.gz
 *
 * Two tables of 2^23 entries, the device's log2 of every f32 of [1, 2) and of
 * [0.5, 1) by mantissa: int8 device bits - correctly rounded bits
 * (stex_m_correct1), -128 = an exception, then u32 n and n pairs (u32 index,
 * u32 device bits) for the exceptions, in index order (little-endian).  The
 * file (gzip): "NVLG2\0\0\0", then the two tables.
 *
 * sin and cos: t = x * f32(1/(2 pi)) rounded toward zero to f32; q = the
 * fraction of t as 25-bit fixed point (truncated); cos adds 2^23 (a quarter
 * turn); quadrant Q = q >> 23, r = q mod 2^23, j = r in quadrants 0 and 2,
 * 2^23 - 1 - r (r's bits complemented) in 1 and 3, negative in 2 and 3: the
 * result is +-S[j].  Every swept sin and cos (every f32 of [0.5, 8)) agrees
 * with one table S of 2^23 entries, all of them seen.  The file (gzip):
 * "NVSIN\0\0\0", then S in the same format against the correctly rounded
 * sin of f32(j * 2 pi / 2^25) (j * that double constant, rounded once), then
 * the device's MUFU.RCP of every f32 of [1, 2) (the recip sweep, `1.0 / x`)
 * against the correctly rounded 1 / x: tan is sin * rcp(cos).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
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

/* one table: int8 deltas from ref[i], exceptions (index, bits) */
static void put32(gzFile g, uint32_t v);
static uint32_t put_table(gzFile g, const uint32_t *dev, const uint32_t *ref, int8_t *delta,
                          uint32_t *exc)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < N; i++) {
        int64_t d = (int64_t)(dev[i] & 0x7fffffffu) - (int64_t)(ref[i] & 0x7fffffffu);
        if ((dev[i] ^ ref[i]) >> 31 || d < -127 || d > 127) {
            delta[i] = -128;
            exc[2 * n] = i;
            exc[2 * n + 1] = dev[i];
            n++;
        } else {
            delta[i] = (int8_t)d;
        }
    }
    gzwrite(g, delta, N);
    put32(g, n);
    for (uint32_t k = 0; k < 2 * n; k++)
        put32(g, exc[k]);
    return n;
}

static void put32(gzFile g, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    gzwrite(g, b, 4);
}

static int sin_table(const char *dir, const char *out, uint32_t *buf, int8_t *delta,
                     uint32_t *exc)
{
    static const char *range[4] = {"0x3f000000", "0x3f800000", "0x40000000", "0x40800000"};
    uint32_t *S = calloc(N, 4), *ref = malloc(4u * N);
    uint8_t *seen = calloc(N, 1);
    const float c = (float)(1.0 / (2.0 * 3.141592653589793));
    long conflicts = 0, seen_n = 0;
    for (int fn = 0; fn < 2; fn++)
        for (int k = 0; k < 4; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s-bits-%s.u32", dir, fn ? "cos" : "sin", range[k]);
            FILE *f = fopen(path, "rb");
            if (!f || fread(buf, 8, N, f) != N) {
                fprintf(stderr, "%s: cannot read\n", path);
                return 1;
            }
            fclose(f);
            for (uint32_t i = 0; i < N; i++) {
                double p = (double)m_float(buf[2 * i]) * (double)c; /* exact */
                float t = (float)p;
                if (fabs((double)t) > fabs(p))
                    t = nextafterf(t, 0.0f);
                uint32_t q = (uint32_t)ldexp((double)t - floor((double)t), 25);
                if (fn)
                    q = (q + N) & (4 * N - 1);
                uint32_t Q = q >> 23, r = q & (N - 1), j = Q & 1 ? N - 1 - r : r;
                uint32_t v = buf[2 * i + 1];
                if (((v >> 31) != (Q >> 1) && (v & 0x7fffffffu)) || (seen[j] && S[j] != (v & 0x7fffffffu)))
                    conflicts++;
                seen_n += !seen[j];
                seen[j] = 1;
                S[j] = v & 0x7fffffffu;
            }
        }
    if (conflicts || seen_n != (long)N) {
        fprintf(stderr, "sin/cos: %ld conflicts, %ld of %u entries seen\n", conflicts, seen_n, N);
        return 1;
    }
    for (uint32_t j = 0; j < N; j++)
        ref[j] = m_bits(stex_m_correct1(STEX_MATH_SIN_F32,
                                        (float)((double)j * (6.283185307179586 / 33554432.0))));
    gzFile g = gzopen(out, "wb9");
    gzwrite(g, "NVSIN\0\0\0", 8);
    printf("%-28s exceptions %u\n", "sin/cos quadrant table", put_table(g, S, ref, delta, exc));
    char path[4096];
    snprintf(path, sizeof path, "%s/recip-bits-0x3f800000.u32", dir);
    FILE *f = fopen(path, "rb");
    if (!f || fread(buf, 8, N, f) != N) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    fclose(f);
    for (uint32_t i = 0; i < N; i++) {
        S[i] = buf[2 * i + 1];
        ref[i] = m_bits(1.0f / m_float(buf[2 * i]));
    }
    printf("%-28s exceptions %u\n", "recip of [1, 2)", put_table(g, S, ref, delta, exc));
    gzclose(g);
    free(S);
    free(ref);
    free(seen);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: mkdelta DECODED_DIR LG2_OUT.gz SIN_OUT.gz\n");
        return 2;
    }
    static int8_t delta[N];
    uint32_t *buf = malloc(8u * N), *exc = malloc(8u * N), *dev = malloc(4u * N),
             *ref = malloc(4u * N);
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
        for (uint32_t i = 0; i < N; i++) {
            dev[i] = buf[2 * i + 1];
            ref[i] = m_bits(stex_m_correct1(TABLES[t].fn, m_float(buf[2 * i])));
        }
        printf("%-28s exceptions %u\n", TABLES[t].file, put_table(g, dev, ref, delta, exc));
    }
    gzclose(g);
    int rc = sin_table(argv[1], argv[3], buf, delta, exc);
    free(buf);
    free(exc);
    free(dev);
    free(ref);
    return rc;
}
