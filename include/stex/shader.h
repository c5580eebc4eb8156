/*
 * stex/shader.h - what a compute kernel sees: its invocation ids, its
 * bindings, and the WGSL builtins, as a C API.
 *
 * A kernel is a C function run once per invocation.  Every builtin takes the
 * invocation (so the engine can order barriers, apply the visibility mode and
 * feed the race detector) and a @binding number in @group(0):
 *
 *     static void decaer(const stex_invocation *inv) {       // r32float, read_write
 *         stex_uvec2 size = stex_textureDimensions_2d(inv, 0);
 *         uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
 *         if (x >= size.x || y >= size.y) return;
 *         stex_value v = stex_textureLoad_2d(inv, 0, x, y);
 *         stex_textureStore_2d(inv, 0, x, y, stex_f32x4(v.v.f[0] * 0.98f, 0, 0, 1));
 *     }
 *
 * Coordinates are int64_t so WGSL i32 and u32 coordinates both pass unchanged.
 *
 * Failure: a call WGSL would reject at shader creation (a value type that does
 * not match the format, textureLoad on a write-only texture, a builtin on a
 * binding of the wrong kind or dimension) does nothing, and the dispatch
 * returns STEX_SHADER_ERROR with WGSL's rule in stex_last_error().
 */
#ifndef STEX_SHADER_H
#define STEX_SHADER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "stex/api.h"
#include "stex/convert.h"
#include "stex/resource.h"

