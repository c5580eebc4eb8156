/* Internal: small helpers shared by the validation files. */
#ifndef STEX_DEVICE_VALIDATE_COMMON_H
#define STEX_DEVICE_VALIDATE_COMMON_H

#include "stex/device.h"

/* The texture descriptor with WebGPU's defaults filled in (height, depth,
 * mip count and sample count of 0 become 1). */
stex_texture_desc stex_texture_desc_resolve(const stex_texture_desc *desc);

/* Array layers of a resolved texture (1 for 3d textures). */
uint32_t stex_texture_array_layers(const stex_texture_desc *t);

/* Why (format, access) is refused under `features`, as the end of a
 * sentence: "it needs feature texture-formats-tier2, which the device does not
 * have".  NULL if it is allowed. */
const char *stex_access_refusal(stex_format f, stex_access access, uint32_t features,
                                char *buf, size_t size);

/* GPUTextureFormat view compatibility: equal, or differing only in "-srgb". */
bool stex_formats_view_compatible(stex_format a, stex_format b);

/* Usage flags as "STORAGE_BINDING|COPY_SRC" into buf. */
const char *stex_usage_names(uint32_t usage, char *buf, size_t size);

#endif
