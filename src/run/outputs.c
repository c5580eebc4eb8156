/* "outputs": which textures (a mip level, all layers) and buffers (read as
 * tightly packed texels of a format) go to which files (.bin + sidecar,
 * .npy, .png), all written or none. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "io/io_internal.h"
#include "run/run_internal.h"

#define BAD STEX_FILE_FORMAT_ERROR

static stex_status add_file(stex_run *r, run_output *o, const json_t *v, const char *path)
{
    if (!json_is_string(v))
        return run_fail(r, BAD, path, "expected a file name (a string)");
    const char *name = json_string_value(v);
    if (stex_file_kind_of(name) == STEX_FILE_UNKNOWN)
        return run_fail(r, BAD, path, "cannot tell the file type of '%s' (accepted extensions: "
                                      ".bin, .npy, .png)", name);
    char **files = realloc(o->files, (o->file_count + 1) * sizeof *files);
    if (files)
        o->files = files;
    const char **names = files ? realloc(o->names, (o->file_count + 1) * sizeof *names) : NULL;
    if (!names)
        return run_fail(r, STEX_OUT_OF_MEMORY, path, "out of memory");
    o->names = names;
    stex_status st = run_named_file(r, name, path, true, &files[o->file_count]);
    if (st)
        return st;
    names[o->file_count++] = name;
    return STEX_OK;
}

static stex_status parse_one(stex_run *r, const json_t *d, const char *path, run_output *o)
{
    static const char *const members[] = {"texture", "mipLevel", "buffer", "format", "size",
                                          "offset", "file", "files", NULL};
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_string(r, d, path, "texture", false, &o->texture)) ||
        (st = run_get_string(r, d, path, "buffer", false, &o->buffer)) ||
        (st = run_get_u32(r, d, path, "mipLevel", false, &o->mip)) ||
        (st = run_get_format(r, d, path, "format", false, &o->format)) ||
        (st = run_get_extent(r, d, path, "size", false, o->size)) ||
        (st = run_get_u64(r, d, path, "offset", false, &o->offset)))
        return st;
    if (!o->texture == !o->buffer)
        return run_fail(r, BAD, path, "name one 'texture' or one 'buffer'");
    if (o->buffer && (!o->format || !json_object_get(d, "size")))
        return run_fail(r, BAD, path, "a buffer output needs the 'format' and 'size' of the "
                                      "texels it holds");
    if (o->texture && (o->format || json_object_get(d, "size") || json_object_get(d, "offset")))
        return run_fail(r, BAD, path, "format, size and offset belong to buffer outputs");
    const json_t *file = json_object_get(d, "file"), *files = json_object_get(d, "files");
    char p[RUN_PATH_MAX];
    if (!file == !files)
        return run_fail(r, BAD, path, "give 'file' or 'files' (one of them)");
    if (file) {
        run_path_key(p, path, "file");
        return add_file(r, o, file, p);
    }
    run_path_key(p, path, "files");
    if ((st = run_want_array(r, files, p)))
        return st;
    size_t i;
    json_t *f;
    json_array_foreach(files, i, f) {
        char pi[RUN_PATH_MAX];
        run_path_index(pi, p, i);
        if ((st = add_file(r, o, f, pi)))
            return st;
    }
    return STEX_OK;
}

stex_status run_parse_outputs(stex_run *r)
{
    const json_t *list = json_object_get(r->root, "outputs");
    size_t n = json_array_size(list), i;
    if (!n)
        return STEX_OK;
    if (!(r->outputs = calloc(n, sizeof *r->outputs)))
        return run_fail(r, STEX_OUT_OF_MEMORY, "$.outputs", "out of memory");
    json_t *d;
    json_array_foreach(list, i, d) {
        char p[RUN_PATH_MAX];
        run_path_index(p, "$.outputs", i);
        r->output_count = i + 1;
        stex_status st = parse_one(r, d, p, &r->outputs[i]);
        if (st)
            return st;
        size_t total = r->output_path_count + r->outputs[i].file_count;
        char **all = realloc(r->output_paths, total * sizeof *all);
        if (!all)
            return run_fail(r, STEX_OUT_OF_MEMORY, p, "out of memory");
        r->output_paths = all;
        for (size_t k = 0; k < r->outputs[i].file_count; k++)
            all[r->output_path_count++] = r->outputs[i].files[k];
    }
    return STEX_OK;
}

void run_free_outputs(stex_run *r)
{
    for (size_t i = 0; i < r->output_count; i++) {
        for (size_t k = 0; k < r->outputs[i].file_count; k++)
            free(r->outputs[i].files[k]);
        free(r->outputs[i].files);
        free(r->outputs[i].names);
    }
    free(r->outputs);
    free(r->output_paths);
}

/* A buffer's bytes from `offset` as w x h x d tightly packed texels. */
static stex_status buffer_image(stex_run *r, const run_output *o, const char *path, stex_image *img)
{
    stex_buffer *b = run_table_find(&r->buffers, o->buffer);
    if (!b)
        return run_fail(r, BAD, path, "buffer '%s' is not declared", o->buffer);
    stex_status st = stex_image_init(img, o->format, o->size[0], o->size[1], o->size[2]);
    if (st)
        return run_wrap(r, st, path);
    size_t row = (size_t)o->size[0] * stex_format_get(o->format)->bytes;
    uint64_t need = (uint64_t)row * o->size[1] * o->size[2];
    if (o->offset > stex_buffer_size(b) || need > stex_buffer_size(b) - o->offset)
        return run_fail(r, BAD, path, "offset %" PRIu64 " + %" PRIu64 " bytes of %ux%ux%u %s "
                        "texels exceed buffer '%s' (%" PRIu64 " bytes)", o->offset, need,
                        o->size[0], o->size[1], o->size[2], stex_format_name(o->format),
                        o->buffer, stex_buffer_size(b));
    const uint8_t *src = stex_buffer_data(b) + o->offset;
    for (uint32_t z = 0; z < o->size[2]; z++)
        for (uint32_t y = 0; y < o->size[1]; y++, src += row)
            memcpy(img->data + ((size_t)z * img->rows_per_image + y) * img->bytes_per_row, src, row);
    return STEX_OK;
}