#ifdef __cplusplus
extern "C" {
#endif

struct stex_exec; /* engine state, opaque to kernels */

/* The builtins below are inlined into every kernel, whatever the compiler's
 * size heuristics (a clone called per invocation costs more than the body). */
#if defined(__GNUC__)
#define STEX__ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define STEX__ALWAYS_INLINE static inline
#endif

typedef struct stex_invocation {
    uint32_t global_invocation_id[3];
    uint32_t local_invocation_id[3];
    uint32_t local_invocation_index;
    uint32_t workgroup_id[3];
    uint32_t num_workgroups[3];
    const void *params;       /* the dispatch's uniform block (read-only) */
    void *workgroup_memory;   /* var<workgroup>: zeroed at workgroup start */
    struct stex_exec *exec;
} stex_invocation;

typedef void (*stex_kernel_fn)(const stex_invocation *inv);

/* One workgroup handed to a workgroup function (below): the invocation with
 * the workgroup's ids filled in, and the order to run its invocations in. */
typedef struct stex_workgroup {
    stex_invocation *inv;
    const uint32_t *order;     /* local_invocation_index in run order; NULL = 0, 1, 2, ... */
    const uint8_t (*lid)[3];   /* local_invocation_index -> local_invocation_id */
    uint32_t base[3];          /* workgroup_id * workgroup_size */
    uint32_t size[3];          /* @workgroup_size */
} stex_workgroup;
typedef void (*stex_workgroup_fn)(const stex_workgroup *wg);

/* The engine's per-invocation loop with the kernel compiled into it, so the
 * compiler inlines the kernel and its builtins instead of making one
 * indirect call per invocation.  The order is exactly the one the engine
 * would use calling the kernel itself, so results do not change. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
STEX__ALWAYS_INLINE void stex__workgroup_loop(const stex_workgroup *w, stex_kernel_fn kernel)
{
    stex_invocation *inv = w->inv;
    if (!w->order) {
        uint32_t idx = 0;
        for (uint32_t z = 0; z < w->size[2]; z++) {
            inv->local_invocation_id[2] = z;
            inv->global_invocation_id[2] = w->base[2] + z;
            for (uint32_t y = 0; y < w->size[1]; y++) {
                inv->local_invocation_id[1] = y;
                inv->global_invocation_id[1] = w->base[1] + y;
                for (uint32_t x = 0; x < w->size[0]; x++) {
                    inv->local_invocation_id[0] = x;
                    inv->global_invocation_id[0] = w->base[0] + x;
                    inv->local_invocation_index = idx++;
                    kernel(inv);
                }
            }
        }
        return;
    }
    uint32_t n = w->size[0] * w->size[1] * w->size[2];
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = w->order[k];
        for (int c = 0; c < 3; c++) {
            inv->local_invocation_id[c] = w->lid[i][c];
            inv->global_invocation_id[c] = w->base[c] + w->lid[i][c];
        }
        inv->local_invocation_index = i;
        kernel(inv);
    }
}

/* Defines `static void name(const stex_workgroup *)` running `kernel` (a
 * static function of the same file) for every invocation of a workgroup;
 * give it to stex_pipeline_desc.workgroup next to .kernel. */
#if defined(__GNUC__)
#define STEX__FLATTEN __attribute__((flatten)) /* inline the kernel and its builtins */
#else
#define STEX__FLATTEN
#endif
#define STEX_WORKGROUP_FN(name, kernel) \
    STEX__FLATTEN static void name(const stex_workgroup *w_) { stex__workgroup_loop(w_, kernel); }

/* A typed shader value: vec4<f32>, vec4<u32> or vec4<i32>. */
typedef struct stex_value {
    stex_scalar_type type;
    stex_vec4 v;
} stex_value;

typedef struct stex_uvec2 { uint32_t x, y; } stex_uvec2;
typedef struct stex_uvec3 { uint32_t x, y, z; } stex_uvec3;

STEX__ALWAYS_INLINE stex_value stex_f32x4(float r, float g, float b, float a)
{ stex_value s = {STEX_SCALAR_F32, {.f = {r, g, b, a}}}; return s; }
STEX__ALWAYS_INLINE stex_value stex_u32x4(uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{ stex_value s = {STEX_SCALAR_U32, {.u = {r, g, b, a}}}; return s; }
STEX__ALWAYS_INLINE stex_value stex_i32x4(int32_t r, int32_t g, int32_t b, int32_t a)
{ stex_value s = {STEX_SCALAR_I32, {.i = {r, g, b, a}}}; return s; }

/* ---- the inline fast path ----
 * The builtins are always inlined so that a kernel pays a few instructions
 * per call: one compare of a tag, unsigned bounds compares, the tiled
 * address, and the format's encoder or decoder chosen once per dispatch
 * (inline for the hot formats).  The race summary's marking stays inline too
 * (a second tag value); everything else (wrong type or binding, out-of-bounds
 * loads, the full race detector, snapshot visibility, a store observer) goes
 * to the out-of-line stex__texture_* / stex__buffer_* functions.  The two
 * structs below are the engine's, laid out for these functions only: kernels
 * must not touch them.
 *
 * The texel address is the tiled layout (stex_level_offset) split in
 * two sums, because a macro-tile index and a Morton index are both separable
 * in x and y: offset = z * slice + col[x] + row[y], with col and row
 * tabulated per binding for each dispatch.  A format of one 32-bit channel
 * whose conversions keep every bit under the profile in force (checked once
 * per dispatch) is copied without calling the converter. */
typedef struct stex_fast_binding {
    /* The tags carry STEX__TAG_RACE when the race summary records the
     * binding's accesses: the plain inline path then compares one tag and
     * never tests for the race detector. */
    uint32_t load_tag;   /* view dimension if a readable storage texture */
    uint32_t store_tag;  /* view dimension | scalar << 8 if a writable storage texture */
    uint32_t dims_tag;   /* view dimension of any texture binding */
    stex_scalar_type scalar;
    uint64_t w, h, d;    /* bounds: d = layers (2d-array) or depth (3d), else 1 */
    uint8_t *memory;     /* the view's mip level and base layer */
    const uint64_t *col; /* byte offset of column x within its row of tiles */
    const uint64_t *row; /* byte offset of row y within its slice */
    uint64_t slice;      /* bytes per layer / z slice */
    uint32_t raw32;      /* 1: one 32-bit channel whose encode/decode keep every bit */
    uint32_t alpha_one;  /* bits of 1 in the texel type (the missing alpha) */
    stex_encode_fn enc;
    stex_decode_fn dec;
    /* race detection by summary (pipelines without barriers): the binding's
     * words, one per texel per thread (see src/race/race_internal.h), NULL otherwise */
    uint32_t *race;
    uint64_t race_count;        /* words per thread */
    uint64_t race_w, race_h, race_z0; /* word index = x + w * (y + h * (z + z0)) */
    uint32_t race_bpp;
    bool race_values;           /* suppress_same_value: written bytes go out of line */
    /* per thread, per run of locations: accessed (see below); 16-bit, not
     * bytes: a byte store may alias anything and would make the kernel
     * reload the engine's pointers after every access */
    uint16_t *race_touch;
    uint64_t race_runs;         /* runs per thread */
    /* the hot formats' conversions written out inline (stex__encode_fast) */
    uint32_t enc_codec, dec_codec; /* STEX__CODEC_* */
    uint32_t u8_round, u8_nan;  /* unorm8 store: STEX__UNORM8_* rule, the code NaN stores */
    uint32_t f16_even;          /* f16 store: 1 round to nearest even, 0 toward zero */
    const float *u8_value;      /* unorm8 load: the profile's value of each code */
    bool sampled_2d;            /* texture_2d<f32> with a decoder: inline textureLoad */
    uint32_t buf_load, buf_store; /* STEX__BUF_WORDS (| STEX__TAG_RACE): a buffer the inline
                                   * loads / stores may use; 0 otherwise */
    uint8_t *buf;               /* buffer: the bound range */
    uint64_t buf_words;         /* buffer: 32-bit words in the bound range */
    uint32_t binding;           /* its @binding number */
} stex_fast_binding;

/* Inline codecs, chosen once per dispatch from the format and the profile's
 * rules (src/convert/fast.c); every other pair calls enc / dec.
 * tests/convert/test_fast_codec.c checks them against the converter. */
enum { STEX__CODEC_CALL = 0, STEX__CODEC_RGBA8UNORM, STEX__CODEC_BGRA8UNORM,
       STEX__CODEC_RGBA16FLOAT /* stores only */ };
/* unorm8 store rules, as convert/profile.h's stex_norm_round */
enum { STEX__UNORM8_EXACT_EVEN = 0, STEX__UNORM8_EXACT_HALF_UP, STEX__UNORM8_F32_EVEN,
       STEX__UNORM8_FIXED4 };

/* Branch hints: the inline path is laid out straight, the rest out of line. */
#if defined(__GNUC__)
/* The out-of-line halves of the builtins: laid out away from the kernel. */
#define STEX__COLD __attribute__((cold))
#define STEX__LIKELY(c) __builtin_expect(!!(c), 1)
#define STEX__UNLIKELY(c) __builtin_expect(!!(c), 0)
#else
#define STEX__COLD
#define STEX__LIKELY(c) (c)
#define STEX__UNLIKELY(c) (c)
#endif

/* STEX_UNROLL(n) before a kernel's short constant loop (a 3x3 stencil, the
 * taps of a filter) unrolls it: the taps' address arithmetic then folds. */
#define STEX__PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define STEX_UNROLL(n) STEX__PRAGMA(unroll n)
#elif defined(__GNUC__)
#define STEX_UNROLL(n) STEX__PRAGMA(GCC unroll n)
#else
#define STEX_UNROLL(n)
#endif

/* A value the compiler must treat as unknown: an f32 product stays rounded
 * to f32 instead of being fused into a following add. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE__)
#define STEX__OPAQUE(v) __asm__("" : "+x"(v))
#elif defined(__GNUC__)
#define STEX__OPAQUE(v) __asm__("" : "+m"(v))
#else
#define STEX__OPAQUE(v) ((void)0) /* C11 does not contract across statements */
#endif

/* f32 -> unorm8 code by one of the rules (bit-exact with the converter). */
STEX__ALWAYS_INLINE uint32_t stex__unorm8_encode(uint32_t round, uint32_t nan, float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return nan;
    /* clamp on the bit pattern, without branches (in-range and clamped values
     * mix): negatives, -0, -inf -> 0; past 1, +inf -> 1 */
    u = (int32_t)u < 0 ? 0 : u;
    u = u > 0x3f800000u ? 0x3f800000u : u;
    memcpy(&x, &u, 4);
    if (round == STEX__UNORM8_FIXED4) { /* floor(x * 2^12) is exact */
        uint32_t y = (uint32_t)(x * 4096.0f);
        return (y - (y >> 8) + 7) >> 4;
    }
    if (round == STEX__UNORM8_F32_EVEN) {
        float p = x * 255.0f; /* the f32 product, rounded */
        STEX__OPAQUE(p); /* kept apart from the add below (no FMA contraction) */
        float t = p + 8388608.0f; /* + 2^23: rounds to an integer, ties to even */
        memcpy(&u, &t, 4);
        return u & 0x1ff;
    }
    /* x * 255 is exact in f64 */
    double t = (double)x * 255.0;
    if (round == STEX__UNORM8_EXACT_HALF_UP)
        return (uint32_t)(t + 0.5); /* floor(0.5 + x*S), exact below 2^-21 too */
    t += 4503599627370496.0; /* + 2^52: ties to even */
    uint64_t w;
    memcpy(&w, &t, 8);
    return (uint32_t)w & 0x1ff;
}

/* Four channels to four unorm8 codes (r in the low byte), the rule a
 * constant in each case so every channel's code is straight-line. */
STEX__ALWAYS_INLINE uint32_t stex__unorm8x4_by(uint32_t round, uint32_t nan, const float f[4])
{
    return stex__unorm8_encode(round, nan, f[0]) | stex__unorm8_encode(round, nan, f[1]) << 8
           | stex__unorm8_encode(round, nan, f[2]) << 16
           | stex__unorm8_encode(round, nan, f[3]) << 24;
}
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <emmintrin.h>
/* The same four conversions on one SSE2 vector: the same clamps and
 * products, lane by lane (the converter's exactness argument holds per
 * lane), and the four codes packed to bytes with two saturating packs. */
STEX__ALWAYS_INLINE uint32_t stex__unorm8x4_sse2(uint32_t round, uint32_t nan, const float f[4])
{
    __m128i s = _mm_loadu_si128((const __m128i *)(const void *)f);
    __m128i isnan = _mm_cmpgt_epi32(_mm_and_si128(s, _mm_set1_epi32(0x7fffffff)),
                                    _mm_set1_epi32(0x7f800000));     /* -1 in NaN lanes */
    s = _mm_andnot_si128(_mm_srai_epi32(s, 31), s);                  /* negatives, -0 -> 0 */
    __m128i big = _mm_cmpgt_epi32(s, _mm_set1_epi32(0x3f800000));    /* past 1, +inf -> 1 */
    s = _mm_or_si128(_mm_andnot_si128(big, s), _mm_and_si128(big, _mm_set1_epi32(0x3f800000)));
    __m128 x = _mm_castsi128_ps(s);
    __m128i q;
    if (round == STEX__UNORM8_FIXED4) {
        __m128i y = _mm_cvttps_epi32(_mm_mul_ps(x, _mm_set1_ps(4096.0f)));
        q = _mm_srli_epi32(_mm_add_epi32(_mm_sub_epi32(y, _mm_srli_epi32(y, 8)),
                                         _mm_set1_epi32(7)), 4);
    } else if (round == STEX__UNORM8_F32_EVEN) {
        __m128 p = _mm_mul_ps(x, _mm_set1_ps(255.0f));
        STEX__OPAQUE(p);
        __m128 t = _mm_add_ps(p, _mm_set1_ps(8388608.0f));
        q = _mm_and_si128(_mm_castps_si128(t), _mm_set1_epi32(0x1ff));
    } else { /* x * 255 is exact in f64: two lanes per register */
        __m128d lo = _mm_mul_pd(_mm_cvtps_pd(x), _mm_set1_pd(255.0));
        __m128d hi = _mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(x, x)), _mm_set1_pd(255.0));
        if (round == STEX__UNORM8_EXACT_HALF_UP) {
            q = _mm_unpacklo_epi64(_mm_cvttpd_epi32(_mm_add_pd(lo, _mm_set1_pd(0.5))),
                                   _mm_cvttpd_epi32(_mm_add_pd(hi, _mm_set1_pd(0.5))));
        } else { /* + 2^52 rounds to an integer, ties to even: the low words hold it */
            lo = _mm_add_pd(lo, _mm_set1_pd(4503599627370496.0));
            hi = _mm_add_pd(hi, _mm_set1_pd(4503599627370496.0));
            q = _mm_castps_si128(_mm_shuffle_ps(_mm_castpd_ps(lo), _mm_castpd_ps(hi),
                                                _MM_SHUFFLE(2, 0, 2, 0)));
            q = _mm_and_si128(q, _mm_set1_epi32(0x1ff));
        }
    }
    q = _mm_or_si128(_mm_andnot_si128(isnan, q), _mm_and_si128(isnan, _mm_set1_epi32((int)nan)));
    q = _mm_packs_epi32(q, q); /* codes are 0..255: both packs are exact */
    return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(q, q));
}
#define stex__unorm8x4_by stex__unorm8x4_sse2
#endif
STEX__ALWAYS_INLINE uint32_t stex__unorm8x4(uint32_t round, uint32_t nan, const float f[4])
{
    switch (round) {
    case STEX__UNORM8_F32_EVEN: return stex__unorm8x4_by(STEX__UNORM8_F32_EVEN, nan, f);
    case STEX__UNORM8_FIXED4: return stex__unorm8x4_by(STEX__UNORM8_FIXED4, nan, f);
    case STEX__UNORM8_EXACT_HALF_UP: return stex__unorm8x4_by(STEX__UNORM8_EXACT_HALF_UP, nan, f);
    default: return stex__unorm8x4_by(STEX__UNORM8_EXACT_EVEN, nan, f);
    }
}

