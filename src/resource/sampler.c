/* Samplers and sampled reads of texture_2d<f32>: textureLoad with a level
 * and textureSampleLevel, in two filtering precisions (resource.h,
 * docs/memory.md "Sampling"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/error.h"
#include "convert/profile.h"
#include "resource/internal.h"
#include "resource/sample_axis.h"
#include "resource/sample_codec.h"

/* Tests turn the tables off to compare with the decoder (sample_codec.h). */
static bool use_tables = true;
void sample_codec_enable(bool on) { use_tables = on; }

stex_status stex_sampler_create(stex_device *d, const stex_sampler_desc *desc, stex_sampler **out)
{
    if (out)
        *out = NULL;
    if (!d || !out)
        return stex_fail(STEX_INVALID_ARGUMENT, "createSampler: device and out must not be NULL");
    stex_sampler_desc full;
    memset(&full, 0, sizeof full);
    if (desc)
        full = *desc;
    if (full.lod_min_clamp == 0 && full.lod_max_clamp == 0)
        full.lod_max_clamp = 32;
    if ((unsigned)full.address_mode_u > STEX_ADDRESS_MIRROR_REPEAT ||
        (unsigned)full.address_mode_v > STEX_ADDRESS_MIRROR_REPEAT ||
        (unsigned)full.address_mode_w > STEX_ADDRESS_MIRROR_REPEAT ||
        (unsigned)full.mag_filter > STEX_FILTER_LINEAR || (unsigned)full.min_filter > STEX_FILTER_LINEAR ||
        (unsigned)full.mipmap_filter > STEX_FILTER_LINEAR ||
        (unsigned)full.precision > STEX_FILTER_PRECISION_LAVAPIPE)
        return stex_fail(STEX_TYPE_ERROR, "createSampler: an address mode, filter or precision is not a valid enum value");
    if (full.max_anisotropy == 0)
        full.max_anisotropy = 1;
    if ((unsigned)full.compare > STEX_COMPARE_ALWAYS)
        return stex_fail(STEX_TYPE_ERROR, "createSampler: compare %d is not a GPUCompareFunction",
                         (int)full.compare);
    if (full.max_anisotropy > 65535)
        return stex_fail(STEX_TYPE_ERROR, "createSampler: maxAnisotropy %u is not an unsigned "
                         "short", full.max_anisotropy);
    if (full.max_anisotropy > 1 &&
        (full.mag_filter != STEX_FILTER_LINEAR || full.min_filter != STEX_FILTER_LINEAR ||
         full.mipmap_filter != STEX_FILTER_LINEAR))
        return stex_fail(STEX_VALIDATION_ERROR, "createSampler: maxAnisotropy %u > 1 needs "
                         "magFilter, minFilter and mipmapFilter all \"linear\"",
                         full.max_anisotropy);
    if (!(full.lod_min_clamp >= 0))
        return stex_fail(STEX_VALIDATION_ERROR, "createSampler: lodMinClamp %g must be >= 0",
                         (double)full.lod_min_clamp);
    if (!(full.lod_max_clamp >= full.lod_min_clamp))
        return stex_fail(STEX_VALIDATION_ERROR, "createSampler: lodMaxClamp %g must be >= lodMinClamp %g",
                         (double)full.lod_max_clamp, (double)full.lod_min_clamp);
    stex_sampler *s = calloc(1, sizeof *s);
    if (!s)
        return stex_fail(STEX_OUT_OF_MEMORY, "createSampler: out of memory");
    s->device = d;
    s->desc = full;
    *out = s;
    return STEX_OK;
}

void stex_sampler_destroy(stex_sampler *s) { free(s); }

const char *stex_compare_function_name(stex_compare_function f)
{
    static const char *const names[] = {"undefined", "never", "less", "equal", "less-equal",
                                        "greater", "not-equal", "greater-equal", "always"};
    return (unsigned)f <= STEX_COMPARE_ALWAYS ? names[f] : "?";
}
const stex_sampler_desc *stex_sampler_get_desc(const stex_sampler *s) { return &s->desc; }
stex_device *stex_sampler_device(const stex_sampler *s) { return s->device; }

/* ---- textureLoad(texture_2d<f32>, coords, level) ---- */

/* Bounds of array index `layer` for the view: an array view has its layers,
 * any other view only layer 0. */
static uint32_t view_layers(const stex_texture_view *v)
{
    return v->desc.dimension == STEX_VIEW_DIMENSION_2D_ARRAY ? v->desc.array_layer_count : 1;
}

