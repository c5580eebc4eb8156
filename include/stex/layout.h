/*
 * stex/layout.h - where a texel lives in memory, and how many cache lines an
 * access pattern touches there.
 *
 * Textures are TILED (docs/memory.md): every 2d slice or array layer is cut
 * into macro-tiles of 2^s x 2^s texels (s = 3..7), stored row-major; inside
 * a macro-tile texels follow a Morton (Z-order) curve, so each 8x8 block is
 * one contiguous run and the blocks of a macro-tile are themselves in Morton
 * order.  The macro-tile side is chosen per mip level as the largest one that
 * keeps padding within 25% of the texel bytes (8x8 blocks alone always do for
 * textures of at least 64x64).  1d textures and buffers are LINEAR: the same
 * formula with s = 0 (a "tile" is one texel and a row holds `width` of them).
 *
 *     stex_level_layout l;
 *     stex_level_layout_tiled(&l, 1024, 1024, 1, 4);          // rgba8unorm
 *     uint64_t off = stex_level_offset(&l, 10, 3, 0);          // no branch, no lock
 *     stex_line_stats st;
 *     stex_cache_lines_stencil(&l, 128, stex_stencil_3x3, 9, 8, 8, &st);
 *
 * Failure: the init functions return STEX_INVALID_ARGUMENT for zero sizes,
 * a texel size that is not a power of two in 1..16, or a layout larger than
 * SIZE_MAX bytes; the cache-line
 * functions return STEX_INVALID_ARGUMENT for a zero line size and
 * STEX_OUT_OF_MEMORY if their scratch space cannot be allocated.
 */
#ifndef STEX_LAYOUT_H
#define STEX_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/status.h"
#include "stex/webgpu.h"

#if defined(__BMI2__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define STEX_MORTON_PDEP 1
#else
#define STEX_MORTON_PDEP 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum {
    STEX_MAX_MIP_LEVELS = 16,   /* 1 + log2(65536): more than any limit allows */
    STEX_TILE_BLOCK_LOG2 = 3,   /* 8x8-texel blocks */
    STEX_TILE_MAX_LOG2 = 7,     /* largest macro-tile: 128x128 texels (16x16 blocks) */
    STEX_LEVEL_ALIGN = 256      /* every mip level starts on a 256-byte boundary */
};
/* Padding allowed over the texel bytes when choosing a macro-tile: 25%. */
#define STEX_TILE_MAX_OVERHEAD 1.25

/* One mip level of a texture (all its layers or z slices), or one buffer
 * holding an image.  Everything the per-texel address needs, precomputed. */
typedef struct stex_level_layout {
    uint64_t base;            /* byte offset of texel (0,0,0) */
    uint64_t slice_bytes;     /* bytes from one layer / z slice to the next */
    uint64_t tile_bytes;      /* bytes of one macro-tile ((1 << shift)^2 texels) */
    uint32_t width, height, depth; /* texels; depth = layers (2d) or depth (3d) */
    uint32_t tiles_per_row;   /* macro-tiles per row of tiles (linear: width) */
    uint32_t tile_rows;       /* rows of macro-tiles (linear: height) */
    uint32_t bytes_per_texel; /* a power of two, 1..16 */
    uint32_t mask;            /* (1 << shift) - 1 */
    uint8_t shift;            /* log2 macro-tile side: 0 = linear, 3..7 = tiled */
    uint8_t texel_shift;      /* log2 bytes_per_texel */
    uint8_t tile_shift;       /* log2 tile_bytes */
} stex_level_layout;

/* Interleave the low 16 bits of x (even bits) and y (odd bits): the Morton
 * index.  BMI2 pdep when the compiler targets it (-march=native on a BMI2
 * CPU), else three shift/mask steps per coordinate. */
static inline uint32_t stex_morton_spread16(uint32_t v)
{
    v &= 0xffffu;
    v = (v | (v << 8)) & 0x00ff00ffu;
    v = (v | (v << 4)) & 0x0f0f0f0fu;
    v = (v | (v << 2)) & 0x33333333u;
    v = (v | (v << 1)) & 0x55555555u;
    return v;
}
static inline uint32_t stex_morton2(uint32_t x, uint32_t y)
{
#if STEX_MORTON_PDEP
    return _pdep_u32(x, 0x55555555u) | _pdep_u32(y, 0xaaaaaaaau);
#else
    return stex_morton_spread16(x) | (stex_morton_spread16(y) << 1);
#endif
}

/* Byte offset of texel (x, y, z) relative to the start of the memory the
 * layout describes.  No bounds check: the caller checks x < width etc. */