/* A 4-byte store into texture or buffer memory, aligned (texel offsets are
 * multiples of the texel size, buffer offsets of 256).  Typed as uint32_t,
 * not bytes: a byte store may alias anything, so the compiler would reload
 * every engine pointer after each one; this store cannot change a pointer,
 * so a workgroup loop keeps them in registers. */
STEX__ALWAYS_INLINE void stex__store32(uint8_t *p, uint32_t w)
{
    *(uint32_t *)(void *)p = w;
}

STEX__ALWAYS_INLINE void stex__put_le32(uint8_t *p, uint32_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    stex__store32(p, w); /* one store */
#else
    p[0] = (uint8_t)w, p[1] = (uint8_t)(w >> 8), p[2] = (uint8_t)(w >> 16), p[3] = (uint8_t)(w >> 24);
#endif
}

/* Four f32 to f16 when every result is zero or a normal f16 (|x| in
 * [2^-14, 65504]): then the profiles' roundings - to nearest even, or toward
 * zero - are a few integer operations on the bits.  Anything else (an f16
 * subnormal, overflow, infinity, NaN: where profiles differ) returns false
 * and the converter decides. */
STEX__ALWAYS_INLINE bool stex__f16x4_normal(uint32_t even, const float f[4], uint64_t *out)
{
    uint32_t u[4];
    memcpy(u, f, 16);
    uint64_t r = 0;
    bool ok = true;
    for (int c = 0; c < 4; c++) {
        uint32_t a = u[c] & 0x7fffffffu;
        ok &= (a - 0x38800000u <= 0x477fe000u - 0x38800000u) | (a == 0);
        uint32_t h = (a >> 13) - (112u << 10); /* rebias 127 -> 15, truncated */
        uint32_t rest = a & 0x1fffu;
        if (even) /* past half, or a tie with an odd result: up (a carry is exact) */
            h += (rest > 0x1000u) | ((rest == 0x1000u) & h);
        h = a ? h : 0;
        r |= (uint64_t)((h & 0x7fffu) | ((u[c] >> 16) & 0x8000u)) << (16 * c);
    }
    *out = r;
    return ok;
}