bool stex_view_load_level(const stex_texture_view *v, const stex_profile *p, int64_t x, int64_t y,
                          int64_t layer, int64_t level, stex_vec4 *out)
{
    memset(out, 0, sizeof *out);
    if (level < 0 || (uint64_t)level >= v->desc.mip_level_count || layer < 0 ||
        (uint64_t)layer >= view_layers(v))
        return false;
    const stex_view_access *a = &v->level[level];
    const uint8_t *t = stex_view_access_texel(a, x, y, (uint32_t)layer);
    if (!t || !a->decode)
        return false;
    a->decode(p ? p : stex_device_profile(v->texture->device), t, out);
    return true;
}


/* One 2x2 footprint: texel indices and weights along each axis. */
typedef struct footprint {
    int64_t x0, x1, y0, y1;
    float a, b;          /* weights of x1 and y1 */
    uint32_t fa, fb;     /* 8-bit fixed-point weights (lavapipe unorm8 path) */
} footprint;

/* What one sampled read needs, worked out once per call. */
typedef struct sample_ctx {
    const stex_sampler_desc *sd;
    const stex_profile *p;
    const sample_codec *codec;
    bool lavapipe;
    bool u8;             /* lavapipe's 8-bit fixed-point path applies */
    const stex_view_access *level0;      /* the level col/row describe */
    const uint64_t *col, *row;           /* NULL: compute the tiled address */
} sample_ctx;

/* stex_view_access_texel, through the dispatch's address tables on level 0. */
static inline const uint8_t *texel_at(const stex_view_access *a, const sample_ctx *cx, int64_t x,
                                      int64_t y, uint32_t z)
{
    if ((uint64_t)x >= a->width || (uint64_t)y >= a->height || (uint64_t)z >= a->depth)
        return NULL;
    if (a == cx->level0)
        return a->memory + (uint64_t)z * a->layout.slice_bytes + cx->col[x] + cx->row[y];
    return a->memory + stex_level_offset(&a->layout, (uint32_t)x, (uint32_t)y, z);
}

static inline void fetch(const stex_view_access *acc, const sample_ctx *cx, int64_t x, int64_t y,
                         uint32_t z, stex_vec4 *out)
{
    const uint8_t *t = texel_at(acc, cx, x, y, z);
    if (t && acc->decode)
        sample_codec_decode(cx->codec, acc->decode, cx->p, t, out);
    else
        memset(out, 0, sizeof *out);
}


/* ---- filtering one level ---- */

/* lavapipe's 8-bit path: the level's filtered texel as unorm8 bytes. */
static void level_bytes_u8(const stex_view_access *a, const sample_ctx *cx,
                           stex_filter_mode filter, float u, float v, uint32_t z, uint8_t *res)
{
    const stex_sampler_desc *sd = cx->sd;
    uint32_t w = a->width, h = a->height, bpp = a->bytes_per_texel;
    if (filter == STEX_FILTER_NEAREST) {
        const uint8_t *t = texel_at(a, cx, lavapipe_nearest(sd->address_mode_u, u, w),
                                    lavapipe_nearest(sd->address_mode_v, v, h), z);
        memcpy(res, t, bpp);
        return;
    }
    footprint fp;
    lavapipe_axis_u8(sd->address_mode_u, u, w, &fp.x0, &fp.x1, &fp.fa);
    lavapipe_axis_u8(sd->address_mode_v, v, h, &fp.y0, &fp.y1, &fp.fb);
    const uint8_t *t00 = texel_at(a, cx, fp.x0, fp.y0, z);
    const uint8_t *t10 = texel_at(a, cx, fp.x1, fp.y0, z);
    const uint8_t *t01 = texel_at(a, cx, fp.x0, fp.y1, z);
    const uint8_t *t11 = texel_at(a, cx, fp.x1, fp.y1, z);
    for (uint32_t i = 0; i < bpp; i++) {
        uint32_t r0 = lerp_u8(fp.fa, t00[i], t10[i]);
        uint32_t r1 = lerp_u8(fp.fa, t01[i], t11[i]);
        res[i] = (uint8_t)lerp_u8(fp.fb, r0, r1);
    }
}

