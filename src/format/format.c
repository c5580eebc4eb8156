/* The format table (stex/formats.def) and the questions asked of it. */
#include "stex/format.h"

#include <string.h>

/* The KIND, TYPE and PACKING columns of formats.def are the enum names
 * without their prefix (STEX_KIND_, STEX_CHANNEL_, STEX_PACKING_); the other
 * columns are spelled as tokens mapped here to values. */
/* WGSL value type: normalised and float formats read as f32. */
#define SCALAR_UNORM STEX_SCALAR_F32
#define SCALAR_SNORM STEX_SCALAR_F32
#define SCALAR_UINT STEX_SCALAR_U32
#define SCALAR_SINT STEX_SCALAR_I32
#define SCALAR_FLOAT STEX_SCALAR_F32
#define SCALAR_UFLOAT STEX_SCALAR_F32
#define TIER_CORE STEX_TIER_CORE
#define TIER_BGRA8UNORM_STORAGE STEX_TIER_BGRA8UNORM_STORAGE
#define TIER_TIER1 STEX_TIER_1
#define TIER_TIER2 STEX_TIER_2
#define TIER_BC STEX_TIER_BC
#define TIER_DEPTH32FLOAT_STENCIL8 STEX_TIER_DEPTH32FLOAT_STENCIL8
#define TIER_NEVER STEX_TIER_NEVER
#define STENCIL_YES true
#define STENCIL_NO false
#define RO_YES true
#define RO_NO false

static const stex_format_info format_table[STEX_FORMAT_COUNT] = {
    [STEX_FORMAT_UNDEFINED] = {STEX_FORMAT_UNDEFINED, "undefined", STEX_KIND_COLOR,
                               STEX_CHANNEL_UNORM, STEX_SCALAR_F32, 0, {0, 0, 0, 0}, 0,
                               STEX_PACKING_OPAQUE, STEX_TIER_NEVER, STEX_TIER_NEVER,
                               false, STEX_TIER_NEVER, 1, 1, STEX_DEPTH_COPY_NA, false},
#define X(id, name, kind, type, ch, br, bg, bb, ba, bytes, packing, create, storage, ro, rw,  \
          bw, bh, depth_copy, stencil)                                                      \
    [STEX_FORMAT_##id] = {STEX_FORMAT_##id, name, STEX_KIND_##kind, STEX_CHANNEL_##type,      \
                          SCALAR_##type, ch, {br, bg, bb, ba}, bytes, STEX_PACKING_##packing, \
                          TIER_##create, TIER_##storage, RO_##ro, TIER_##rw, bw, bh,          \
                          STEX_DEPTH_COPY_##depth_copy, STENCIL_##stencil},
#include "stex/formats.def"
#undef X
};

const stex_format_info *stex_format_get(stex_format f)
{
    if ((int)f <= STEX_FORMAT_UNDEFINED || (int)f >= STEX_FORMAT_COUNT)
        return NULL;
    return &format_table[f];
}

const char *stex_format_name(stex_format f)
{
    const stex_format_info *fi = stex_format_get(f);
    return fi ? fi->name : "?";
}

stex_format stex_format_from_name(const char *name)
{
    if (!name)
        return STEX_FORMAT_UNDEFINED;
    for (int f = STEX_FORMAT_UNDEFINED + 1; f < STEX_FORMAT_COUNT; f++)
        if (strcmp(format_table[f].name, name) == 0)
            return (stex_format)f;
    return STEX_FORMAT_UNDEFINED;
}

uint32_t stex_tier_feature(stex_tier t)
{
    switch (t) {
    case STEX_TIER_BGRA8UNORM_STORAGE: return STEX_FEATURE_BGRA8UNORM_STORAGE;
    case STEX_TIER_1: return STEX_FEATURE_TEXTURE_FORMATS_TIER1;
    case STEX_TIER_2: return STEX_FEATURE_TEXTURE_FORMATS_TIER2;
    case STEX_TIER_BC: return STEX_FEATURE_TEXTURE_COMPRESSION_BC;
    case STEX_TIER_DEPTH32FLOAT_STENCIL8: return STEX_FEATURE_DEPTH32FLOAT_STENCIL8;
    case STEX_TIER_CORE:
    case STEX_TIER_NEVER:
    default: return 0;
    }
}

bool stex_tier_enabled(stex_tier t, uint32_t features)
{
    /* texture-formats-tier2 implies texture-formats-tier1 (spec: enabling
     * tier2 enables tier1 too). */
    if (features & STEX_FEATURE_TEXTURE_FORMATS_TIER2)
        features |= STEX_FEATURE_TEXTURE_FORMATS_TIER1;
    switch (t) {
    case STEX_TIER_CORE: return true;
    case STEX_TIER_NEVER: return false;
    default: return (features & stex_tier_feature(t)) != 0;
    }
}