STEX__ALWAYS_INLINE void stex__encode_fast(const stex_profile *prof, const stex_fast_binding *b,
                                     const stex_vec4 *v, uint8_t *p)
{
    uint32_t w;
    switch (b->enc_codec) {
    case STEX__CODEC_RGBA8UNORM:
        stex__put_le32(p, stex__unorm8x4(b->u8_round, b->u8_nan, v->f));
        return;
    case STEX__CODEC_BGRA8UNORM: /* memory order b, g, r, a */
        w = stex__unorm8x4(b->u8_round, b->u8_nan, v->f);
        stex__put_le32(p, (w & 0xff00ff00u) | (w >> 16 & 0xffu) | (w & 0xffu) << 16);
        return;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    case STEX__CODEC_RGBA16FLOAT: {
        uint64_t h;
        if (STEX__LIKELY(stex__f16x4_normal(b->f16_even, v->f, &h))) {
            *(uint64_t *)(void *)p = h; /* aligned: 8-byte texels */
            return;
        }
        b->enc(prof, v, p);
        return;
    }
#endif
    default:
        b->enc(prof, v, p);
    }
}

/* The format's decoder through its function pointer, out of line: the
 * inline decoders below then keep their vec4 in registers. */
STEX_API STEX__COLD stex_vec4 stex__decode_call(const stex_profile *prof, const stex_fast_binding *b,
                            const uint8_t *p);

