/* Tiled memory against linear memory, measured in one run:
 *   1. textureStore + textureLoad (rgba8unorm, through the converter) over a
 *      tiled view vs a plain linear array, in workgroup (8x8) order;
 *   2. the Morton index: BMI2 pdep (when the CPU has it) vs the portable
 *      shift/mask version vs a 256-entry table;
 *   3. a 3x3 box stencil (r32float) over tiled vs linear memory, walked in
 *      8x8 workgroups (cache friendly for tiles) and in rows.
 * Usage: bench_layout [size] (default 2048). Prints times and ratios. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define HAVE_PDEP 1
#else
#define HAVE_PDEP 0
#endif

#include "stex/stex.h"

static void die(const char *what)
{
    fprintf(stderr, "bench_layout: %s: %s\n", what, stex_last_error());
    exit(1);
}

static volatile uint64_t sink;

/* ---- 1. store + load ---- */

typedef struct linear_image {
    uint8_t *mem;
    uint32_t w, h, bpp;
} linear_image;

static double store_load_tiled(const stex_view_access *a, uint32_t n)
{
    double t0 = omp_get_wtime();
    uint64_t acc = 0;
    for (uint32_t by = 0; by < n; by += 8)
        for (uint32_t bx = 0; bx < n; bx += 8)
            for (uint32_t y = by; y < by + 8; y++)
                for (uint32_t x = bx; x < bx + 8; x++) {
                    uint8_t *t = stex_view_access_texel(a, x, y, 0);
                    stex_vec4 v = {.f = {(float)(x & 255) / 255.0f, 0.5f, 0.25f, 1.0f}}, r;
                    a->encode(a->profile, &v, t);
                    a->decode(a->profile, stex_view_access_texel(a, x, y ? y - 1 : 0, 0), &r);
                    acc += (uint64_t)(r.f[0] * 255.0f);
                }
    sink = acc;
    return omp_get_wtime() - t0;
}

static double store_load_linear(const stex_view_access *a, const linear_image *l)
{
    double t0 = omp_get_wtime();
    uint64_t acc = 0;
    uint32_t n = l->w;
    for (uint32_t by = 0; by < n; by += 8)
        for (uint32_t bx = 0; bx < n; bx += 8)
            for (uint32_t y = by; y < by + 8; y++)
                for (uint32_t x = bx; x < bx + 8; x++) {
                    if ((uint64_t)x >= l->w || (uint64_t)y >= l->h)
                        continue; /* the same bounds check the view does */
                    uint8_t *t = l->mem + ((size_t)y * l->w + x) * l->bpp;
                    stex_vec4 v = {.f = {(float)(x & 255) / 255.0f, 0.5f, 0.25f, 1.0f}}, r;
                    a->encode(a->profile, &v, t);
                    a->decode(a->profile, l->mem + ((size_t)(y ? y - 1 : 0) * l->w + x) * l->bpp, &r);
                    acc += (uint64_t)(r.f[0] * 255.0f);
                }
    sink = acc;
    return omp_get_wtime() - t0;
}

/* ---- 2. Morton index ---- */

enum { MORTON_N = 1 << 12 };

static double morton_portable(void)
{
    double t0 = omp_get_wtime();
    uint32_t acc = 0;
    for (uint32_t y = 0; y < MORTON_N; y++)
        for (uint32_t x = 0; x < MORTON_N; x++)
            acc += stex_morton_spread16(x) | (stex_morton_spread16(y) << 1);
    sink = acc;
    return omp_get_wtime() - t0;
}

static double morton_table(void)
{
    double t0 = omp_get_wtime();
    uint32_t acc = 0;
    for (uint32_t y = 0; y < MORTON_N; y++)
        for (uint32_t x = 0; x < MORTON_N; x++)
            acc += stex_morton2_table(x, y);
    sink = acc;
    return omp_get_wtime() - t0;
}

#if HAVE_PDEP
__attribute__((target("bmi2"))) static double morton_pdep(void)
{
    double t0 = omp_get_wtime();
    uint32_t acc = 0;
    for (uint32_t y = 0; y < MORTON_N; y++)
        for (uint32_t x = 0; x < MORTON_N; x++)
            acc += _pdep_u32(x, 0x55555555u) | _pdep_u32(y, 0xaaaaaaaau);
    sink = acc;
    return omp_get_wtime() - t0;
}
#endif

/* ---- 3. 3x3 stencil ---- */

static float at(const uint8_t *mem, const stex_level_layout *l, int64_t x, int64_t y)
{
    if ((uint64_t)x >= l->width || (uint64_t)y >= l->height)
        return 0; /* out-of-bounds loads read zero */
    float f;
    memcpy(&f, mem + stex_level_offset(l, (uint32_t)x, (uint32_t)y, 0), 4);
    return f;
}

static double stencil(const uint8_t *mem, const stex_level_layout *l, bool workgroups)
{
    double t0 = omp_get_wtime();
    double acc = 0;
    uint32_t n = l->width, step = workgroups ? 8 : n;
    for (uint32_t by = 0; by < n; by += workgroups ? 8 : 1)
        for (uint32_t bx = 0; bx < n; bx += step)
            for (uint32_t y = by; y < by + (workgroups ? 8 : 1); y++)
                for (uint32_t x = bx; x < bx + step; x++) {
                    float s = 0;
                    for (int k = 0; k < 9; k++)
                        s += at(mem, l, (int64_t)x + stex_stencil_3x3[k][0], (int64_t)y + stex_stencil_3x3[k][1]);
                    acc += s;
                }
    sink = (uint64_t)acc;
    return omp_get_wtime() - t0;
}

