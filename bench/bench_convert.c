/* bench_convert: texel encode/decode throughput per format class and profile,
 * through the per-texel fast path (stex_encoder/stex_decoder), and the f32 ->
 * f16 conversion against the CPU's F16C instruction (_mm256_cvtps_ph, the
 * physical limit).  Everything is measured in this one run and printed as
 * rates and ratios.
 *
 *   meson compile -C build && ./build/bench/bench_convert [texels]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stex/convert.h"

#if STEX_HAVE_F16C_REF
#include "f16c_ref.h"
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint32_t rng_state = 0x12345678;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

typedef struct fclass {
    const char *name;
    stex_format format;
} fclass;

static const fclass classes[] = {
    {"unorm8", STEX_FORMAT_RGBA8UNORM}, {"snorm8", STEX_FORMAT_RGBA8SNORM},
    {"f16", STEX_FORMAT_RGBA16FLOAT},   {"f32", STEX_FORMAT_RGBA32FLOAT},
    {"uint", STEX_FORMAT_RGBA8UINT},    {"packed", STEX_FORMAT_RGB10A2UNORM},
    {"packed-uf", STEX_FORMAT_RG11B10UFLOAT},
};

static volatile uint32_t sink;

/* Best of `reps` passes over n texels, in ns per texel. */
static double time_encode(const stex_profile *p, stex_format f, const stex_vec4 *in,
                          uint8_t *out, size_t n, int reps)
{
    stex_encode_fn enc = stex_encoder(f);
    unsigned bpt = stex_format_get(f)->bytes;
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (size_t i = 0; i < n; i++)
            enc(p, &in[i], out + i * bpt);
        double t = now() - t0;
        best = t < best ? t : best;
        sink += out[(size_t)r % (n * bpt)];
    }
    return best * 1e9 / (double)n;
}

static double time_decode(const stex_profile *p, stex_format f, const uint8_t *in,
                          stex_vec4 *out, size_t n, int reps)
{
    stex_decode_fn dec = stex_decoder(f);
    unsigned bpt = stex_format_get(f)->bytes;
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (size_t i = 0; i < n; i++)
            dec(p, in + i * bpt, &out[i]);
        double t = now() - t0;
        best = t < best ? t : best;
        sink += out[(size_t)r % n].u[0];
    }
    return best * 1e9 / (double)n;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : (size_t)1 << 20;
    const int reps = 5;
    if (n < 64)
        n = 64;
    stex_vec4 *in = malloc(n * sizeof *in), *back = malloc(n * sizeof *back);
    uint8_t *bytes = malloc(n * 16);
    float *xs = malloc(n * 4 * sizeof *xs);
    uint16_t *hs = malloc(n * 4 * sizeof *hs);
    if (!in || !back || !bytes || !xs || !hs)
        return 1;
    /* values a shader stores: mostly in [-0.25, 1.25], some large, some NaN */
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 4; c++) {
            uint32_t r = rnd();
            float v = (float)(r % 1000000) * 1.5e-6f - 0.25f;
            if (r % 97 == 0)
                v *= 1e5f;
            in[i].f[c] = v;
            xs[i * 4 + c] = v;
        }
    printf("bench_convert: %zu texels per pass, best of %d passes, one thread\n\n", n, reps);
    printf("%-10s %-9s %12s %12s %14s %14s\n", "class", "profile", "encode ns", "decode ns",
           "enc vs f32", "dec vs f32");
    for (int pi = 0; pi < STEX_PROFILE_COUNT; pi++) {
        const stex_profile *p = stex_profile_get((stex_profile_id)pi);
        double enc32 = time_encode(p, STEX_FORMAT_RGBA32FLOAT, in, bytes, n, reps);
        double dec32 = time_decode(p, STEX_FORMAT_RGBA32FLOAT, bytes, back, n, reps);
        for (size_t ci = 0; ci < sizeof classes / sizeof *classes; ci++) {
            stex_format f = classes[ci].format;
            double e = time_encode(p, f, in, bytes, n, reps);
            double d = time_decode(p, f, bytes, back, n, reps);
            printf("%-10s %-9s %12.2f %12.2f %13.2fx %13.2fx\n", classes[ci].name,
                   stex_profile_name((stex_profile_id)pi), e, d, e / enc32, d / dec32);
        }
    }
    /* scalar f32 -> f16 against the hardware */
    size_t m = n * 4;
    const stex_profile *spec = stex_profile_get(STEX_PROFILE_SPEC);
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (size_t i = 0; i < m; i++)
            hs[i] = stex_f32_to_f16(spec, xs[i]);
        double t = now() - t0;
        best = t < best ? t : best;
        sink += hs[r];
    }
    double ns_stex = best * 1e9 / (double)m;
    printf("\nf32 -> f16 (spec, round to nearest even), per value:\n");
    printf("  stex_f32_to_f16          %8.3f ns\n", ns_stex);
#if STEX_HAVE_F16C_REF
    if (f16c_supported()) {
        double bs = 1e30, bv = 1e30;
        for (int r = 0; r < reps; r++) {
            double t0 = now();
            for (size_t i = 0; i < m; i++)
                hs[i] = f16c_from_f32_rne(xs[i]);
            double t = now() - t0;
            bs = t < bs ? t : bs;
            t0 = now();
            f16c_from_f32_rne_n(xs, hs, (unsigned)m);
            t = now() - t0;
            bv = t < bv ? t : bv;
            sink += hs[r];
        }
        double ns_s = bs * 1e9 / (double)m, ns_v = bv * 1e9 / (double)m;
        printf("  F16C vcvtps2ph, scalar   %8.3f ns   stex / F16C scalar = %.2fx\n", ns_s,
               ns_stex / ns_s);
        printf("  F16C _mm256_cvtps_ph x8  %8.3f ns   stex / F16C x8     = %.2fx\n", ns_v,
               ns_stex / ns_v);
    } else {
        printf("  (this CPU lacks F16C: no hardware reference)\n");
    }
#else
    printf("  (built without an F16C reference)\n");
#endif
    free(in);
    free(back);
    free(bytes);
    free(xs);
    free(hs);
    return 0;
}