STEX__ALWAYS_INLINE stex_vec4 stex__decode_fast(const stex_profile *prof, const stex_fast_binding *b,
                                          const uint8_t *p)
{
    const float *t = b->u8_value;
    stex_vec4 r;
    switch (b->dec_codec) {
    case STEX__CODEC_RGBA8UNORM:
        r.f[0] = t[p[0]], r.f[1] = t[p[1]], r.f[2] = t[p[2]], r.f[3] = t[p[3]];
        return r;
    case STEX__CODEC_BGRA8UNORM:
        r.f[0] = t[p[2]], r.f[1] = t[p[1]], r.f[2] = t[p[0]], r.f[3] = t[p[3]];
        return r;
    default:
        return stex__decode_call(prof, b, p);
    }
}

/* Each thread holds its own copy of the bindings, the first few inside its
 * state so that a constant @binding is a constant offset (no table load, no
 * bound check).  A dispatch the inline path must not serve (snapshot
 * visibility, a store observer, the epoch race detector) or a thread after
 * a shader error has its copies' load/store tags cleared: then every texture
 * and buffer access goes out of line, and the inline path checks one tag. */
#define STEX__NEAR_BINDINGS 8
typedef struct stex_exec_fast {
    stex_fast_binding near[STEX__NEAR_BINDINGS]; /* @binding 0..7 */
    const stex_fast_binding *b; /* every @binding (nb of them) */
    uint32_t nb;
    bool slow;                  /* race detection, snapshot visibility, or an error */
    uint32_t race_tid;          /* this thread's words: race + race_tid * race_count */
    uint32_t race_key;          /* summary key of local invocation 0 of the running workgroup */
    const stex_profile *profile;
    /* the profile's pack4x8unorm rule and unpack4x8unorm values (inline builtins) */
    uint32_t pack_u8_round, pack_u8_nan;
    const float *unpack_u8;
} stex_exec_fast;

#define STEX__TAG_RACE (1u << 16)
#define STEX__BUF_WORDS 1u

/* Race summary word bits (the engine's, see src/race/race_internal.h). */
#define STEX__RACE_READ (1u << 30)
#define STEX__RACE_WRITE (1u << 31)
#define STEX__RACE_KEY (STEX__RACE_READ - 1)
#define STEX__RACE_RUN_SHIFT 10 /* locations per run of the race_touch marks: 1024 */

STEX_API STEX__COLD void stex__race_note(const stex_invocation *inv, const stex_fast_binding *b, uint64_t word,
                     uint32_t key, uint32_t bit, const void *value);

/* Records a texel access for the race summary.  The common case - the
 * texel's only invocation so far - is a load and a store of this thread's
 * word (no other thread reads it before the dispatch ends); anything else
 * goes out of line. */
STEX__ALWAYS_INLINE void stex__race_mark(const stex_invocation *inv, const stex_fast_binding *b,
                                   int64_t x, int64_t y, int64_t z, uint32_t bit,
                                   const void *value)
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    uint64_t i = (uint64_t)x + b->race_w * ((uint64_t)y + b->race_h * ((uint64_t)z + b->race_z0));
    uint32_t key = e->race_key + inv->local_invocation_index;
    uint32_t *wp = b->race + (uint64_t)e->race_tid * b->race_count + i;
    uint32_t w = *wp;
    if (!b->race_values && (!w || (w & STEX__RACE_KEY) == key)) {
        *wp = w | key | bit;
        /* the end-of-dispatch scan skips runs no thread touched */
        b->race_touch[e->race_tid * b->race_runs + (i >> STEX__RACE_RUN_SHIFT)] = 1;
        return;
    }
    stex__race_note(inv, b, i, key, bit, value);
}

STEX_API STEX__COLD void stex__texture_store(const stex_invocation *inv, uint32_t binding, stex_view_dimension dim,
                         int64_t x, int64_t y, int64_t z, const stex_value *v);
STEX_API STEX__COLD stex_value stex__texture_load(const stex_invocation *inv, uint32_t binding,
                              stex_view_dimension dim, int64_t x, int64_t y, int64_t z);
