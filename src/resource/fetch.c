/* textureLoad and the texture queries on sampled views of every kind:
 * 1d, 2d, 2d-array, 3d, multisampled and depth (resource.h); the depth
 * formats' decoders and stex's direct texel initialisation. */
#include <math.h>
#include <string.h>

#include "common/error.h"
#include "resource/internal.h"

/* ---- depth formats: the depth aspect read as (D, 0, 0, 1) ---- */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void depth_out(float d, stex_vec4 *out)
{
    out->f[0] = d;
    out->f[1] = 0;
    out->f[2] = 0;
    out->f[3] = 1;
}

/* unorm: c / (2^n - 1), one correctly rounded f32 division (Vulkan's rule) */
static void dec_depth16(const stex_profile *p, const uint8_t *in, stex_vec4 *out)
{
    (void)p;
    depth_out((float)((uint32_t)in[0] | (uint32_t)in[1] << 8) / 65535.0f, out);
}

static void dec_depth24(const stex_profile *p, const uint8_t *in, stex_vec4 *out)
{
    (void)p;
    depth_out((float)(le32(in) & 0xffffffu) / 16777215.0f, out);
}

static void dec_depth32(const stex_profile *p, const uint8_t *in, stex_vec4 *out)
{
    (void)p;
    uint32_t u = le32(in);
    float f;
    memcpy(&f, &u, 4);
    depth_out(f, out);
}

stex_decode_fn stex_depth_decoder(stex_format f)
{
    switch (f) {
    case STEX_FORMAT_DEPTH16UNORM: return dec_depth16;
    case STEX_FORMAT_DEPTH24PLUS:
    case STEX_FORMAT_DEPTH24PLUS_STENCIL8: return dec_depth24;
    case STEX_FORMAT_DEPTH32FLOAT:
    case STEX_FORMAT_DEPTH32FLOAT_STENCIL8: return dec_depth32; /* f32 in bytes 0-3 */
    default: return NULL;
    }
}

static void stencil_out(uint8_t s, stex_vec4 *out)
{
    out->u[0] = s;
    out->u[1] = 0;
    out->u[2] = 0;
    out->u[3] = 1;
}

static void dec_stencil8(const stex_profile *p, const uint8_t *in, stex_vec4 *out)
{
    (void)p;
    stencil_out(in[0], out);
}

/* depth24plus-stencil8: the stencil in bits 24..31 of the word */
static void dec_stencil_of_d24s8(const stex_profile *p, const uint8_t *in, stex_vec4 *out)
{
    (void)p;
    stencil_out(in[3], out);
}

/* depth32float-stencil8: the stencil in byte 4, after the f32 depth */
static void dec_stencil_of_d32s8(const stex_profile *p, const uint8_t *in, stex_vec4 *out)
{
    (void)p;
    stencil_out(in[4], out);
}

stex_decode_fn stex_stencil_decoder(stex_format f)
{
    switch (f) {
    case STEX_FORMAT_STENCIL8: return dec_stencil8;
    case STEX_FORMAT_DEPTH24PLUS_STENCIL8: return dec_stencil_of_d24s8;
    case STEX_FORMAT_DEPTH32FLOAT_STENCIL8: return dec_stencil_of_d32s8;
    default: return NULL;
    }
}

bool stex_depth_encode(stex_format f, float d, uint8_t *out)
{
    uint32_t u;
    if (isnan(d))
        return false;
    switch (f) {
    case STEX_FORMAT_DEPTH16UNORM:
        if (!(d >= 0 && d <= 1))
            return false;
        u = (uint32_t)lrint((double)d * 65535.0);
        out[0] = (uint8_t)u;
        out[1] = (uint8_t)(u >> 8);
        return true;
    case STEX_FORMAT_DEPTH24PLUS:
    case STEX_FORMAT_DEPTH24PLUS_STENCIL8:
        if (!(d >= 0 && d <= 1))
            return false;
        u = (uint32_t)lrint((double)d * 16777215.0);
        break;
    case STEX_FORMAT_DEPTH32FLOAT:
    case STEX_FORMAT_DEPTH32FLOAT_STENCIL8: /* bytes 0-3; the stencil byte is left alone */
        memcpy(&u, &d, 4);
        break;
    default:
        return false;
    }
    for (int i = 0; i < 4; i++)
        out[i] = (uint8_t)(u >> (8 * i));
    return true;
}

