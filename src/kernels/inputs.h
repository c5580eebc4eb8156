/*
 * Internal: the harness's input generators (peer/lib/util.mjs mulberry32,
 * peer/tests/kernels.mjs and perf.mjs), reproduced bit for bit so that the
 * kernels' outputs can be compared with conformance/lavapipe.
 */
#ifndef STEX_KERNELS_INPUTS_H
#define STEX_KERNELS_INPUTS_H

#include <stdbool.h>
#include <stdint.h>

/* mulberry32: the JS function returns next() / 2^32; this returns next(). */
typedef struct kernels_rng { uint32_t a; } kernels_rng;
static inline kernels_rng kernels_rng_seed(uint32_t seed) { kernels_rng r = {seed}; return r; }
uint32_t kernels_rng_u32(kernels_rng *r);
/* rng() as JS computes it: an exact double in [0, 1). */
double kernels_rng_unit(kernels_rng *r);
/* Math.fround(rng()). */
float kernels_rng_f32(kernels_rng *r);

/* Little-endian stores into an input image (the WebGPU byte order). */
void kernels_put_u32(uint8_t *p, uint32_t v);
void kernels_put_f32(uint8_t *p, float v);

/* decaer: 16 special values then Math.fround(mulberry32(0xdeca)()), r32float. */
void kernels_input_decaer(uint32_t w, uint32_t h, uint8_t *out);
/* difundir: "random" = Math.fround(mulberry32(0xd1f0)()); "hot" = 0 but
 * 1000.0 at (w/2, h/2) (the harness: (128,128) of 256x256), r32float. */
void kernels_input_difundir(uint32_t w, uint32_t h, bool hot, uint8_t *out);
/* blur source, rgba8unorm: r = (4x)&255, g = (4y)&255, b = ((x^y)&8) ? 255 : 0,
 * a = floor(mulberry32(0xb1a5)() * 256). */
void kernels_input_blur(uint32_t w, uint32_t h, uint8_t *out);
/* box3x3 source (perf.mjs): one (mulberry32(0x9e7f)() * 2^32) >>> 0 word per texel. */
void kernels_input_box3x3(uint32_t w, uint32_t h, uint8_t *out);
/* histogram points (x, y) pairs from mulberry32(0x4157): every 97th point at
 * x = w + i % 5 (outside), the others the mean of 4 uniforms per axis. */
void kernels_input_points(uint32_t w, uint32_t h, uint32_t n, uint32_t *xy);
/* How many points the histogram scatters at a size: 262144 (the harness) or
 * one per 4 texels if more. */
uint32_t kernels_histogram_points(uint32_t w, uint32_t h);

#endif