STEX_API STEX__COLD stex_uvec2 stex__texture_dimensions_2d(const stex_invocation *inv, uint32_t binding);

STEX_API extern const stex_fast_binding stex__no_binding; /* every tag mismatches */
         
         STEX__ALWAYS_INLINE const stex_fast_binding *stex__fast(const stex_invocation *inv, uint32_t binding)
         {
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    if (binding < STEX__NEAR_BINDINGS)
        return &e->near[binding]; /* unbound numbers hold stex__no_binding */
    return binding < e->nb ? &e->b[binding] : &stex__no_binding;
}

/* The inline textureStore / textureLoad once the tag matched; `race`: the
 * binding is recorded by the race summary (a constant at each call). */
STEX__ALWAYS_INLINE void stex__store_at(const stex_invocation *inv, const stex_fast_binding *b,
                                        int64_t x, int64_t y, int64_t z, const stex_value *v,
                                        bool race)
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    if (STEX__LIKELY(((uint64_t)x < b->w) & ((uint64_t)y < b->h) & ((uint64_t)z < b->d))) {
        uint8_t *p = b->memory + (uint64_t)z * b->slice + b->col[x] + b->row[y];
        if (b->raw32)
            stex__store32(p, v->v.u[0]);
        else
            stex__encode_fast(e->profile, b, &v->v, p);
        if (race)
            stex__race_mark(inv, b, x, y, z, STEX__RACE_WRITE, p);
    }
    /* else WGSL: an out-of-bounds textureStore is discarded */
}

STEX__ALWAYS_INLINE void stex__store(const stex_invocation *inv, uint32_t binding,
                               stex_view_dimension dim, int64_t x, int64_t y, int64_t z,
                               const stex_value *v)
{
    const stex_fast_binding *b = stex__fast(inv, binding);
    uint32_t tag = (uint32_t)dim | ((uint32_t)v->type << 8);
    if (STEX__LIKELY(b->store_tag == tag))
        stex__store_at(inv, b, x, y, z, v, false);
    else if (b->store_tag == (tag | STEX__TAG_RACE))
        stex__store_at(inv, b, x, y, z, v, true);
    else
        stex__texture_store(inv, binding, dim, x, y, z, v);
}

STEX__ALWAYS_INLINE stex_value stex__load_at(const stex_invocation *inv,
                                             const stex_fast_binding *b, int64_t x, int64_t y,
                                             int64_t z, bool race)
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    stex_value r;
    r.type = b->scalar;
    const uint8_t *p = b->memory + (uint64_t)z * b->slice + b->col[x] + b->row[y];
    if (race)
        stex__race_mark(inv, b, x, y, z, STEX__RACE_READ, NULL);
    if (b->raw32) {
        memcpy(&r.v.u[0], p, 4);
        r.v.u[1] = r.v.u[2] = 0;
        r.v.u[3] = b->alpha_one;
    } else
        r.v = stex__decode_fast(e->profile, b, p);
    return r;
}

STEX__ALWAYS_INLINE stex_value stex__load(const stex_invocation *inv, uint32_t binding,
                                    stex_view_dimension dim, int64_t x, int64_t y, int64_t z)
{
    const stex_fast_binding *b = stex__fast(inv, binding);
    bool in = ((uint64_t)x < b->w) & ((uint64_t)y < b->h) & ((uint64_t)z < b->d);
    if (STEX__LIKELY((b->load_tag == (uint32_t)dim) & in))
        return stex__load_at(inv, b, x, y, z, false);
    if ((b->load_tag == ((uint32_t)dim | STEX__TAG_RACE)) & in)
        return stex__load_at(inv, b, x, y, z, true);
    return stex__texture_load(inv, binding, dim, x, y, z); /* out of bounds too */
}

/* textureStore: out-of-bounds coordinates (or layer) discard the store. */
STEX__ALWAYS_INLINE void stex_textureStore_1d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                        stex_value v)
{ stex__store(inv, binding, STEX_VIEW_DIMENSION_1D, x, 0, 0, &v); }
STEX__ALWAYS_INLINE void stex_textureStore_2d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                        int64_t y, stex_value v)
{ stex__store(inv, binding, STEX_VIEW_DIMENSION_2D, x, y, 0, &v); }
STEX__ALWAYS_INLINE void stex_textureStore_2d_array(const stex_invocation *inv, uint32_t binding,
                                              int64_t x, int64_t y, int64_t layer, stex_value v)
{ stex__store(inv, binding, STEX_VIEW_DIMENSION_2D_ARRAY, x, y, layer, &v); }
STEX__ALWAYS_INLINE void stex_textureStore_3d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                        int64_t y, int64_t z, stex_value v)
{ stex__store(inv, binding, STEX_VIEW_DIMENSION_3D, x, y, z, &v); }

/* textureLoad on read / read_write storage textures (no level); out of
 * bounds: the dispatch's stex_oob_load policy. */
