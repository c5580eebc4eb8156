/* Internal: table decoders for the texels a sampler filters.  Built once per
 * (profile, format) from the format's real decoder, so they return the very
 * bits stex_decode_texel does; used by src/resource/sampler.c. */
#ifndef STEX_RESOURCE_SAMPLE_CODEC_H
#define STEX_RESOURCE_SAMPLE_CODEC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "stex/convert.h"
#include "stex/format.h"

typedef enum sample_codec_kind {
    SAMPLE_CODEC_DECODER = 0, /* no table: call the decoder */
    SAMPLE_CODEC_U8,          /* 8-bit channels, one 256-entry table per channel */
    SAMPLE_CODEC_U16          /* 16-bit channels, one 65536-entry table shared by all */
} sample_codec_kind;

typedef struct sample_codec {
    sample_codec_kind kind;
    bool f32;                /* texture_2d<f32> can bind the format */
    bool fits8;              /* lavapipe filters it in 8-bit fixed point */
    uint32_t channels;
    uint32_t rest[4];        /* decoded bits of the channels the format lacks */
    uint32_t t8[4][256];     /* SAMPLE_CODEC_U8: bits of channel c for code k */
    const uint32_t *t16;     /* SAMPLE_CODEC_U16: bits of any channel for code k */
} sample_codec;

/* The codec of format f under profile p (kind DECODER when no table fits;
 * NULL only when out of memory or p is not a stex_profile_get profile).  Thread-safe; tables live until the process ends. */
const sample_codec *sample_codec_get(const stex_profile *p, stex_format f, stex_decode_fn dec);
/* Its slots, indexed [profile id][format]: NULL until built. */
extern _Atomic(const sample_codec *) sample_codec_cache[STEX_PROFILE_COUNT][STEX_FORMAT_COUNT];

/* textureSampleLevel on a texture_2d<f32> view (stex_view_sample_level,
 * layer 0) for the engine: `col`/`row` are the dispatch's address tables of
 * the view's first level (texel = mem + col[x] + row[y]), used only if `mem`
 * is that level's memory. */
struct stex_texture_view;
struct stex_sampler;
void stex__sample_level_2d(const struct stex_texture_view *v, const struct stex_sampler *s,
                           const stex_profile *p, float u, float v_, float level,
                           const uint8_t *mem, const uint64_t *col, const uint64_t *row,
                           stex_vec4 *out);

/* Formats llvmpipe filters in its 8-bit AoS path (util_format_fits_8unorm):
 * unorm, 8 bits in every channel, plain or BGRA.  False for NULL. */
bool sample_fits_8unorm(const stex_format_info *fi);

/* Tables on (the default) or off, for tests that compare the two (sampler.c). */
void sample_codec_enable(bool on);

#if defined(__GNUC__)
#define SAMPLE_INLINE static inline __attribute__((always_inline))
#else
#define SAMPLE_INLINE static inline
#endif

/* One texel through the codec: the same bits as dec(p, t, out). */
SAMPLE_INLINE void sample_codec_decode(const sample_codec *c, stex_decode_fn dec,
                                       const stex_profile *p, const uint8_t *t, stex_vec4 *out)
{
    switch (c->kind) {
    case SAMPLE_CODEC_U8:
        if (c->channels == 4) {
            out->u[0] = c->t8[0][t[0]];
            out->u[1] = c->t8[1][t[1]];
            out->u[2] = c->t8[2][t[2]];
            out->u[3] = c->t8[3][t[3]];
            return;
        }
        for (uint32_t i = 0; i < 4; i++)
            out->u[i] = i < c->channels ? c->t8[i][t[i]] : c->rest[i];
        return;
    case SAMPLE_CODEC_U16:
        if (c->channels == 4) {
            out->u[0] = c->t16[t[0] | (uint32_t)t[1] << 8];
            out->u[1] = c->t16[t[2] | (uint32_t)t[3] << 8];
            out->u[2] = c->t16[t[4] | (uint32_t)t[5] << 8];
            out->u[3] = c->t16[t[6] | (uint32_t)t[7] << 8];
            return;
        }
        for (uint32_t i = 0; i < 4; i++)
            out->u[i] = i < c->channels ? c->t16[t[2 * i] | (uint32_t)t[2 * i + 1] << 8]
                                        : c->rest[i];
        return;
    default:
        dec(p, t, out);
        return;
    }
}

#endif