bool stex_format_can_create(stex_format f, uint32_t features)
{
    const stex_format_info *fi = stex_format_get(f);
    return fi && stex_tier_enabled(fi->create, features);
}

/* The stronger of two tiers for this table: NEVER wins, then any feature
 * over CORE, and tier2 over tier1 (it implies it).  No row combines
 * unrelated features (e.g. BC with TIER1), so this order is enough. */
static stex_tier tier_max(stex_tier a, stex_tier b)
{
    if (a == STEX_TIER_NEVER || b == STEX_TIER_NEVER)
        return STEX_TIER_NEVER;
    if (a == STEX_TIER_CORE)
        return b;
    if (b == STEX_TIER_CORE)
        return a;
    if ((a == STEX_TIER_1 && b == STEX_TIER_2) ||
        (a == STEX_TIER_2 && b == STEX_TIER_1))
        return STEX_TIER_2;
    return a == b ? a : STEX_TIER_NEVER;
}

stex_tier stex_format_access_tier(stex_format f, stex_access access)
{
    const stex_format_info *fi = stex_format_get(f);
    if (!fi)
        return STEX_TIER_NEVER;
    stex_tier t = tier_max(fi->create, fi->storage);
    switch (access) {
    case STEX_ACCESS_UNDEFINED:
    case STEX_ACCESS_WRITE_ONLY:
        return t;
    case STEX_ACCESS_READ_ONLY:
        return fi->read_only ? t : STEX_TIER_NEVER;
    case STEX_ACCESS_READ_WRITE:
        return tier_max(t, fi->read_write);
    default:
        return STEX_TIER_NEVER;
    }
}

const char *stex_tier_name(stex_tier t)
{
    switch (t) {
    case STEX_TIER_CORE: return "core";
    case STEX_TIER_BGRA8UNORM_STORAGE: return "bgra8unorm-storage";
    case STEX_TIER_1: return "texture-formats-tier1";
    case STEX_TIER_2: return "texture-formats-tier2";
    case STEX_TIER_BC: return "texture-compression-bc";
    case STEX_TIER_DEPTH32FLOAT_STENCIL8: return "depth32float-stencil8";
    case STEX_TIER_NEVER: return "never";
    default: return "?";
    }
}

bool stex_format_supports_storage(stex_format f, uint32_t features)
{
    return stex_tier_enabled(stex_format_access_tier(f, STEX_ACCESS_WRITE_ONLY), features);
}

bool stex_format_supports_access(stex_format f, stex_access access, uint32_t features,
                                 uint32_t language_features)
{
    if ((unsigned)access >= STEX_ACCESS_COUNT)
        return false;
    /* read-only and read-write exist in WGSL only with this language feature. */
    if ((access == STEX_ACCESS_READ_ONLY || access == STEX_ACCESS_READ_WRITE) &&
        !(language_features & STEX_LANGUAGE_FEATURE_READONLY_AND_READWRITE_STORAGE_TEXTURES))
        return false;
    return stex_tier_enabled(stex_format_access_tier(f, access), features);
}

bool stex_format_is_depth_or_stencil(stex_format f)
{
    const stex_format_info *fi = stex_format_get(f);
    return fi && (fi->kind == STEX_KIND_DEPTH || fi->kind == STEX_KIND_STENCIL);
}

bool stex_format_aspect_bytes(stex_format f, stex_format_aspect aspect, uint32_t *bytes,
                              uint32_t *offset)
{
    const stex_format_info *fi = stex_format_get(f);
    uint32_t n = 0, at = 0;
    if (!fi)
        return false;
    if (!stex_format_is_depth_or_stencil(f)) {
        if (aspect != STEX_FORMAT_ASPECT_WHOLE)
            return false;
        n = fi->bytes;
    } else if (aspect == STEX_FORMAT_ASPECT_DEPTH) {
        if (fi->depth_copy == STEX_DEPTH_COPY_NA)
            return false;
        n = fi->bits[0] / 8u;
    } else if (aspect == STEX_FORMAT_ASPECT_STENCIL) {
        if (!fi->stencil)
            return false;
        n = 1;
        at = fi->kind == STEX_KIND_STENCIL ? 0 : fi->bits[0] / 8u;
    } else {
        return false;
    }
    if (bytes)
        *bytes = n;
    if (offset)
        *offset = at;
    return true;
}

stex_format stex_format_intermediate(uint32_t features)
{
    return stex_format_supports_storage(STEX_FORMAT_R16FLOAT, features) ? STEX_FORMAT_R16FLOAT
                                                                        : STEX_FORMAT_R32FLOAT;
}