STEX__ALWAYS_INLINE stex_value stex_textureLoad_1d(const stex_invocation *inv, uint32_t binding,
                                             int64_t x)
{ return stex__load(inv, binding, STEX_VIEW_DIMENSION_1D, x, 0, 0); }
STEX__ALWAYS_INLINE stex_value stex_textureLoad_2d(const stex_invocation *inv, uint32_t binding,
                                             int64_t x, int64_t y)
{ return stex__load(inv, binding, STEX_VIEW_DIMENSION_2D, x, y, 0); }
STEX__ALWAYS_INLINE stex_value stex_textureLoad_2d_array(const stex_invocation *inv, uint32_t binding,
                                                   int64_t x, int64_t y, int64_t layer)
{ return stex__load(inv, binding, STEX_VIEW_DIMENSION_2D_ARRAY, x, y, layer); }
STEX__ALWAYS_INLINE stex_value stex_textureLoad_3d(const stex_invocation *inv, uint32_t binding,
                                             int64_t x, int64_t y, int64_t z)
{ return stex__load(inv, binding, STEX_VIEW_DIMENSION_3D, x, y, z); }

/* textureDimensions (no level for storage textures) and textureNumLayers. */
STEX_API uint32_t stex_textureDimensions_1d(const stex_invocation *inv, uint32_t binding);
STEX__ALWAYS_INLINE stex_uvec2 stex_textureDimensions_2d(const stex_invocation *inv, uint32_t binding)
{ /* texture_storage_2d, texture_storage_2d_array, texture_2d */
    const stex_fast_binding *b = stex__fast(inv, binding);
    if (STEX__LIKELY(b->dims_tag == STEX_VIEW_DIMENSION_2D)) {
        stex_uvec2 r = {(uint32_t)b->w, (uint32_t)b->h};
        return r;
    }
    return stex__texture_dimensions_2d(inv, binding);
}
STEX_API stex_uvec3 stex_textureDimensions_3d(const stex_invocation *inv, uint32_t binding);
STEX_API uint32_t stex_textureNumLayers(const stex_invocation *inv, uint32_t binding);

/* texture_2d<f32>: textureLoad with a level, textureSampleLevel with a sampler. */
STEX_API STEX__COLD stex_vec4 stex__texture_load_level_2d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                     int64_t y, int64_t level);
STEX__ALWAYS_INLINE stex_vec4 stex_textureLoad_level_2d(const stex_invocation *inv, uint32_t binding,
                                                  int64_t x, int64_t y, int64_t level)
{ /* sampled textures are read-only in the dispatch: no race or visibility path */
    const stex_fast_binding *b = stex__fast(inv, binding);
    if (STEX__LIKELY(b->sampled_2d & (level == 0) & ((uint64_t)x < b->w) & ((uint64_t)y < b->h))) {
        const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
        return stex__decode_fast(e->profile, b, b->memory + b->col[x] + b->row[y]);
    }
    return stex__texture_load_level_2d(inv, binding, x, y, level);
}
STEX_API stex_vec4 stex_textureSampleLevel_2d(const stex_invocation *inv, uint32_t texture_binding,
                                              uint32_t sampler_binding, float u, float v, float level);

/* Storage buffers, addressed by 32-bit word index (array<u32|i32|f32>) or by
 * vec4 index (array<vec4<...>>).  Out-of-range accesses follow WGSL's
 * bounded behaviour: stores are discarded, loads return 0. */
STEX_API STEX__COLD uint32_t stex__buffer_load_word(const stex_invocation *inv, uint32_t binding, uint64_t index);
STEX_API STEX__COLD void stex__buffer_store_word(const stex_invocation *inv, uint32_t binding, uint64_t index,
                             uint32_t v);
/* Inline: a word in range of a buffer the binding may access, without race
 * detection or snapshot visibility; everything else goes out of line. */