static inline uint64_t stex_level_offset(const stex_level_layout *l, uint32_t x, uint32_t y,
                                         uint32_t z)
{
    uint64_t tile = (uint64_t)(y >> l->shift) * l->tiles_per_row + (x >> l->shift);
    return l->base + (uint64_t)z * l->slice_bytes + (tile << l->tile_shift) +
           ((uint64_t)stex_morton2(x & l->mask, y & l->mask) << l->texel_shift);
}

/* Morton index variants, for tests and the benchmark: the same function
 * through a 256-entry table, through BMI2 pdep (false when the CPU or the
 * compiler lacks it), and the inline default above. */
STEX_API uint32_t stex_morton2_table(uint32_t x, uint32_t y);
STEX_API bool stex_morton2_pdep_available(void);
STEX_API uint32_t stex_morton2_pdep(uint32_t x, uint32_t y); /* call only if available */
/* The inverse of stex_morton2: x from even bits, y from odd bits. */
STEX_API void stex_morton2_decode(uint32_t m, uint32_t *x, uint32_t *y);

/* A tiled level of w x h texels with `depth` layers/slices, starting at 0.
 * The macro-tile side is the largest 2^s (3 <= s <= 7) whose padding stays
 * within STEX_TILE_MAX_OVERHEAD; s = 3 (plain 8x8 blocks) otherwise. */
STEX_API stex_status stex_level_layout_tiled(stex_level_layout *l, uint32_t w, uint32_t h, uint32_t depth,
                                             uint32_t bytes_per_texel);
/* The same texels laid out linearly, rows of w texels back to back (what a
 * storage buffer indexed [y * w + x] holds). */
STEX_API stex_status stex_level_layout_linear(stex_level_layout *l, uint32_t w, uint32_t h, uint32_t depth,
                                              uint32_t bytes_per_texel);
/* Bytes the level occupies: depth * slice_bytes. */
STEX_API uint64_t stex_level_layout_bytes(const stex_level_layout *l);

/* A whole texture: every mip level, levels one after another (level-major),
 * each starting on a STEX_LEVEL_ALIGN boundary. */
typedef struct stex_texture_layout {
    stex_texture_dimension dimension;
    uint32_t mip_level_count;
    uint64_t size;            /* total bytes */
    stex_level_layout level[STEX_MAX_MIP_LEVELS];
} stex_texture_layout;

/* size = the texture's size (1d: height/depth ignored; 2d: depth = layers,
 * kept at every level; 3d: depth halves with the level).  1d is linear, 2d
 * and 3d tiled. */
STEX_API stex_status stex_texture_layout_init(stex_texture_layout *out, stex_texture_dimension dim,
                                              uint32_t width, uint32_t height, uint32_t depth_or_layers,
                                              uint32_t mip_level_count, uint32_t bytes_per_texel);

/* ---- cache-line model ---- */

/* The 3x3 stencil (dx, dy) in row order, centre included. */
STEX_API extern const int32_t stex_stencil_3x3[9][2];

enum { STEX_LINE_HISTOGRAM = 16, STEX_PAGE_BYTES = 4096 };

typedef struct stex_line_stats {
    uint32_t line_size;
    uint64_t invocations;          /* invocations with at least one in-bounds access */
    double lines_per_invocation;   /* mean distinct lines one invocation touches */
    uint32_t min_lines, max_lines;
    uint64_t histogram[STEX_LINE_HISTOGRAM]; /* [n] = invocations touching n lines (last: n or more) */
    uint64_t contiguous;           /* invocations whose lines are consecutive (one run) */
    double mean_span_bytes;        /* mean distance first line .. last line, in bytes */
    uint64_t far;                  /* invocations whose lines span a page or more (TLB pressure) */
    uint64_t workgroups;
    double lines_per_workgroup;    /* mean distinct lines per workgroup */
} stex_line_stats;

/* Every invocation (x, y) of the level's slice z = 0, grouped in workgroups
 * of wg_w x wg_h, reads texels (x + dx, y + dy) for each offset; reads out of
 * bounds touch no memory.  Lines are aligned `line_size`-byte ranges of the
 * layout's memory (which starts on a line boundary). */
STEX_API stex_status stex_cache_lines_stencil(const stex_level_layout *l, uint32_t line_size,
                                              const int32_t (*offsets)[2], size_t n_offsets,
                                              uint32_t wg_w, uint32_t wg_h, stex_line_stats *out);
/* Distinct lines touched by an arbitrary list of in-bounds texel coordinates
 * (x, y, z): one invocation's accesses, or a whole workgroup's. */
STEX_API stex_status stex_cache_lines_count(const stex_level_layout *l, uint32_t line_size,
                                            const uint32_t (*coords)[3], size_t n, uint64_t *lines);

#ifdef __cplusplus
}
#endif
#endif
