/*
 * Internal: whole-tile access for a kernel's own workgroup function.
 *
 * A lesson kernel with @workgroup_size(8, 8) whose invocation (lx, ly)
 * touches only texel (x0 + lx, y0 + ly) can run its workgroup as one 8x8
 * block: in the tiled layout (src/layout) an aligned 8x8 block is 64
 * contiguous texels in Morton order, so its texels are read and written as
 * arrays, and the race summary's 64 words are marked at once.  These
 * helpers only say whether the block qualifies and do the marking; the
 * kernel checks its binding's tags (the inline path's condition: no
 * snapshot visibility, store observer, full race detector or shader error)
 * and runs its per-invocation loop whenever a helper says no, so every
 * byte written and every race word is the one the per-invocation builtins
 * would leave (tests/kernels/test_tile_paths.c compares the two).
 */
#ifndef STEX_SHADER_TILE_H
#define STEX_SHADER_TILE_H

#include <stdbool.h>
#include <stdint.h>

#include "shader/fast.h"

#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <emmintrin.h>
#define STEX__TILE_SSE2 1
#else
#define STEX__TILE_SSE2 0
#endif

enum { STEX__TILE = 8 };

/* Texel words written whole are in memory order only on little-endian hosts. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define STEX__TILE_LITTLE_ENDIAN 1
#else
#define STEX__TILE_LITTLE_ENDIAN 0
#endif

/* The tags of fast.h's stex_fast_binding a kernel compares (with or without
 * STEX__TAG_RACE): a 2d storage texture's, loaded / stored as `scalar`. */
#define STEX__TILE_LOAD_TAG ((uint32_t)STEX_VIEW_DIMENSION_2D)
#define STEX__TILE_STORE_TAG(scalar) ((uint32_t)STEX_VIEW_DIMENSION_2D | (uint32_t)(scalar) << 8)

/* Morton index of (lx, ly) inside an 8x8 block: x in the even bits, y in the
 * odd ones (stex_morton2). */
STEX__ALWAYS_INLINE uint32_t stex__tile_spread3(uint32_t v)
{
    return (v & 1u) | (v & 2u) << 1 | (v & 4u) << 2;
}
STEX__ALWAYS_INLINE uint32_t stex__tile_index(uint32_t lx, uint32_t ly)
{
    return stex__tile_spread3(lx) | stex__tile_spread3(ly) << 1;
}

/* The 8x8 block of 2d binding b whose first texel is (x0, y0) (multiples of
 * 8), texels of bpp bytes: its first byte when all 64 texels are in bounds
 * and lie in one contiguous run in Morton order (texel (lx, ly) at
 * stex__tile_index(lx, ly) * bpp); NULL otherwise (a linear layout, the
 * texture's edge). */
STEX__ALWAYS_INLINE uint8_t *stex__tile8_block(const stex_fast_binding *b, uint64_t x0,
                                              uint64_t y0, uint32_t bpp)
{
    if (!((x0 + STEX__TILE <= b->w) & (y0 + STEX__TILE <= b->h)) || !b->col)
        return NULL;
    const uint64_t *col = b->col + x0, *row = b->row + y0;
    uint64_t bad = 0;
    for (uint32_t i = 1; i < STEX__TILE; i++) {
        bad |= (col[i] - col[0]) ^ (uint64_t)stex__tile_spread3(i) * bpp;
        bad |= (row[i] - row[0]) ^ (uint64_t)stex__tile_spread3(i) * 2u * bpp;
    }
    return bad ? NULL : b->memory + col[0] + row[0];
}

/* Row order <-> the block's Morton order for 4-byte texels: t[8 * ly + lx]
 * is texel (lx, ly).  A Morton block is 16 quads of 2x2 texels, each quad
 * two row pairs, so both are 32 copies of 8 bytes. */
STEX__ALWAYS_INLINE void stex__tile8_put32(uint8_t *block, const uint32_t t[64])
{
    for (uint32_t q = 0; q < 16; q++) { /* quad q: texels 4q..4q+3 of the block */
        uint32_t lx = (q & 1u) << 1 | (q & 4u), ly = (q & 2u) | (q & 8u) >> 1;
        memcpy(block + 16 * q, &t[8 * ly + lx], 8);
        memcpy(block + 16 * q + 8, &t[8 * ly + 8 + lx], 8);
    }
}
STEX__ALWAYS_INLINE void stex__tile8_get32(uint32_t t[64], const uint8_t *block)
{
    for (uint32_t q = 0; q < 16; q++) {
        uint32_t lx = (q & 1u) << 1 | (q & 4u), ly = (q & 2u) | (q & 8u) >> 1;
        memcpy(&t[8 * ly + lx], block + 16 * q, 8);
        memcpy(&t[8 * ly + 8 + lx], block + 16 * q + 8, 8);
    }
}

