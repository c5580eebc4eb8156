/* Contents of textures that writeTexture cannot fill - multisampled
 * textures (WebGPU writes them only by rendering) and depth or stencil
 * formats (copies may not write depth24plus or depth32float) - set
 * directly, stex's own extension (stex_texture_set_texels).  Per level:
 * a contents object for every sample, or {"samples": [one per sample]}. */
#include <stdlib.h>
#include <string.h>

#include "run/run_internal.h"

#define BAD STEX_FILE_FORMAT_ERROR

bool run_texture_direct(const stex_texture *t)
{
    const stex_texture_desc *td = stex_texture_get_desc(t);
    return td->sample_count > 1 || stex_format_get(td->format)->kind != STEX_KIND_COLOR;
}

stex_status run_texel_of(stex_run *r, const stex_format_info *fi, const json_t *v,
                            const char *path, uint8_t *texel)
{
    memset(texel, 0, 16);
    if (fi->kind == STEX_KIND_DEPTH) {
        if (!json_is_number(v) || !stex_depth_encode(fi->format, (float)json_number_value(v),
                                                     texel))
            return run_fail(r, BAD, path, "expected a depth value for %s (in [0, 1] for a "
                            "unorm depth format)", fi->name);
        return STEX_OK;
    }
    if (fi->kind == STEX_KIND_STENCIL) {
        json_int_t s = json_is_integer(v) ? json_integer_value(v) : -1;
        if (s < 0 || s > 255)
            return run_fail(r, BAD, path, "expected a stencil value 0..255 for %s", fi->name);
        texel[0] = (uint8_t)s;
        return STEX_OK;
    }
    stex_vec4 value = {{0}};
    size_t n = json_is_array(v) ? json_array_size(v) : 1;
    if (n < 1 || n > 4)
        return run_fail(r, BAD, path, "expected a number or a list of 1 to 4 numbers");
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_is_array(v) ? json_array_get(v, i) : v;
        json_int_t k = json_integer_value(e);
        bool ok = fi->scalar == STEX_SCALAR_F32 ? json_is_number(e)
                  : fi->scalar == STEX_SCALAR_U32 ? json_is_integer(e) && k >= 0 && k <= UINT32_MAX
                  : json_is_integer(e) && k >= INT32_MIN && k <= INT32_MAX;
        if (!ok) /* a channel is 32 bits: a wider value is refused, not wrapped */
            return run_fail(r, BAD, path, "expected %s for %s", fi->scalar == STEX_SCALAR_F32
                            ? "numbers" : fi->scalar == STEX_SCALAR_U32
                            ? "whole numbers in [0, 2^32)" : "whole numbers in [-2^31, 2^31)",
                            fi->name);
        if (fi->scalar == STEX_SCALAR_F32)
            value.f[i] = (float)json_number_value(e);
        else if (fi->scalar == STEX_SCALAR_U32)
            value.u[i] = (uint32_t)json_integer_value(e);
        else
            value.i[i] = (int32_t)json_integer_value(e);
    }
    if (stex_encode_texel(stex_device_profile(r->device), fi->format, &value, texel))
        return run_wrap(r, STEX_VALIDATION_ERROR, path);
    return STEX_OK;
}

/* One sample of one level: {"fill": v}, {"values": [one per texel]}, or raw
 * bytes in stex's representation (hex, u32, i32, f32, file). */
static stex_status one_sample(stex_run *r, stex_texture *t, uint32_t mip, uint32_t sample,
                              const json_t *c, const char *path)
{
    static const char *const members[] = {"fill", "values", "file", "hex", "u32", "i32", "f32",
                                          NULL};
    stex_status st;
    if ((st = run_want_object(r, c, path)) || (st = run_check_members(r, c, path, members)))
        return st;
    const stex_format_info *fi = stex_format_get(stex_texture_get_desc(t)->format);
    stex_extent3d e = stex_texture_mip_size(t, mip);
    size_t count = (size_t)e.width * e.height * e.depth_or_array_layers;
    const json_t *fillv = json_object_get(c, "fill"), *values = json_object_get(c, "values");
    if ((fillv != NULL) + (values != NULL) + run_has_data(c) > 1)
        return run_fail(r, BAD, path, "give one of 'fill', 'values' or the data");
    char p[RUN_PATH_MAX];
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (fillv || values) {
        run_path_key(p, path, fillv ? "fill" : "values");
        if (values && (!json_is_array(values) || json_array_size(values) != count))
            return run_fail(r, BAD, p, "expected a list of %zu texel values (mip level %u is "
                            "%ux%ux%u)", count, mip, e.width, e.height, e.depth_or_array_layers);
        bytes = malloc(count * fi->bytes + 1);
        if (!bytes)
            return run_fail(r, STEX_OUT_OF_MEMORY, path, "out of memory");
        for (size_t i = 0; i < count; i++) {
            uint8_t texel[16];
            char q[RUN_PATH_MAX];
            if (values)
                run_path_index(q, p, i);
            if ((st = run_texel_of(r, fi, fillv ? fillv : json_array_get(values, i), values ? q : p,
                               texel))) {
                free(bytes);
                return st;
            }
            memcpy(bytes + i * fi->bytes, texel, fi->bytes);
        }
        size = count * fi->bytes;
    } else if ((st = run_data(r, c, path, &bytes, &size))) {
        return st;
    }
    st = stex_texture_set_texels(t, mip, sample, bytes, size);
    free(bytes);
    return st ? run_wrap(r, st, path) : STEX_OK;
}

stex_status run_direct_contents(stex_run *r, stex_texture *t, uint32_t mip, const json_t *c,
                                const char *path)
{
    uint32_t samples = stex_texture_get_desc(t)->sample_count;
    const json_t *list = json_is_object(c) ? json_object_get(c, "samples") : NULL;
    if (!list) {
        for (uint32_t s = 0; s < samples; s++) {
            stex_status st = one_sample(r, t, mip, s, c, path);
            if (st)
                return st;
        }
        return STEX_OK;
    }
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "samples");
    if (json_object_size(c) != 1)
        return run_fail(r, BAD, path, "'samples' stands alone: one contents object per sample");
    if (samples == 1)
        return run_fail(r, BAD, p, "the texture is not multisampled (sampleCount 1)");
    if (!json_is_array(list) || json_array_size(list) != samples)
        return run_fail(r, BAD, p, "expected a list of %u contents, one per sample", samples);
    for (uint32_t s = 0; s < samples; s++) {
        char q[RUN_PATH_MAX];
        run_path_index(q, p, s);
        const json_t *one = json_array_get(list, s);
        stex_status st = json_is_null(one) ? STEX_OK : one_sample(r, t, mip, s, one, q);
        if (st)
            return st;
    }
    return STEX_OK;
}