static void sample_one_level(const stex_view_access *a, const sample_ctx *cx,
                             stex_filter_mode filter, float u, float v, uint32_t z, stex_vec4 *out)
{
    const stex_sampler_desc *sd = cx->sd;
    uint32_t w = a->width, h = a->height;
    if (filter == STEX_FILTER_NEAREST) {
        int64_t x, y;
        if (cx->lavapipe) {
            x = lavapipe_nearest(sd->address_mode_u, u, w);
            y = lavapipe_nearest(sd->address_mode_v, v, h);
        } else {
            x = wrap(sd->address_mode_u, (int64_t)ffloor(tame(u * (float)w)), w);
            y = wrap(sd->address_mode_v, (int64_t)ffloor(tame(v * (float)h)), h);
        }
        fetch(a, cx, x, y, z, out);
        return;
    }
    footprint fp;
    if (cx->u8) {
        uint8_t res[16];
        level_bytes_u8(a, cx, filter, u, v, z, res);
        sample_codec_decode(cx->codec, a->decode, cx->p, res, out);
        return;
    }
    if (cx->lavapipe) {
        lavapipe_axis(sd->address_mode_u, u, w, &fp.x0, &fp.x1, &fp.a);
        lavapipe_axis(sd->address_mode_v, v, h, &fp.y0, &fp.y1, &fp.b);
    } else {
        spec_axis(sd->address_mode_u, u, w, &fp.x0, &fp.x1, &fp.a);
        spec_axis(sd->address_mode_v, v, h, &fp.y0, &fp.y1, &fp.b);
    }
    stex_vec4 t00, t10, t01, t11;
    fetch(a, cx, fp.x0, fp.y0, z, &t00);
    fetch(a, cx, fp.x1, fp.y0, z, &t10);
    fetch(a, cx, fp.x0, fp.y1, z, &t01);
    fetch(a, cx, fp.x1, fp.y1, z, &t11);
    if (cx->lavapipe) {
        for (int c = 0; c < 4; c++)
            out->f[c] = lerp86(fp.b, lerp86(fp.a, t00.f[c], t10.f[c]),
                               lerp86(fp.a, t01.f[c], t11.f[c]));
        return;
    }
    double A = fp.a, B = fp.b;
    for (int c = 0; c < 4; c++)
        out->f[c] = spec_blend(A, B, &t00, &t10, &t01, &t11, c);
}

/* ---- the engine's common call, specialised ---- */

SAMPLE_INLINE uint32_t clamp_index(int32_t k, uint32_t n)
{
    return k < 0 ? 0 : (uint32_t)k >= n ? n - 1 : (uint32_t)k;
}

/* Linear filter, clamp-to-edge on both axes, level 0 through the address
 * tables, a 4-channel table codec, float arithmetic (not lavapipe's 8-bit
 * path): the arithmetic of spec_axis / lavapipe_axis and sample_one_level
 * step for step, without the switches.  tests/resource/test_sampler.c
 * compares it with the general path. */
SAMPLE_INLINE void sample_linear_clamp(const stex_view_access *a, const uint64_t *col,
                                      const uint64_t *row, const sample_codec *k, bool lavapipe,
                                      float u, float v, stex_vec4 *out)
{
    uint32_t w = a->width, h = a->height;
    float lw = (float)w, lh = (float)h, A, B, c, f;
    uint32_t x0, x1, y0, y1;
    if (lavapipe) { /* lavapipe_axis, clamp-to-edge */
        c = u * lw;
        c = isnan(c) ? lw : (c < lw ? c : lw);
        c = c > 0 ? c : 0;
        c = c - 0.5f;
        f = ffloor(c);
        A = c - f;
        x0 = f < 0 ? 0 : (uint32_t)f;
        x1 = f + 1 > (float)(w - 1) ? w - 1 : (uint32_t)(f + 1);
        c = v * lh;
        c = isnan(c) ? lh : (c < lh ? c : lh);
        c = c > 0 ? c : 0;
        c = c - 0.5f;
        f = ffloor(c);
        B = c - f;
        y0 = f < 0 ? 0 : (uint32_t)f;
        y1 = f + 1 > (float)(h - 1) ? h - 1 : (uint32_t)(f + 1);
    } else { /* spec_axis with wrap() clamp-to-edge; |f| <= 1e9 fits an int32 */
        c = tame(u * lw - 0.5f);
        f = ffloor(c);
        A = c - f;
        x0 = clamp_index((int32_t)f, w);
        x1 = clamp_index((int32_t)f + 1, w);
        c = tame(v * lh - 0.5f);
        f = ffloor(c);
        B = c - f;
        y0 = clamp_index((int32_t)f, h);
        y1 = clamp_index((int32_t)f + 1, h);
    }
    const uint8_t *m = a->memory;
    const uint8_t *p00 = m + col[x0] + row[y0], *p10 = m + col[x1] + row[y0];
    const uint8_t *p01 = m + col[x0] + row[y1], *p11 = m + col[x1] + row[y1];
    stex_vec4 t00, t10, t01, t11;
    sample_codec_decode(k, NULL, NULL, p00, &t00);
    sample_codec_decode(k, NULL, NULL, p10, &t10);
    sample_codec_decode(k, NULL, NULL, p01, &t01);
    sample_codec_decode(k, NULL, NULL, p11, &t11);
    if (lavapipe) {
        for (int i = 0; i < 4; i++)
            out->f[i] = lerp86(B, lerp86(A, t00.f[i], t10.f[i]), lerp86(A, t01.f[i], t11.f[i]));
        return;
    }
    double dA = A, dB = B;
#if defined(__SSE2__)
    /* the same double products and sums, two channels per instruction */
    __m128d w00 = _mm_set1_pd((1 - dA) * (1 - dB)), w10 = _mm_set1_pd(dA * (1 - dB));
    __m128d w01 = _mm_set1_pd((1 - dA) * dB), w11 = _mm_set1_pd(dA * dB);
    __m128 v00 = _mm_loadu_ps(t00.f), v10 = _mm_loadu_ps(t10.f);
    __m128 v01 = _mm_loadu_ps(t01.f), v11 = _mm_loadu_ps(t11.f);
    __m128d lo = _mm_add_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(w00, _mm_cvtps_pd(v00)),
                                                  _mm_mul_pd(w10, _mm_cvtps_pd(v10))),
                                       _mm_mul_pd(w01, _mm_cvtps_pd(v01))),
                            _mm_mul_pd(w11, _mm_cvtps_pd(v11)));
    v00 = _mm_movehl_ps(v00, v00);
    v10 = _mm_movehl_ps(v10, v10);
    v01 = _mm_movehl_ps(v01, v01);
    v11 = _mm_movehl_ps(v11, v11);
    __m128d hi = _mm_add_pd(_mm_add_pd(_mm_add_pd(_mm_mul_pd(w00, _mm_cvtps_pd(v00)),
                                                  _mm_mul_pd(w10, _mm_cvtps_pd(v10))),
                                       _mm_mul_pd(w01, _mm_cvtps_pd(v01))),
                            _mm_mul_pd(w11, _mm_cvtps_pd(v11)));
    __m128 r = _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
    _mm_storeu_ps(out->f, r);
    if (_mm_movemask_ps(_mm_cmpunord_ps(r, r))) /* a NaN: spec_nan picks which */
        for (int i = 0; i < 4; i++)
            out->f[i] = spec_blend(dA, dB, &t00, &t10, &t01, &t11, i);
