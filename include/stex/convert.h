/*
 * stex/convert.h - exact conversion between shader values and texel bytes,
 * under a named device profile.
 *
 * textureStore turns a vec4<f32|u32|i32> into the bytes of one texel;
 * textureLoad turns the bytes back into a vec4.  Where WebGPU leaves a choice
 * (tie rounding, NaN, f16 overflow, decode precision...), the choice is made
 * by a profile: a small table of choices that the one converter reads.
 *
 *     const stex_profile *p = stex_profile_get(STEX_PROFILE_SPEC);
 *     stex_vec4 v = {.f = {1.5f, -0.3f, 0.5f, 1.0f}};
 *     uint8_t bytes[16];
 *     stex_encode_texel(p, STEX_FORMAT_RGBA8UNORM, &v, bytes); // ff 00 80 ff
 *     stex_decode_texel(p, STEX_FORMAT_RGBA8UNORM, bytes, &v);
 *
 * Failure: stex_encode_texel/stex_decode_texel return STEX_INVALID_ARGUMENT
 * for formats stex cannot encode (depth, stencil, compressed, srgb) and for
 * a NULL profile; nothing is written then.
 */
#ifndef STEX_CONVERT_H
#define STEX_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/format.h"
#include "stex/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A shader value: vec4<f32>, vec4<u32> or vec4<i32>, by the format's scalar type. */
typedef union stex_vec4 {
    float f[4];
    uint32_t u[4];
    int32_t i[4];
} stex_vec4;

#define STEX_PROFILES(X)                                                        \
    X(SPEC, "spec", "the WebGPU/WGSL rules, with the lessons' choices where the spec leaves one") \
    X(LAVAPIPE, "lavapipe", "bit-exact with Mesa lavapipe (Mesa 25.0.7, LLVM 15) through Dawn and wgpu") \
    X(NVIDIA, "nvidia", "bit-exact with an NVIDIA H200, driver 580.159, Dawn on Vulkan (rules fitted to measurements)")

typedef enum stex_profile_id {
#define STEX_PROFILE_ENUM_(id, name, summary) STEX_PROFILE_##id,
    STEX_PROFILES(STEX_PROFILE_ENUM_)
#undef STEX_PROFILE_ENUM_
    STEX_PROFILE_COUNT
} stex_profile_id;

/* The table of choices; its fields are listed in src/convert/profile.h. */
typedef struct stex_profile stex_profile;

STEX_API const stex_profile *stex_profile_get(stex_profile_id id);        /* NULL if out of range */
STEX_API stex_profile_id stex_profile_id_of(const stex_profile *p);
STEX_API const char *stex_profile_name(stex_profile_id id);               /* "spec", ... or "?" */
STEX_API const char *stex_profile_summary(stex_profile_id id);
STEX_API bool stex_profile_from_name(const char *name, stex_profile_id *out);

/* Encode one texel: `in` holds the channels as the format's scalar type
 * (stex_format_info.scalar); writes stex_format_info.bytes bytes in memory
 * order.  Channels the format lacks are ignored. */
STEX_API stex_status stex_encode_texel(const stex_profile *p, stex_format f,
                                       const stex_vec4 *in, uint8_t *out);
/* Decode one texel as textureLoad returns it; missing channels read 0,0,1
 * (g, b = 0, a = 1 in the scalar type). */
STEX_API stex_status stex_decode_texel(const stex_profile *p, stex_format f,
                                       const uint8_t *in, stex_vec4 *out);

/* The value a linear filter sees for this texel: what textureSampleLevel
 * returns at the exact centre of a lone texel (weight 1), where devices
 * differ from textureLoad (NVIDIA filters snorm8 as replicated snorm16 and
 * turns every f16 NaN into 0x7fffe000).  Neighbour contamination (0 * inf)
 * is the sampler's business, not this one's. */
STEX_API stex_status stex_decode_texel_filtered(const stex_profile *p, stex_format f,
                                                const uint8_t *in, stex_vec4 *out);

/* True iff `bytes` is an encoding of `input` in format f that the
 * WebGPU/WGSL rules permit (per channel: either nearest unorm/snorm code,
 * -S or -(S+1) for snorm -1, f16 rounded up or down, 65504 or inf past the
 * range, flushed subnormals, any NaN for NaN, NaN -> 0/+S/-S for unorm and
 * snorm, clamped integers).  Every profile's encoding is allowed.
 * The _explain form returns STEX_OK, STEX_MISMATCH with a sentence naming
 * the channel, the input, the stored code and what was allowed (also in
 * stex_last_error()), or STEX_INVALID_ARGUMENT; `why` may be NULL. */
STEX_API bool stex_texel_allowed(stex_format f, const stex_vec4 *input, const uint8_t *bytes);
STEX_API stex_status stex_texel_allowed_explain(stex_format f, const stex_vec4 *input,
                                                const uint8_t *bytes, char *why, size_t why_size);

/* The per-texel fast path: look the function up once, call it per texel.
 * NULL for formats stex cannot encode. */
typedef void (*stex_encode_fn)(const stex_profile *p, const stex_vec4 *in, uint8_t *out);
typedef void (*stex_decode_fn)(const stex_profile *p, const uint8_t *in, stex_vec4 *out);
STEX_API stex_encode_fn stex_encoder(stex_format f);
STEX_API stex_decode_fn stex_decoder(stex_format f);

/* Scalar conversions, exposed for tests, sweeps and the CLI. n = bits (2..16). */
STEX_API uint32_t stex_f32_to_unorm(const stex_profile *p, float x, unsigned n);
STEX_API int32_t stex_f32_to_snorm(const stex_profile *p, float x, unsigned n);
STEX_API float stex_unorm_to_f32(const stex_profile *p, uint32_t k, unsigned n);
STEX_API float stex_snorm_to_f32(const stex_profile *p, int32_t k, unsigned n);
STEX_API uint16_t stex_f32_to_f16(const stex_profile *p, float x);
STEX_API float stex_f16_to_f32(const stex_profile *p, uint16_t h);

/* WGSL pack/unpack builtins (they round like the profile's device does,
 * which is not always like textureStore). */
STEX_API uint32_t stex_pack4x8unorm(const stex_profile *p, const float v[4]);
STEX_API uint32_t stex_pack4x8snorm(const stex_profile *p, const float v[4]);
STEX_API uint32_t stex_pack2x16unorm(const stex_profile *p, const float v[2]);
STEX_API uint32_t stex_pack2x16snorm(const stex_profile *p, const float v[2]);
STEX_API uint32_t stex_pack2x16float(const stex_profile *p, const float v[2]);
STEX_API void stex_unpack4x8unorm(const stex_profile *p, uint32_t w, float out[4]);
STEX_API void stex_unpack4x8snorm(const stex_profile *p, uint32_t w, float out[4]);
STEX_API void stex_unpack2x16unorm(const stex_profile *p, uint32_t w, float out[2]);
STEX_API void stex_unpack2x16snorm(const stex_profile *p, uint32_t w, float out[2]);
STEX_API void stex_unpack2x16float(const stex_profile *p, uint32_t w, float out[2]);

#ifdef __cplusplus
}
#endif
#endif
