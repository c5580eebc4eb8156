/* "textures": GPUTextureDescriptor entries, and their initial contents per
 * mip level, written with queue.writeTexture (so the texture needs
 * COPY_DST, as in WebGPU). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "io/io_internal.h"
#include "run/names.h"
#include "run/run_internal.h"
#include "stex/io.h"

#define BAD STEX_FILE_FORMAT_ERROR

/* {"fill": v or [r, g, b, a]}: every texel of the level encoded from one value. */
static stex_status fill(stex_run *r, stex_texture *t, uint32_t mip, const json_t *v,
                        const char *path)
{
    const stex_texture_desc *td = stex_texture_get_desc(t);
    const stex_format_info *fi = stex_format_get(td->format);
    uint8_t texel[16];
    stex_status st = run_texel_of(r, fi, v, path, texel);
    if (st)
        return st;
    stex_extent3d e = stex_texture_mip_size(t, mip);
    size_t count = (size_t)e.width * e.height * e.depth_or_array_layers;
    uint8_t *bytes = malloc(count * fi->bytes + 1);
    if (!bytes)
        return run_fail(r, STEX_OUT_OF_MEMORY, path, "out of memory");
    for (size_t i = 0; i < count; i++)
        memcpy(bytes + i * fi->bytes, texel, fi->bytes);
    stex_copy_texture dst = {.texture = t, .mip_level = mip};
    stex_copy_layout layout = {.bytes_per_row = e.width * fi->bytes, .rows_per_image = e.height};
    st = stex_queue_write_texture(&dst, bytes, count * fi->bytes, &layout, e);
    free(bytes);
    return st ? run_wrap(r, st, path) : STEX_OK;
}

/* {"file": "x.npy"} or {"file": "x.png"}: an image of the level's size and
 * the texture's format. */
static stex_status from_image(stex_run *r, stex_texture *t, uint32_t mip, const char *file,
                              const char *path)
{
    const stex_texture_desc *td = stex_texture_get_desc(t);
    char *full;
    stex_status st = run_named_file(r, file, path, true, &full);
    if (st)
        return st;
    stex_image img = {0};
    st = stex_file_kind_of(full) == STEX_FILE_PNG ? stex_read_png(full, &img)
                                                              : stex_read_npy(full, STEX_FORMAT_UNDEFINED, &img);
    uint8_t *raw; /* its bytes again, for the record of what the run read */
    size_t nraw;
    if (!st && !io_read_file(full, &raw, &nraw, STEX_IO_MAX_BYTES)) {
        run_note_input(r, full, raw, nraw);
        free(raw);
    }
    free(full);
    if (st)
        return run_wrap(r, st, path);
    stex_extent3d e = stex_texture_mip_size(t, mip);
    if (img.format != td->format || img.width != e.width || img.height != e.height ||
        img.depth != e.depth_or_array_layers) {
        st = run_fail(r, BAD, path, "'%s' holds %ux%ux%u %s texels, but mip level %u of the "
                      "texture is %ux%ux%u %s", file, img.width, img.height, img.depth,
                      stex_format_name(img.format), mip, e.width, e.height,
                      e.depth_or_array_layers, stex_format_name(td->format));
    } else {
        stex_copy_texture dst = {.texture = t, .mip_level = mip};
        stex_copy_layout layout = {.bytes_per_row = img.bytes_per_row,
                                   .rows_per_image = img.rows_per_image};
        if ((st = stex_queue_write_texture(&dst, img.data, img.size, &layout, e)))
            st = run_wrap(r, st, path);
    }
    stex_image_free(&img);
    return st;
}

stex_status run_texture_contents(stex_run *r, stex_texture *t, uint32_t mip, const json_t *c,
                                 const char *path)
{
    static const char *const members[] = {"fill", "file", "hex", "u32", "i32", "f32", "offset",
                                          "bytesPerRow", "rowsPerImage", NULL};
    stex_status st;
    if (run_texture_direct(t))
        return run_direct_contents(r, t, mip, c, path);
    if ((st = run_want_object(r, c, path)) || (st = run_check_members(r, c, path, members)))
        return st;
    char p[RUN_PATH_MAX];
    if (json_object_get(c, "fill")) {
        if (run_has_data(c))
            return run_fail(r, BAD, path, "give 'fill' or the data, not both");
        run_path_key(p, path, "fill");
        return fill(r, t, mip, json_object_get(c, "fill"), p);
    }
    const char *file = json_string_value(json_object_get(c, "file"));
    if (file && stex_file_kind_of(file) != STEX_FILE_BIN && stex_file_kind_of(file) != STEX_FILE_UNKNOWN) {
        run_path_key(p, path, "file");
        return from_image(r, t, mip, file, p);
    }
    const stex_format_info *fi = stex_format_get(stex_texture_get_desc(t)->format);
    stex_extent3d e = stex_texture_mip_size(t, mip);
    stex_copy_layout layout = {.bytes_per_row = e.width * fi->bytes, .rows_per_image = e.height};
    uint8_t *bytes;
    size_t size;
    if ((st = run_get_u64(r, c, path, "offset", false, &layout.offset)) ||
        (st = run_get_u32(r, c, path, "bytesPerRow", false, &layout.bytes_per_row)) ||
        (st = run_get_u32(r, c, path, "rowsPerImage", false, &layout.rows_per_image)) ||
        (st = run_data(r, c, path, &bytes, &size)))
        return st;
    stex_copy_texture dst = {.texture = t, .mip_level = mip};
    st = stex_queue_write_texture(&dst, bytes, size, &layout, e);
    free(bytes);
    return st ? run_wrap(r, st, path) : STEX_OK;
}

