/* The pictures of `stex race` (and `stex demo`): runs drawn side by side on
 * one intensity scale, the heat map of the texels that differ, and captions
 * burned in with a tiny built-in font, so that a picture explains itself. */
#ifndef STEX_CLI_RACE_PICTURE_H
#define STEX_CLI_RACE_PICTURE_H

#include <stdint.h>

#include "stex/stex.h"

/* One intensity scale for several images of one format: the range of
 * their finite R, G, B values, [0, 1] when every value lies in it (the rule
 * of stex_write_png, docs/file-formats.md, over all the images at once). */
typedef struct race_scale {
    double lo, hi;
} race_scale;
race_scale race_scale_of(const stex_image *const *images, uint32_t n);

/* A grid of panels: the images, then (if differs is not NULL) the heat map,
 * `columns` across, 4-texel gaps, each texel scale x scale pixels; under it
 * the caption (lines split at '\n', wrapped at spaces), white on black. */
typedef struct race_drawing {
    const stex_image *const *images;
    uint32_t count, columns, scale;
    race_scale range;
    const uint64_t *differs;  /* per texel: largest difference seen (0 = equal) */
    const uint8_t *flagged;   /* per texel: the race detector flagged it */
    const char *caption;
} race_drawing;
stex_status race_draw_png(const char *path, const race_drawing *d);

/* Whether a grid of `cells` w x h panels, `columns` across, at `scale`
 * (0: automatic) fits what stex draws; checked before the runs. */
stex_status race_check_grid(const char *path, uint32_t w, uint32_t h, uint32_t cells,
                            uint32_t columns, uint32_t scale);

/* The automatic scale: small textures enlarged, to be seen (4x below 64
 * texels, 2x below 128). */
uint32_t race_auto_scale(uint32_t width);

#endif