static stex_status output_image(stex_run *r, const run_output *o, const char *path, stex_image *img)
{
    if (o->buffer)
        return buffer_image(r, o, path, img);
    stex_texture *t = run_table_find(&r->textures, o->texture);
    if (!t)
        return run_fail(r, BAD, path, "texture '%s' is not declared", o->texture);
    uint32_t levels = stex_texture_get_desc(t)->mip_level_count;
    if (o->mip >= levels) /* copyTextureToBuffer's rule: mipLevel < mipLevelCount */
        return run_fail(r, STEX_VALIDATION_ERROR, path, "mipLevel %u: texture '%s' has %u mip "
                        "level%s", o->mip, o->texture, levels, levels == 1 ? "" : "s");
    stex_status st = stex_image_from_texture(t, o->mip, img);
    return st ? run_wrap(r, st, path) : STEX_OK;
}

static stex_status add_image(io_batch *b, const char *file, const stex_image *img,
                             const stex_io_meta *meta)
{
    switch (stex_file_kind_of(file)) {
    case STEX_FILE_BIN: return io_add_bin(b, file, img, meta);
    case STEX_FILE_NPY: return io_add_npy(b, file, img);
    default: return io_add_png(b, file, img);
    }
}

stex_status stex_run_write_outputs(stex_run *r)
{
    if (!r || !r->executed)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_write_outputs: run the file first "
                                                "(stex_run_execute)");
    stex_io_meta meta = {.kernel = r->name,
                         .profile = stex_profile_name(stex_profile_id_of(
                             r->dispatch.profile ? r->dispatch.profile : stex_device_profile(r->device))),
                         .schedule = stex_schedule_name(r->dispatch.schedule),
                         .seed = r->dispatch.seed, .has_seed = true};
    io_batch batch = {0};
    stex_status st = STEX_OK;
    for (size_t i = 0; !st && i < r->output_count; i++) {
        char p[RUN_PATH_MAX];
        run_path_index(p, "$.outputs", i);
        stex_image img = {0};
        st = output_image(r, &r->outputs[i], p, &img);
        for (size_t k = 0; !st && k < r->outputs[i].file_count; k++) {
            /* checked again: the folders may have changed since the parse */
            const run_output *o = &r->outputs[i];
            if ((st = run_check_path(r, o->names[k], o->files[k], p, true)))
                break;
            if ((st = add_image(&batch, o->files[k], &img, &meta)))
                st = run_wrap(r, st, p);
        }
        stex_image_free(&img);
    }
    if (st) {
        io_batch_abort(&batch);
        return st;
    }
    return io_batch_commit(&batch);
}

size_t stex_run_output_count(const stex_run *r) { return r ? r->output_path_count : 0; }

const char *stex_run_output_path(const stex_run *r, size_t i)
{
    return r && i < r->output_path_count ? r->output_paths[i] : NULL;
}

size_t stex_run_output_entry_count(const stex_run *r) { return r ? r->output_count : 0; }

stex_status stex_run_output_image(stex_run *r, size_t i, stex_image *out)
{
    if (!r || !out || i >= r->output_count)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_output_image: no output %zu", i);
    if (!r->device)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_output_image: run the file first "
                                                "(stex_run_execute)");
    char p[RUN_PATH_MAX];
    run_path_index(p, "$.outputs", i);
    memset(out, 0, sizeof *out);
    stex_status st = output_image(r, &r->outputs[i], p, out);
    if (st)
        stex_image_free(out);
    return st;
}