static double best(double (*f)(void), int reps)
{
    double b = 1e9;
    for (int r = 0; r < reps; r++) {
        double t = f();
        b = t < b ? t : b;
    }
    return b;
}

int main(int argc, char **argv)
{
    uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 2048;
    if (n < 8 || n % 8 || n > 8192) {
        fprintf(stderr, "bench_layout: size must be a multiple of 8 in 8..8192\n");
        return 2;
    }
    stex_adapter *ad;
    stex_device *dev;
    if (stex_adapter_create(NULL, &ad) || stex_device_create(ad, NULL, &dev))
        die("device");
    stex_texture *t;
    stex_texture_desc td = {.size = {n, n, 1}, .format = STEX_FORMAT_RGBA8UNORM, .usage = STEX_USAGE_STORAGE_BINDING};
    if (stex_texture_create(dev, &td, &t))
        die("texture");
    stex_texture_view *v;
    if (stex_texture_create_view(t, NULL, &v))
        die("view");
    stex_view_access a;
    stex_view_get_access(v, &a);
    linear_image lin = {calloc((size_t)n * n, 4), n, n, 4};
    double tt = 1e9, tl = 1e9;
    for (int r = 0; r < 3; r++) {
        double x = store_load_tiled(&a, n), y = store_load_linear(&a, &lin);
        tt = x < tt ? x : tt;
        tl = y < tl ? y : tl;
    }
    double texels = (double)n * n;
    printf("store+load rgba8unorm %ux%u (8x8 workgroup order):\n", n, n);
    printf("  tiled view    %7.2f ns/texel\n  linear array  %7.2f ns/texel\n  tiled/linear  %7.2fx time\n",
           tt / texels * 1e9, tl / texels * 1e9, tt / tl);

    double mp = best(morton_portable, 3), mt = best(morton_table, 3);
    double mm = (double)MORTON_N * MORTON_N;
    printf("Morton index (%d^2 coordinate pairs):\n", MORTON_N);
    printf("  portable shift/mask %6.3f ns\n  table (256 entries) %6.3f ns\n", mp / mm * 1e9, mt / mm * 1e9);
#if HAVE_PDEP
    if (stex_morton2_pdep_available()) {
        double md = best(morton_pdep, 3);
        printf("  BMI2 pdep           %6.3f ns\n  pdep/portable %.2fx time, table/portable %.2fx time\n",
               md / mm * 1e9, md / mp, mt / mp);
    } else
#endif
        printf("  BMI2 pdep: not available on this CPU; table/portable %.2fx time\n", mt / mp);
    printf("  (the library's inline stex_morton2 uses %s in this build)\n",
           STEX_MORTON_PDEP ? "pdep" : "the portable version");

    /* 3x3 stencil on r32float, same image in tiled and linear memory */
    stex_level_layout lt, ll;
    if (stex_level_layout_tiled(&lt, n, n, 1, 4) || stex_level_layout_linear(&ll, n, n, 1, 4))
        die("layout");
    uint8_t *mt_ = aligned_alloc(256, (size_t)stex_level_layout_bytes(&lt));
    uint8_t *ml_ = aligned_alloc(256, (size_t)stex_level_layout_bytes(&ll));
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t x = 0; x < n; x++) {
            float f = (float)((x * 7 + y * 3) % 17);
            memcpy(mt_ + stex_level_offset(&lt, x, y, 0), &f, 4);
            memcpy(ml_ + stex_level_offset(&ll, x, y, 0), &f, 4);
        }
    double s[4] = {1e9, 1e9, 1e9, 1e9};
    for (int r = 0; r < 3; r++) {
        double q[4] = {stencil(mt_, &lt, true), stencil(ml_, &ll, true), stencil(mt_, &lt, false),
                       stencil(ml_, &ll, false)};
        for (int k = 0; k < 4; k++)
            s[k] = q[k] < s[k] ? q[k] : s[k];
    }
    printf("3x3 stencil r32float %ux%u:\n", n, n);
    printf("  8x8 workgroups: tiled %6.2f ns/invocation, linear %6.2f, tiled/linear %.2fx time\n",
           s[0] / texels * 1e9, s[1] / texels * 1e9, s[0] / s[1]);
    printf("  row order:      tiled %6.2f ns/invocation, linear %6.2f, tiled/linear %.2fx time\n",
           s[2] / texels * 1e9, s[3] / texels * 1e9, s[2] / s[3]);
    stex_line_stats ct, cl;
    if (stex_cache_lines_stencil(&lt, 128, stex_stencil_3x3, 9, 8, 8, &ct) ||
        stex_cache_lines_stencil(&ll, 128, stex_stencil_3x3, 9, 8, 8, &cl))
        die("cache lines");
    printf("  cache-line model (128 B): %.2f lines/invocation tiled, %.2f linear (%.2fx)\n", ct.lines_per_invocation,
           cl.lines_per_invocation, cl.lines_per_invocation / ct.lines_per_invocation);
    free(mt_);
    free(ml_);
    free(lin.mem);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    stex_device_destroy(dev);
    stex_adapter_destroy(ad);
    return 0;
}