/* The race summary's marks of 64 accesses (bits: STEX__RACE_READ and/or
 * STEX__RACE_WRITE), each by invocation (lx, ly) of the running 8x8
 * workgroup (local_invocation_index 8 * ly + lx) on its own location:
 * stex__race_mark8x8's location first + stride * ly + lx (a buffer's word
 * index, or x + w * y of a 2d texture), stex__tile8_race_mark's texel
 * (x0 + lx, y0 + ly) of the block.  When
 * every word is this thread's and either stale or already that
 * invocation's (stex__race_mark's inline case), writes what the
 * per-invocation marks would and returns true; otherwise writes nothing and
 * returns false (the caller then runs its invocations one by one, and the
 * out-of-line half records them). */
STEX__ALWAYS_INLINE bool stex__race_mark8x8(const stex_invocation *inv,
                                            const stex_fast_binding *b, uint64_t first,
                                            uint64_t stride, uint32_t bits)
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    if (b->race_values)
        return false; /* suppress_same_value: every write goes out of line */
    uint32_t *w0 = b->race + first + b->race_off;
#if STEX__TILE_SSE2
    /* keys and words are below 2^30: signed compares order them */
    const __m128i mask = _mm_set1_epi32((int)STEX__RACE_KEY);
    const __m128i base = _mm_set1_epi32((int)e->race_base - 1);
    const __m128i k0 = _mm_add_epi32(_mm_set1_epi32((int)e->race_key), _mm_setr_epi32(0, 1, 2, 3));
    const __m128i four = _mm_set1_epi32(4), eight = _mm_set1_epi32(STEX__TILE);
    __m128i bad = _mm_setzero_si128(), key = k0;
    for (uint32_t ly = 0; ly < STEX__TILE; ly++, key = _mm_add_epi32(key, eight)) {
        const __m128i *wp = (const __m128i *)(const void *)(w0 + stride * ly);
        __m128i a = _mm_and_si128(_mm_loadu_si128(wp), mask);
        __m128i c = _mm_and_si128(_mm_loadu_si128(wp + 1), mask);
        /* bad: neither this invocation's key nor stale (key >= race_base) */
        bad = _mm_or_si128(bad, _mm_andnot_si128(_mm_cmpeq_epi32(a, key), _mm_cmpgt_epi32(a, base)));
        bad = _mm_or_si128(bad, _mm_andnot_si128(_mm_cmpeq_epi32(c, _mm_add_epi32(key, four)),
                                                 _mm_cmpgt_epi32(c, base)));
    }
    if (_mm_movemask_epi8(bad))
        return false;
    const __m128i bv = _mm_set1_epi32((int)bits);
    key = k0;
    for (uint32_t ly = 0; ly < STEX__TILE; ly++, key = _mm_add_epi32(key, eight)) {
        __m128i *wp = (__m128i *)(void *)(w0 + stride * ly);
        for (int h = 0; h < 2; h++) {
            __m128i k = h ? _mm_add_epi32(key, four) : key, w = _mm_loadu_si128(wp + h);
            __m128i own = _mm_and_si128(_mm_cmpeq_epi32(_mm_and_si128(w, mask), k), w);
            _mm_storeu_si128(wp + h, _mm_or_si128(_mm_or_si128(own, k), bv));
        }
    }
#else
    uint32_t base = e->race_base, key0 = e->race_key, bad = 0;
    for (uint32_t ly = 0; ly < STEX__TILE; ly++)
        for (uint32_t lx = 0; lx < STEX__TILE; lx++) {
            uint32_t kw = w0[stride * ly + lx] & STEX__RACE_KEY, key = key0 + STEX__TILE * ly + lx;
            bad |= (kw != key) & (kw >= base);
        }
    if (bad)
        return false;
    for (uint32_t ly = 0; ly < STEX__TILE; ly++)
        for (uint32_t lx = 0; lx < STEX__TILE; lx++) {
            uint32_t *wp = w0 + stride * ly + lx, w = *wp, key = key0 + STEX__TILE * ly + lx;
            *wp = ((w & STEX__RACE_KEY) == key ? w : 0) | key | bits;
        }
#endif
    /* each row's 8 words lie in at most two runs */
    uint64_t i0 = (uint64_t)(w0 - b->race);
    for (uint32_t ly = 0; ly < STEX__TILE; ly++) {
        uint64_t i = i0 + stride * ly;
        b->race_touch[i >> STEX__RACE_RUN_SHIFT] = 1;
        b->race_touch[(i + STEX__TILE - 1) >> STEX__RACE_RUN_SHIFT] = 1;
    }
    return true;
}
STEX__ALWAYS_INLINE bool stex__tile8_race_mark(const stex_invocation *inv,
                                              const stex_fast_binding *b, uint64_t x0,
                                              uint64_t y0, uint32_t bits)
{
    return stex__race_mark8x8(inv, b, x0 + b->race_w * y0, b->race_w, bits);
}

#endif