/* ---- textureLoad ---- */

bool stex_view_fetch(const stex_texture_view *v, const stex_profile *p, int64_t x, int64_t y,
                     int64_t z, int64_t level, int64_t sample, stex_vec4 *out)
{
    memset(out, 0, sizeof *out);
    uint32_t samples = v->texture->desc.sample_count;
    if (level < 0 || (uint64_t)level >= v->desc.mip_level_count || sample < 0 ||
        (uint64_t)sample >= samples)
        return false;
    const stex_view_access *a = &v->level[level];
    const uint8_t *t = stex_view_access_texel(a, x, y, z);
    if (!t || !a->decode)
        return false;
    /* samples lie one slice apart (texture.c) */
    t += (uint64_t)sample * a->layout.slice_bytes;
    a->decode(p ? p : stex_device_profile(v->texture->device), t, out);
    return true;
}

/* ---- queries ---- */

bool stex_view_level_dimensions(const stex_texture_view *v, uint32_t level, stex_extent3d *out)
{
    *out = (stex_extent3d){0, 0, 0};
    if (level >= v->desc.mip_level_count)
        return false;
    const stex_view_access *a = &v->level[level];
    out->width = a->width;
    out->height = v->desc.dimension == STEX_VIEW_DIMENSION_1D ? 1 : a->height;
    out->depth_or_array_layers = v->desc.dimension == STEX_VIEW_DIMENSION_3D ? a->depth : 1;
    return true;
}

uint32_t stex_view_num_levels(const stex_texture_view *v) { return v->desc.mip_level_count; }
uint32_t stex_view_num_samples(const stex_texture_view *v) { return v->texture->desc.sample_count; }

/* ---- stex's direct initialisation ---- */

stex_status stex_texture_set_texels(stex_texture *t, uint32_t mip, uint32_t sample,
                                    const void *data, size_t size)
{
    if (!t || (!data && size))
        return stex_fail(STEX_INVALID_ARGUMENT, "setTexels: texture and data must not be NULL");
    if (mip >= t->desc.mip_level_count)
        return stex_fail(STEX_VALIDATION_ERROR, "setTexels: mip level %u is not below the "
                         "texture's mipLevelCount %u", mip, t->desc.mip_level_count);
    if (sample >= t->desc.sample_count)
        return stex_fail(STEX_VALIDATION_ERROR, "setTexels: sample %u is not below the "
                         "texture's sampleCount %u", sample, t->desc.sample_count);
    if (t->info->kind == STEX_KIND_COMPRESSED)
        return stex_fail(STEX_VALIDATION_ERROR, "setTexels: %s is a compressed format; give its "
                         "texel blocks with writeTexture or a buffer copy", t->info->name);
    const stex_level_layout *l = &t->layout.level[mip];
    stex_extent3d e = stex_texture_mip_size(t, mip);
    uint32_t bpp = t->info->bytes;
    size_t need = (size_t)e.width * e.height * e.depth_or_array_layers * bpp;
    if (size != need)
        return stex_fail(STEX_VALIDATION_ERROR, "setTexels: %zu bytes given, mip level %u of "
                         "%ux%ux%u %s texels needs %zu", size, mip, e.width, e.height,
                         e.depth_or_array_layers, t->info->name, need);
    if (!t->memory)
        return RESOURCE_DESTROYED("setTexels");
    const uint8_t *src = data;
    for (uint32_t z = 0; z < e.depth_or_array_layers; z++)
        for (uint32_t y = 0; y < e.height; y++)
            for (uint32_t x = 0; x < e.width; x++, src += bpp) {
                uint32_t slice = z * t->desc.sample_count + sample;
                memcpy(t->memory + stex_level_offset(l, x, y, slice), src, bpp);
            }
    return STEX_OK;
}
