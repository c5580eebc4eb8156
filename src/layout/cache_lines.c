/* The cache-line model of lesson 002: distinct lines an access pattern
 * touches in a tiled texture or in a linear buffer holding the same image. */
#include "stex/layout.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

const int32_t stex_stencil_3x3[9][2] = {
    {-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {0, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1},
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts lines[0..n) and returns the number of distinct values. */
static size_t distinct(uint64_t *lines, size_t n)
{
    if (n == 0)
        return 0;
    if (n <= 32) { /* one invocation's lines: insertion sort beats qsort */
        for (size_t i = 1; i < n; i++) {
            uint64_t v = lines[i];
            size_t j = i;
            for (; j > 0 && lines[j - 1] > v; j--)
                lines[j] = lines[j - 1];
            lines[j] = v;
        }
    } else {
        qsort(lines, n, sizeof *lines, cmp_u64);
    }
    size_t k = 1;
    for (size_t i = 1; i < n; i++)
        if (lines[i] != lines[k - 1])
            lines[k++] = lines[i];
    return k;
}

/* Appends the lines of texel (x, y, z) to lines[*k]. */
static void touch(const stex_level_layout *l, uint32_t line_size, uint32_t x, uint32_t y,
                  uint32_t z, uint64_t *lines, size_t *k)
{
    uint64_t off = stex_level_offset(l, x, y, z);
    for (uint64_t b = off / line_size; b <= (off + l->bytes_per_texel - 1) / line_size; b++)
        lines[(*k)++] = b;
}

stex_status stex_cache_lines_count(const stex_level_layout *l, uint32_t line_size,
                                   const uint32_t (*coords)[3], size_t n, uint64_t *out)
{
    if (!line_size)
        return stex_fail(STEX_INVALID_ARGUMENT, "cache lines: line size must be >= 1 byte");
    size_t per_texel = 2 + (l->bytes_per_texel - 1) / line_size;
    uint64_t *lines = malloc((n ? n : 1) * per_texel * sizeof *lines);
    if (!lines)
        return stex_fail(STEX_OUT_OF_MEMORY, "cache lines: cannot allocate %zu entries", n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (coords[i][0] >= l->width || coords[i][1] >= l->height || coords[i][2] >= l->depth) {
            free(lines);
            return stex_fail(STEX_INVALID_ARGUMENT,
                             "cache lines: coordinate (%u, %u, %u) outside %ux%ux%u", coords[i][0],
                             coords[i][1], coords[i][2], l->width, l->height, l->depth);
        }
        touch(l, line_size, coords[i][0], coords[i][1], coords[i][2], lines, &k);
    }
    *out = distinct(lines, k);
    free(lines);
    return STEX_OK;
}

stex_status stex_cache_lines_stencil(const stex_level_layout *l, uint32_t line_size,
                                     const int32_t (*offsets)[2], size_t n_offsets,
                                     uint32_t wg_w, uint32_t wg_h, stex_line_stats *out)
{
    if (!line_size || !wg_w || !wg_h || !n_offsets)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "cache lines: line size %u, workgroup %ux%u, %zu offsets; all must be >= 1",
                         line_size, wg_w, wg_h, n_offsets);
    /* a texel spans at most 1 + (bpp - 1) / line_size + 1 lines */
    size_t per_texel = 2 + (l->bytes_per_texel - 1) / line_size;
    size_t per_inv = n_offsets * per_texel;
    size_t per_wg = per_inv * (size_t)wg_w * wg_h;
    uint64_t *inv = malloc(per_inv * sizeof *inv);
    uint64_t *wg = malloc(per_wg * sizeof *wg);
    if (!inv || !wg) {
        free(inv);
        free(wg);
        return stex_fail(STEX_OUT_OF_MEMORY, "cache lines: cannot allocate scratch for %zu lines", per_wg);
    }
    memset(out, 0, sizeof *out);
    out->line_size = line_size;
    out->min_lines = UINT32_MAX;
    double sum_lines = 0, sum_span = 0, sum_wg = 0;
    for (uint32_t wy = 0; wy < l->height; wy += wg_h) {
        for (uint32_t wx = 0; wx < l->width; wx += wg_w) {
            size_t kw = 0;
            for (uint32_t y = wy; y < wy + wg_h && y < l->height; y++) {
                for (uint32_t x = wx; x < wx + wg_w && x < l->width; x++) {
                    size_t ki = 0;
                    for (size_t o = 0; o < n_offsets; o++) {
                        int64_t sx = (int64_t)x + offsets[o][0], sy = (int64_t)y + offsets[o][1];
                        if (sx < 0 || sy < 0 || sx >= l->width || sy >= l->height)
                            continue; /* out-of-bounds loads touch no memory */
                        touch(l, line_size, (uint32_t)sx, (uint32_t)sy, 0, inv, &ki);
                    }
                    if (ki == 0)
                        continue;
                    memcpy(wg + kw, inv, ki * sizeof *inv);
                    kw += ki;
                    size_t n = distinct(inv, ki);
                    out->invocations++;
                    sum_lines += (double)n;
                    sum_span += (double)(inv[n - 1] - inv[0]) * line_size;
                    if ((inv[n - 1] - inv[0]) * line_size >= STEX_PAGE_BYTES)
                        out->far++;
                    if (inv[n - 1] - inv[0] == n - 1)
                        out->contiguous++;
                    if (n < out->min_lines)
                        out->min_lines = (uint32_t)n;
                    if (n > out->max_lines)
                        out->max_lines = (uint32_t)n;
                    out->histogram[n < STEX_LINE_HISTOGRAM ? n : STEX_LINE_HISTOGRAM - 1]++;
                }
            }
            if (kw) {
                out->workgroups++;
                sum_wg += (double)distinct(wg, kw);
            }
        }
    }
    if (out->invocations) {
        out->lines_per_invocation = sum_lines / (double)out->invocations;
        out->mean_span_bytes = sum_span / (double)out->invocations;
    } else {
        out->min_lines = 0;
    }
    if (out->workgroups)
        out->lines_per_workgroup = sum_wg / (double)out->workgroups;
    free(inv);
    free(wg);
    return STEX_OK;
}