#else
    for (int i = 0; i < 4; i++)
        out->f[i] = spec_blend(dA, dB, &t00, &t10, &t01, &t11, i);
#endif
}

static void sample_level(const stex_texture_view *v, const stex_sampler *s, const stex_profile *p,
                         float u, float v_, int64_t layer, float level, sample_ctx *cx,
                         stex_vec4 *out)
{
    memset(out, 0, sizeof *out);
    if (!v->access.decode)
        return;
    if (!p)
        p = stex_device_profile(v->texture->device);
    static const sample_codec none = {.kind = SAMPLE_CODEC_DECODER};
    const sample_codec *codec = use_tables ? sample_codec_get(p, v->desc.format, v->access.decode)
                                           : NULL;
    bool f32, fits8;
    if (codec) {
        f32 = codec->f32;
        fits8 = codec->fits8;
    } else {
        const stex_format_info *fi = stex_format_get(v->desc.format);
        f32 = fi && fi->scalar == STEX_SCALAR_F32;
        fits8 = sample_fits_8unorm(fi);
        codec = &none;
    }
    if (!f32)
        return; /* texture_2d<f32> binds float-sampleable formats only */
    const stex_sampler_desc *sd = cx->sd = &s->desc;
    cx->p = p;
    cx->codec = codec;
    cx->lavapipe = sd->precision == STEX_FILTER_PRECISION_LAVAPIPE ||
                   (sd->precision == STEX_FILTER_PRECISION_AUTO &&
                    stex_profile_id_of(p) == STEX_PROFILE_LAVAPIPE);
    cx->u8 = cx->lavapipe && fits8 && sd->address_mode_u != STEX_ADDRESS_MIRROR_REPEAT &&
             sd->address_mode_v != STEX_ADDRESS_MIRROR_REPEAT;
    uint32_t layers = view_layers(v);
    uint32_t z = layer < 0 ? 0 : (uint64_t)layer >= layers ? layers - 1 : (uint32_t)layer;
    /* level of detail: clamped, then mag filter at or below 0, min above */
    float lod = isnan(level) ? 0 : level;
    lod = lod < sd->lod_min_clamp ? sd->lod_min_clamp : lod;
    lod = lod > sd->lod_max_clamp ? sd->lod_max_clamp : lod;
    stex_filter_mode filter = lod <= 0 ? sd->mag_filter : sd->min_filter;
    uint32_t q = v->desc.mip_level_count - 1;
    if (sd->mipmap_filter == STEX_FILTER_NEAREST || q == 0 || lod <= 0) {
        /* nearest level (sample_axis.h), clamped to [0, q] */
        float d = nearest_level(lod, cx->lavapipe);
        uint32_t m = d > (float)q ? q : (uint32_t)d;
        sample_one_level(&v->level[m], cx, filter, u, v_, z, out);
        return;
    }
    float f = ffloor(lod);
    uint32_t lo = f >= (float)q ? q : (uint32_t)f;
    uint32_t hi = lo + 1 > q ? q : lo + 1;
    float delta = lo == q ? 0 : lod - f;
    if (cx->u8) { /* llvmpipe blends the levels in 8 bits too: weight trunc(delta * 256) */
        uint8_t b0[16], b1[16], res[16];
        level_bytes_u8(&v->level[lo], cx, filter, u, v_, z, b0);
        level_bytes_u8(&v->level[hi], cx, filter, u, v_, z, b1);
        uint32_t w8 = (uint32_t)(delta * 256.0f);
        for (uint32_t i = 0; i < v->level[lo].bytes_per_texel; i++)
            res[i] = (uint8_t)lerp_u8(w8, b0[i], b1[i]);
        sample_codec_decode(cx->codec, v->level[lo].decode, cx->p, res, out);
        return;
    }
    stex_vec4 t0, t1;
    sample_one_level(&v->level[lo], cx, filter, u, v_, z, &t0);
    sample_one_level(&v->level[hi], cx, filter, u, v_, z, &t1);
    for (int c = 0; c < 4; c++)
        out->f[c] = cx->lavapipe ? lerp86(delta, t0.f[c], t1.f[c])
                                : spec_mip(delta, t0.f[c], t1.f[c]);
}

