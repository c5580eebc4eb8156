/*
 * Internal: rgba8unorm stores for a row of texels at once - the inline
 * codec's per-texel rules (convert/codec_inline.h, stex__unorm8_encode) run
 * on 4 (SSE2) or 8 (AVX2) texels per instruction, bit for bit the same
 * codes; and their loads, the decode table looked up 8 bytes at a time.
 * For a kernel's workgroup function that stores a block of texels
 * (src/kernels/generar.c, box3x3.c).
 */
#ifndef STEX_CONVERT_UNORM8_ROW_H
#define STEX_CONVERT_UNORM8_ROW_H

#include <stddef.h>
#include <stdint.h>

/* out[i] = the rgba8unorm texel (r in the low byte) of (r[i], g[i], b[i],
 * a[i]) under store rule `round` (STEX__UNORM8_*) and NaN code `nan`, for
 * i < n: what stex__unorm8x4 gives texel by texel.  The AVX2 variant is
 * chosen at run time where the CPU has it. */
void stex__unorm8_row(uint32_t round, uint32_t nan, size_t n, const float *r, const float *g,
                      const float *b, const float *a, uint32_t *out);

/* One channel: out[i] = the unorm8 code of x[i] (0..255) under the rule, i < n. */
void stex__unorm8_codes(uint32_t round, uint32_t nan, size_t n, const float *x, uint32_t *out);

/* The other way: r[i], g[i], b[i], a[i] = value[byte 0, 1, 2, 3 of w[i]]
 * for i < n, value being a decode rule's 256 values (stex__unorm8_values).
 * The outputs are written by memcpy and vector stores only, so they may be
 * arrays of 32-bit words holding the bits (an interpreter's registers). */
void stex__unorm8_unrow(const float *value, size_t n, const uint32_t *w, float *r, float *g,
                        float *b, float *a);

/* Tests: the variants by level (1 scalar, 2 SSE2, 3 AVX2; a level the
 * machine lacks runs the best one it has), and the best level here. */
void stex__unorm8_row_level(int level, uint32_t round, uint32_t nan, size_t n, const float *r,
                            const float *g, const float *b, const float *a, uint32_t *out);
int stex__unorm8_row_best(void);
void stex__unorm8_codes_level(int level, uint32_t round, uint32_t nan, size_t n, const float *x,
                              uint32_t *out);
void stex__unorm8_unrow_level(int level, const float *value, size_t n, const uint32_t *w,
                              float *r, float *g, float *b, float *a);

#endif