STEX__ALWAYS_INLINE uint32_t stex__buffer_load(const stex_invocation *inv, uint32_t binding,
                                         uint64_t index)
{
    const stex_fast_binding *b = stex__fast(inv, binding);
    uint32_t v;
    if (STEX__LIKELY((b->buf_load == STEX__BUF_WORDS) & (index < b->buf_words))) {
        memcpy(&v, b->buf + index * 4, 4);
        return v;
    }
    if ((b->buf_load == (STEX__BUF_WORDS | STEX__TAG_RACE)) & (index < b->buf_words)) {
        stex__race_mark(inv, b, (int64_t)index, 0, 0, STEX__RACE_READ, NULL);
        memcpy(&v, b->buf + index * 4, 4);
        return v;
    }
    return stex__buffer_load_word(inv, binding, index);
}
STEX__ALWAYS_INLINE void stex__buffer_store(const stex_invocation *inv, uint32_t binding,
                                      uint64_t index, uint32_t v)
{
    const stex_fast_binding *b = stex__fast(inv, binding);
    if (STEX__LIKELY((b->buf_store == STEX__BUF_WORDS) & (index < b->buf_words))) {
        stex__store32(b->buf + index * 4, v);
    } else if ((b->buf_store == (STEX__BUF_WORDS | STEX__TAG_RACE)) & (index < b->buf_words)) {
        stex__race_mark(inv, b, (int64_t)index, 0, 0, STEX__RACE_WRITE, &v);
        stex__store32(b->buf + index * 4, v);
    } else
        stex__buffer_store_word(inv, binding, index, v);
}
STEX__ALWAYS_INLINE uint32_t stex_buffer_load_u32(const stex_invocation *inv, uint32_t binding,
                                            uint64_t index)
{ return stex__buffer_load(inv, binding, index); }
STEX__ALWAYS_INLINE float stex_buffer_load_f32(const stex_invocation *inv, uint32_t binding,
                                         uint64_t index)
{ uint32_t w = stex__buffer_load(inv, binding, index); float f; memcpy(&f, &w, 4); return f; }
STEX__ALWAYS_INLINE int32_t stex_buffer_load_i32(const stex_invocation *inv, uint32_t binding,
                                           uint64_t index)
{ return (int32_t)stex__buffer_load(inv, binding, index); }
STEX__ALWAYS_INLINE void stex_buffer_store_u32(const stex_invocation *inv, uint32_t binding,
                                         uint64_t index, uint32_t v)
{ stex__buffer_store(inv, binding, index, v); }
STEX__ALWAYS_INLINE void stex_buffer_store_f32(const stex_invocation *inv, uint32_t binding,
                                         uint64_t index, float v)
{ uint32_t w; memcpy(&w, &v, 4); stex__buffer_store(inv, binding, index, w); }
STEX__ALWAYS_INLINE void stex_buffer_store_i32(const stex_invocation *inv, uint32_t binding,
                                         uint64_t index, int32_t v)
{ stex__buffer_store(inv, binding, index, (uint32_t)v); }
STEX_API stex_vec4 stex_buffer_load_vec4(const stex_invocation *inv, uint32_t binding, uint64_t index);
STEX_API void stex_buffer_store_vec4(const stex_invocation *inv, uint32_t binding, uint64_t index, stex_vec4 v);

/* Atomics on array<atomic<u32|i32>> words; each returns the old value. */
STEX_API uint32_t stex_atomicLoad(const stex_invocation *inv, uint32_t binding, uint64_t index);
STEX_API void stex_atomicStore(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicAdd(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicSub(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicMax_u32(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicMin_u32(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API int32_t stex_atomicMax_i32(const stex_invocation *inv, uint32_t binding, uint64_t index, int32_t v);
STEX_API int32_t stex_atomicMin_i32(const stex_invocation *inv, uint32_t binding, uint64_t index, int32_t v);
STEX_API uint32_t stex_atomicAnd(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicOr(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicXor(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicExchange(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicCompareExchangeWeak(const stex_invocation *inv, uint32_t binding,
                                                 uint64_t index, uint32_t cmp, uint32_t v, bool *exchanged);

/* var<workgroup> memory as 32-bit words (index < workgroup_memory_size / 4).
 * Kernels may also use inv->workgroup_memory directly; going through these
 * lets the race detector see the accesses (a reduction missing its
 * workgroupBarrier is then reported).  Out of range: loads 0, stores dropped. */
STEX_API uint32_t stex_workgroup_load_u32(const stex_invocation *inv, uint64_t index);
STEX_API void stex_workgroup_store_u32(const stex_invocation *inv, uint64_t index, uint32_t v);
STEX_API float stex_workgroup_load_f32(const stex_invocation *inv, uint64_t index);
STEX_API void stex_workgroup_store_f32(const stex_invocation *inv, uint64_t index, float v);
STEX_API uint32_t stex_workgroup_atomicAdd(const stex_invocation *inv, uint64_t index, uint32_t v);

/* Barriers: only for pipelines created with uses_barriers; all invocations of
 * the workgroup must reach the same barrier (uniform control flow), else the
 * dispatch returns STEX_SHADER_ERROR.  Each is a control barrier for the
 * workgroup and orders one kind of memory: workgroupBarrier var<workgroup>,
 * storageBarrier storage buffers, textureBarrier storage textures.  None
 * orders anything between workgroups. */
STEX_API void stex_workgroupBarrier(const stex_invocation *inv);
STEX_API void stex_storageBarrier(const stex_invocation *inv);
STEX_API void stex_textureBarrier(const stex_invocation *inv);

/* The conversion profile in force (for the pack/unpack builtins of convert.h). */
STEX_API const stex_profile *stex_invocation_profile(const stex_invocation *inv);

/* pack4x8unorm and unpack4x8unorm under the profile in force, inline: the
 * same results as convert.h's given stex_invocation_profile(inv). */
STEX__ALWAYS_INLINE uint32_t stex_invocation_pack4x8unorm(const stex_invocation *inv, const float v[4])
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    return stex__unorm8x4(e->pack_u8_round, e->pack_u8_nan, v);
}
STEX__ALWAYS_INLINE void stex_invocation_unpack4x8unorm(const stex_invocation *inv, uint32_t w,
                                                  float out[4])
{
    const float *t = ((const stex_exec_fast *)(const void *)inv->exec)->unpack_u8;
    out[0] = t[w & 0xff], out[1] = t[(w >> 8) & 0xff], out[2] = t[(w >> 16) & 0xff],
    out[3] = t[w >> 24];
}

#ifdef __cplusplus
}
#endif
#endif