void stex_view_sample_level(const stex_texture_view *v, const stex_sampler *s, const stex_profile *p,
                            float u, float v_, int64_t layer, float level, stex_vec4 *out)
{
    sample_ctx cx = {.level0 = NULL};
    sample_level(v, s, p, u, v_, layer, level, &cx, out);
}

void stex__sample_level_2d(const stex_texture_view *v, const stex_sampler *s, const stex_profile *p,
                           float u, float v_, float level, const uint8_t *mem, const uint64_t *col,
                           const uint64_t *row, stex_vec4 *out)
{
    const stex_view_access *level0 =
        col && row && mem == v->level[0].memory ? &v->level[0] : NULL;
    const stex_sampler_desc *sd = &s->desc;
    /* The common call, level 0.0 with lodMinClamp 0: the lod is 0, so the
     * mag filter on level 0, as sample_level works out at more cost. */
    if (level0 && level == 0.0f && sd->lod_min_clamp == 0 && p && use_tables &&
        (unsigned)p->id < STEX_PROFILE_COUNT && (unsigned)v->desc.format < STEX_FORMAT_COUNT &&
        v->access.decode) {
        const sample_codec *codec =
            atomic_load_explicit(&sample_codec_cache[p->id][v->desc.format], memory_order_acquire);
        if (!codec)
            codec = sample_codec_get(p, v->desc.format, v->access.decode);
        if (codec && codec->f32) {
            bool lavapipe = sd->precision == STEX_FILTER_PRECISION_LAVAPIPE ||
                            (sd->precision == STEX_FILTER_PRECISION_AUTO &&
                             p->id == STEX_PROFILE_LAVAPIPE);
            bool u8 = lavapipe && codec->fits8 && sd->address_mode_u != STEX_ADDRESS_MIRROR_REPEAT &&
                      sd->address_mode_v != STEX_ADDRESS_MIRROR_REPEAT;
            if (sd->mag_filter == STEX_FILTER_LINEAR && !u8 && codec->kind != SAMPLE_CODEC_DECODER &&
                codec->channels == 4 && sd->address_mode_u == STEX_ADDRESS_CLAMP_TO_EDGE &&
                sd->address_mode_v == STEX_ADDRESS_CLAMP_TO_EDGE) {
                sample_linear_clamp(level0, col, row, codec, lavapipe, u, v_, out);
                return;
            }
            sample_ctx cx = {.sd = sd, .p = p, .codec = codec, .lavapipe = lavapipe, .u8 = u8,
                             .level0 = level0, .col = col, .row = row};
            sample_one_level(level0, &cx, sd->mag_filter, u, v_, 0, out);
            return;
        }
    }
    sample_ctx cx = {.level0 = level0, .col = col, .row = row};
    sample_level(v, s, p, u, v_, 0, level, &cx, out);
}