/* "contents": one object (mip level 0) or a list, one per level (null = zeros). */
static stex_status contents(stex_run *r, stex_texture *t, const json_t *c, const char *path)
{
    if (!json_is_array(c))
        return run_texture_contents(r, t, 0, c, path);
    uint32_t levels = stex_texture_get_desc(t)->mip_level_count;
    if (json_array_size(c) > levels)
        return run_fail(r, BAD, path, "%zu levels of contents for a texture of %u mip level%s",
                        json_array_size(c), levels, levels == 1 ? "" : "s");
    size_t i;
    json_t *level;
    json_array_foreach(c, i, level) {
        char p[RUN_PATH_MAX];
        run_path_index(p, path, i);
        stex_status st = json_is_null(level) ? STEX_OK
                                             : run_texture_contents(r, t, (uint32_t)i, level, p);
        if (st)
            return st;
    }
    return STEX_OK;
}

/* About the bytes a valid texture takes: every level's texel blocks, every
 * layer and sample (the limits keep it below 2^40). */
static uint64_t texture_bytes(const stex_texture_desc *td)
{
    const stex_format_info *fi = stex_format_get(td->format);
    uint32_t levels = td->mip_level_count ? td->mip_level_count : 1;
    uint64_t samples = td->sample_count ? td->sample_count : 1, total = 0;
    for (uint32_t m = 0; m < levels && m < 32; m++) {
        uint64_t w = td->size.width >> m ? td->size.width >> m : 1;
        uint64_t h = td->size.height >> m ? td->size.height >> m : 1;
        uint64_t d = td->size.depth_or_array_layers ? td->size.depth_or_array_layers : 1;
        if (td->dimension == STEX_TEXTURE_DIMENSION_3D)
            d = d >> m ? d >> m : 1;
        w = (w + fi->block_width - 1) / fi->block_width;
        h = (h + fi->block_height - 1) / fi->block_height;
        total += w * h * d * samples * fi->bytes;
    }
    return total;
}

static stex_status create_one(stex_run *r, const char *name, const json_t *d, const char *path)
{
    static const char *const members[] = {"size", "format", "dimension", "mipLevelCount",
                                          "sampleCount", "usage", "viewFormats", "label",
                                          "contents", NULL};
    stex_texture_desc td = {.label = name};
    uint32_t size[3];
    int dim = 0;
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_extent(r, d, path, "size", true, size)) ||
        (st = run_get_format(r, d, path, "format", true, &td.format)) ||
        (st = run_get_enum(r, d, path, "dimension", "GPUTextureDimension", RUN_TEXTURE_DIMENSIONS,
                           &dim)) ||
        (st = run_get_u32(r, d, path, "mipLevelCount", false, &td.mip_level_count)) ||
        (st = run_get_u32(r, d, path, "sampleCount", false, &td.sample_count)) ||
        (st = run_get_flags(r, d, path, "usage", "GPUTextureUsage", RUN_TEXTURE_USAGES,
                            RUN_TEXTURE_USAGE_BITS, &td.usage)))
        return st;
    if (!json_object_get(d, "usage"))
        return run_fail(r, BAD, path, "missing member 'usage'");
    if (json_object_get(d, "viewFormats"))
        return run_fail(r, BAD, path, "viewFormats: not supported in run files yet");
    td.dimension = (stex_texture_dimension)dim;
    td.size = (stex_extent3d){size[0], size[1], size[2]};
    stex_texture *t;
    /* WebGPU's rules first (a validation error), then the run's memory */
    if ((st = stex_validate_texture(r->device, &td)))
        return run_wrap(r, st, path);
    if ((st = run_reserve_memory(r, texture_bytes(&td), path, "createTexture")))
        return st;
    if ((st = stex_texture_create(r->device, &td, &t)))
        return run_wrap(r, st, path);
    if ((st = run_table_add(&r->textures, name, t))) {
        stex_texture_destroy(t);
        return st;
    }
    const json_t *c = json_object_get(d, "contents");
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "contents");
    return c ? contents(r, t, c, p) : STEX_OK;
}

stex_status run_create_textures(stex_run *r)
{
    const char *name;
    json_t *d;
    json_object_foreach(json_object_get(r->root, "textures"), name, d) {
        char p[RUN_PATH_MAX];
        run_path_key(p, "$.textures", name);
        stex_status st = create_one(r, name, d, p);
        if (st)
            return st;
    }
    return STEX_OK;
}
