/* Internal: the arithmetic of one sampled read, axis by axis - address
 * modes on texel indices, the texel coordinates and weights of the SPEC and
 * LAVAPIPE filtering precisions, their blends (docs/memory.md, "Sampling").
 * Shared by the 2d fast path (sampler.c) and every other dimension
 * (sample.c). */
#ifndef STEX_RESOURCE_SAMPLE_AXIS_H
#define STEX_RESOURCE_SAMPLE_AXIS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "resource/sample_codec.h"
#include "stex/resource.h"

/* ---- address modes on integer texel coordinates (WebGPU/Vulkan rules) ---- */

static inline int64_t wrap(stex_address_mode m, int64_t i, int64_t n)
{
    switch (m) {
    case STEX_ADDRESS_REPEAT:
        return ((i % n) + n) % n;
    case STEX_ADDRESS_MIRROR_REPEAT: {
        int64_t t = ((i % (2 * n)) + 2 * n) % (2 * n);
        return t < n ? t : 2 * n - 1 - t;
    }
    default:
        return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

/* floorf, without the library call or SSE4.1: the same value for every
 * input (-0 stays -0; |x| >= 2^23, inf and NaN are already integral). */
SAMPLE_INLINE float ffloor(float x)
{
    if (!(fabsf(x) < 8388608.0f))
        return x + 0.0f;
    float f = (float)(int32_t)x;
    f = f > x ? f - 1.0f : f;
    return f == 0 ? copysignf(0.0f, x) : f;
}

/* A float texel coordinate made safe to floor into an int64. */
SAMPLE_INLINE float tame(float c)
{
    if (isnan(c))
        return 0;
    return c < -1e9f ? -1e9f : c > 1e9f ? 1e9f : c;
}

static inline uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float float_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* ---- precision SPEC: f32 coordinates, double blend rounded once ---- */

/* The NaN a SPEC blend returns, fixed so that it does not depend on how the
 * compiler orders the operands of + (x86 keeps the first NaN operand, and
 * gcc may swap the operands of a commutative add): the first term, in the
 * order written, that is a NaN (w * t with t NaN, or 0 * inf), else the
 * x86 default NaN (inf - inf). */
static inline float spec_nan(const double *w, const float *t, int n)
{
    for (int i = 0; i < n; i++) {
        double p = w[i] * (double)t[i];
        if (isnan(p))
            return (float)p;
    }
    return float_of(0xffc00000u);
}

/* The 2x2 blend in double, rounded once; channel c of the four texels. */
static inline float spec_blend(double A, double B, const stex_vec4 *t00, const stex_vec4 *t10,
                        const stex_vec4 *t01, const stex_vec4 *t11, int c)
{
    float r = (float)((1 - A) * (1 - B) * t00->f[c] + A * (1 - B) * t10->f[c] +
                      (1 - A) * B * t01->f[c] + A * B * t11->f[c]);
    if (!isnan(r))
        return r;
    const double w[4] = {(1 - A) * (1 - B), A * (1 - B), (1 - A) * B, A * B};
    const float t[4] = {t00->f[c], t10->f[c], t01->f[c], t11->f[c]};
    return spec_nan(w, t, 4);
}

static inline void spec_axis(stex_address_mode m, float u, uint32_t n, int64_t *i0, int64_t *i1, float *w)
{
    float c = tame(u * (float)n - 0.5f);
    float f = ffloor(c);
    *w = c - f;
    *i0 = wrap(m, (int64_t)f, n);
    *i1 = wrap(m, (int64_t)f + 1, n);
}

/* The mip blend in double, rounded once (NaN as spec_nan). */
static inline float spec_mip(float delta, float t0, float t1)
{
    float r = (float)((1.0 - delta) * t0 + (double)delta * t1);
    if (!isnan(r))
        return r;
    const double w[2] = {1.0 - delta, delta};
    const float t[2] = {t0, t1};
    return spec_nan(w, t, 2);
}

/* ---- precision LAVAPIPE: llvmpipe's gallivm sampling code ---- */

static inline float quiet(float a) { return float_of(bits_of(a) | 0x00400000u); }
/* x86 SSE: the first NaN operand, quieted, else the x86 default NaN. */
static inline float x86_result(float a, float b, float r)
{
    if (isnan(a))
        return quiet(a);
    if (isnan(b))
        return quiet(b);
    return isnan(r) ? float_of(0xffc00000u) : r;
}
static inline float sub86(float a, float b) { return x86_result(a, b, a - b); }
/* lp_build_lerp on floats: lp_build_mad(w, v1 - v0, v0), an llvm.fmuladd
 * that an FMA host fuses; NaN operands propagate in operand order. */
static inline float lerp86(float w, float v0, float v1)
{
    float d = sub86(v1, v0);
    if (isnan(w))
        return quiet(w);
    if (isnan(d))
        return quiet(d);
    if (isnan(v0))
        return quiet(v0);
    float r = fmaf(w, d, v0);
    return isnan(r) ? float_of(0xffc00000u) : r;
}

static inline bool is_pot(uint32_t n) { return (n & (n - 1)) == 0; }
static inline float fract(float x) { return x - ffloor(x); }
/* lp_build_coord_mirror(coord, posOnly): |2 (x/2 - round(x/2))|, NaN -> 0 */
static inline float mirror_coord(float u)
{
    float h = u * 0.5f;
    float f = h - rintf(h);
    float m = fabsf(f + f);
    return isnan(m) ? 0 : m;
}

/* lp_build_sample_wrap_linear, float (SoA) path. */
static inline void lavapipe_axis(stex_address_mode m, float u, uint32_t n, int64_t *i0, int64_t *i1, float *w)
{
    float len = (float)n, c, f;
    int64_t k0;
    switch (m) {
    case STEX_ADDRESS_REPEAT:
        /* fract(u) first for every size, power of two or not (measured:
         * lavapipe-sampling.tsv.gz; lp_build_coord_repeat_npot_linear) */
        c = tame(fract(tame(u)) * len - 0.5f);
        f = ffloor(c);
        *w = c - f;
        k0 = c < 0 ? n - 1 : (int64_t)f;
        *i0 = k0;
        *i1 = k0 == n - 1 ? 0 : k0 + 1;
        return;
    case STEX_ADDRESS_MIRROR_REPEAT:
        c = mirror_coord(tame(u)) * len - 0.5f;
        f = ffloor(c);
        *w = c - f;
        k0 = (int64_t)f;
        *i0 = k0 < 0 ? 0 : k0;
        *i1 = k0 + 1 > n - 1 ? n - 1 : k0 + 1;
        return;
    default: /* clamp-to-edge: the coordinate into [0, width], the indices
              * into [0, width - 1] (below half a texel both are 0: gathered) */
        c = u * len;
        c = isnan(c) ? len : (c < len ? c : len);
        c = c > 0 ? c : 0;
        c = c - 0.5f;
        f = ffloor(c);
        *w = c - f;
        k0 = (int64_t)f;
        *i0 = k0 < 0 ? 0 : k0;
        *i1 = k0 + 1 > n - 1 ? n - 1 : k0 + 1;
        return;
    }
}

/* lp_build_sample_wrap_nearest (SoA). */
static inline int64_t lavapipe_nearest(stex_address_mode m, float u, uint32_t n)
{
    float len = (float)n;
    int64_t i;
    switch (m) {
    case STEX_ADDRESS_REPEAT:
        if (is_pot(n))
            return (int64_t)ffloor(tame(u * len)) & (n - 1);
        {
            float fr = fract(tame(u));
            if (!(fr <= 0.99999994f))
                fr = 0.99999994f; /* lp_build_fract_safe */
            i = (int64_t)(fr * len);
        }
        return i > n - 1 ? n - 1 : i;
    case STEX_ADDRESS_MIRROR_REPEAT:
        i = (int64_t)(mirror_coord(tame(u)) * len);
        return i > n - 1 ? n - 1 : i;
    default:
        i = (int64_t)truncf(tame(u * len));
        return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
    }
}

/* lp_build_sample_image_linear, 8-bit (AoS) path: coordinates in 24.8
 * fixed point, rounded to nearest even; clamp-to-edge and repeat only. */
static inline void lavapipe_axis_u8(stex_address_mode m, float u, uint32_t n, int64_t *i0, int64_t *i1,
                             uint32_t *fw)
{
    if (m == STEX_ADDRESS_REPEAT && !is_pot(n)) {
        /* lp_build_coord_repeat_npot_linear_int */
        int64_t s = (int64_t)rintf(tame(fract(tame(u)) * (float)n * 256.0f)) - 128;
        *fw = (uint32_t)(s & 255);
        int64_t k = s >> 8;
        k = k < 0 ? n - 1 : k > n - 1 ? n - 1 : k;
        *i0 = k;
        *i1 = k == n - 1 ? 0 : k + 1;
        return;
    }
    int64_t s = (int64_t)rintf(tame(u * (float)(n * 256u))) - 128;
    int64_t ip = s >> 8; /* arithmetic: floor */
    *fw = (uint32_t)(s & 255);
    *i0 = wrap(m, ip, n);
    *i1 = wrap(m, ip + 1, n);
}

/* lp_build_lerp on unorm8 with LP_BLD_LERP_PRESCALED_WEIGHTS (weights
 * 0..255 as they are): pmulhrsw(w, d << 7) = (w * d + 128) >> 8, rounded. */
static inline uint32_t lerp_u8(uint32_t w, uint32_t v0, uint32_t v1)
{
    int32_t d = (int32_t)v1 - (int32_t)v0;
    int32_t p = ((int32_t)w * d + 128) >> 8; /* arithmetic shift: floor */
    return (uint32_t)((int32_t)v0 + p) & 0xffu;
}

/* mipmapFilter "nearest": the level for lod (> 0).  Vulkan (SPEC):
 * ceil(lod + 0.5) - 1, so .5 goes down; llvmpipe (LAVAPIPE) rounds to
 * nearest even: 0.5 -> 0, 1.5 -> 2 (measured, lavapipe-sampling.tsv.gz). */
static inline float nearest_level(float lod, bool lavapipe)
{
    if (lavapipe)
        return rintf(lod);
    return lod <= 0.5f ? 0 : ceilf(lod + 0.5f) - 1;
}

#endif
