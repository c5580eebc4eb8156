/* Internal: the sRGB-encoded 8-bit codes' linear values (the r, g and b of
 * the -srgb formats), by the profile's rule (convert/profile.h). */
#ifndef STEX_CONVERT_SRGB_H
#define STEX_CONVERT_SRGB_H

#include <stdint.h>

#include "convert/profile.h"

/* The linear f32 values of the sRGB codes 0..255 under rule d (filled on
 * first use; one lookup per texel, then three reads). */
const float *stex_srgb_table(stex_srgb_decode d);

#endif
