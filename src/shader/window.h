/*
 * shader/window.h - textureLoad's window: a thread's decoded copy of a
 * small rectangle of a sampled rgba8unorm texture's level.
 *
 * An image filter's sub-group loads the same few texels again and again (a
 * 3x3 box: nine loads per invocation, each texel loaded by nine
 * invocations).  The lane form of textureLoad copies the rectangle around
 * the sub-group's first load out of the tiled memory once, decoded into one
 * plane per channel, and serves later loads that fall inside it from
 * there: no gather from the tiles, no decode.
 *
 * A sampled texture is read-only for the whole dispatch (WebGPU's usage
 * scope forbids a dispatch to write a texture it samples), and a window
 * lives on one thread for one dispatch (freed with the thread's state), so
 * what it holds is what the memory holds.
 */
#ifndef STEX_SHADER_WINDOW_H
#define STEX_SHADER_WINDOW_H

#include "shader/fast.h"

#define STEX__WINDOW_TEXELS 1024u /* the largest rectangle, in texels */
#define STEX__WINDOWS 2u          /* textures served at once per thread */

typedef struct stex_window {
    const uint8_t *memory; /* the level it copies (NULL: empty) */
    uint32_t x0, y0, w, h; /* the rectangle */
    float c[4][STEX__WINDOW_TEXELS]; /* channel k of texel (x0 + i, y0 + j) at [k][j * w + i] */
} stex_window;

typedef struct stex_windows {
    stex_window win[STEX__WINDOWS];
    uint32_t last; /* the window filled last (the other one is refilled first) */
} stex_windows;

/* The window of b's level (rgba8unorm, read-only, decoded through
 * b->u8_value) holding texel (x[i], y[i]) of every lane i < n (n <= 64),
 * each inside b's w x h: a window already filled, or one filled now when
 * the lanes' rectangle is small enough for the copy to pay (most of its
 * texels loaded again); NULL otherwise, and the caller loads as before.
 * *w is the thread's windows, allocated here the first time (NULL when
 * that fails: no window).  *rows: whether every 8 lanes are a row, at
 * consecutive x on one y (n a multiple of 8). */
const stex_window *stex__window_for(stex_windows **w, const stex_fast_binding *b,
                                    const uint32_t *x, const uint32_t *y, uint32_t n, bool *rows);

/* out[k][i] = channel k of texel (x[i], y[i]) for i < n, each inside win;
 * rows: every 8 lanes are a row (consecutive x on one y), as *rows says. */
void stex__window_read(const stex_window *win, const uint32_t *x, const uint32_t *y, uint32_t n,
                       bool rows, uint32_t *const out[4]);

/* The common case of a later load, in one pass over the lanes instead of
 * stex__window_for's and stex__window_read's two: every 8 lanes a row
 * (consecutive x on one y; n a multiple of 8, at most 64) inside a window
 * of b's level already filled.  Then out[k][i] = channel k of lane i's
 * texel and true; otherwise false and out untouched (out may be x's or
 * y's registers). */
bool stex__window_read_rows(const stex_windows *w, const stex_fast_binding *b,
                            const uint32_t *x, const uint32_t *y, uint32_t n,
                            uint32_t *const out[4]);

#endif
