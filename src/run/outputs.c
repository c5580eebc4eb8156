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
    for (const char *b = strchr(name, '{'); b; b = strchr(b + 1, '{'))
        if (strncmp(b, "{profile}", 9) && strncmp(b, "{seed}", 6))
            return run_fail(r, BAD, path, "'%s': unknown placeholder '%.*s' (an output's name "
                            "may hold {profile} and {seed})", name,
                            (int)(strchr(b, '}') ? strchr(b, '}') - b + 1 : (long)strlen(b)), b);
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
    stex_status st;
    if (r->opt.output_dir && name[0] != '/') { /* its name in the output folder */
        size_t n = strlen(r->opt.output_dir) + strlen(name) + 2;
        if (!(files[o->file_count] = malloc(n)))
            return run_fail(r, STEX_OUT_OF_MEMORY, path, "out of memory");
        snprintf(files[o->file_count], n, "%s/%s", r->opt.output_dir, name);
        if ((st = run_check_path(r, name, files[o->file_count], path, true))) {
            free(files[o->file_count]);
            return st;
        }
    } else {
        st = run_named_file(r, name, path, true, &files[o->file_count]);
    }
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
        if (r->outputs[i].allowed)
            stex_inputs_free(r->outputs[i].allowed);
        free(r->outputs[i].allowed);
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

/* The profile the run ran with (its options', else its device's). */
static const char *profile_name(const stex_run *r)
{
    return stex_profile_name(stex_profile_id_of(
        r->dispatch.profile ? r->dispatch.profile : stex_device_profile(r->device)));
}

/* `name` with {profile} and {seed} filled in (malloc'ed), NULL when out of
 * memory. */
static char *expand(const stex_run *r, const char *name)
{
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, r->dispatch.seed);
    const char *profile = profile_name(r);
    size_t n = strlen(name) + 1;
    for (const char *b = strchr(name, '{'); b; b = strchr(b + 1, '{'))
        n += strlen(profile) + strlen(seed);
    char *out = malloc(n), *w = out;
    for (const char *s = name; out && *s;) {
        const char *word = !strncmp(s, "{profile}", 9) ? profile
                           : !strncmp(s, "{seed}", 6)  ? seed
                                                       : NULL;
        if (word) {
            w += sprintf(w, "%s", word);
            s += word == profile ? 9 : 6;
        } else {
            *w++ = *s++;
        }
    }
    if (out)
        *w = '\0';
    return out;
}

/* record_allowed: the value last stored to each texel of an output texture's
 * level (one thread: the calls come in the order the stores land). */
static void record_store(void *user, const stex_texture_view *view, int64_t x, int64_t y,
                         int64_t z, const stex_vec4 *value)
{
    stex_run *r = user;
    if (r->user_dispatch.store_observer)
        r->user_dispatch.store_observer(r->user_dispatch.store_observer_user, view, x, y, z, value);
    const stex_view_desc *vd = stex_view_get_desc(view);
    for (size_t i = 0; i < r->output_count; i++) {
        run_output *o = &r->outputs[i];
        if (!o->allowed || vd->base_mip_level != o->mip ||
            stex_view_texture(view) != run_table_find(&r->textures, o->texture))
            continue;
        int64_t layer = z + vd->base_array_layer;
        if (x >= 0 && y >= 0 && layer >= 0 && x < o->allowed->width &&
            y < o->allowed->height && layer < o->allowed->depth)
            stex_inputs_set(o->allowed, (uint32_t)x, (uint32_t)y, (uint32_t)layer, value);
    }
}

static stex_status start_recording(stex_run *r)
{
    for (size_t i = 0; i < r->output_count; i++) {
        run_output *o = &r->outputs[i];
        stex_texture *t = o->texture ? run_table_find(&r->textures, o->texture) : NULL;
        if (!t || o->mip >= stex_texture_get_desc(t)->mip_level_count)
            continue; /* a buffer has no stores to record; a bad one fails at the write */
        stex_extent3d e = stex_texture_mip_size(t, o->mip);
        stex_status st = STEX_OUT_OF_MEMORY;
        if (!(o->allowed = calloc(1, sizeof *o->allowed)) ||
            (st = stex_inputs_init(o->allowed, stex_format_get(stex_texture_get_desc(t)->format)->scalar,
                                   e.width, e.height, e.depth_or_array_layers))) {
            free(o->allowed);
            o->allowed = NULL;
            char p[RUN_PATH_MAX];
            run_path_index(p, "$.outputs", i);
            return run_fail(r, st, p, "no memory to record the stores of texture '%s'",
                            o->texture);
        }
    }
    r->user_dispatch = r->dispatch;
    r->dispatch.store_observer = record_store;
    r->dispatch.store_observer_user = r;
    r->dispatch.threads = 1;
    return STEX_OK;
}

stex_status run_prepare_outputs(stex_run *r)
{
    for (size_t i = 0; i < r->output_count; i++) {
        run_output *o = &r->outputs[i];
        for (size_t k = 0; k < o->file_count; k++) {
            if (!strchr(o->names[k], '{'))
                continue;
            char *full = expand(r, o->files[k]);
            if (!full)
                return run_fail(r, STEX_OUT_OF_MEMORY, "$.outputs", "out of memory");
            free(o->files[k]);
            o->files[k] = full;
        }
    }
    for (size_t i = 0, j = 0; i < r->output_count; i++) /* the flat list, again */
        for (size_t k = 0; k < r->outputs[i].file_count; k++)
            r->output_paths[j++] = r->outputs[i].files[k];
    return r->opt.record_allowed ? start_recording(r) : STEX_OK;
}

/* Each texel as a scale x scale block (a .png to look at). */
static stex_status scaled(const stex_image *img, uint32_t scale, stex_image *out)
{
    if ((uint64_t)img->width * scale > 65536 || (uint64_t)img->height * scale > 65536)
        return stex_fail(STEX_INVALID_ARGUMENT, "a %ux%u picture at scale %u is larger than "
                         "65536 pixels a side", img->width, img->height, scale);
    stex_status st = stex_image_init(out, img->format, img->width * scale, img->height * scale,
                                     img->depth);
    uint32_t bytes = stex_format_get(img->format)->bytes;
    for (uint32_t z = 0; !st && z < out->depth; z++)
        for (uint32_t y = 0; y < out->height; y++)
            for (uint32_t x = 0; x < out->width; x++)
                memcpy(out->data + ((size_t)z * out->rows_per_image + y) * out->bytes_per_row +
                           (size_t)x * bytes,
                       img->data + ((size_t)z * img->rows_per_image + y / scale) *
                                       img->bytes_per_row + (size_t)(x / scale) * bytes,
                       bytes);
    return st;
}

static stex_status add_image(const stex_run *r, io_batch *b, const char *file,
                             const stex_image *img, const stex_io_meta *meta)
{
    switch (stex_file_kind_of(file)) {
    case STEX_FILE_BIN: return io_add_bin(b, file, img, meta);
    case STEX_FILE_NPY: return io_add_npy(b, file, img);
    default: break;
    }
    if (r->opt.png_scale <= 1)
        return io_add_png(b, file, img);
    stex_image big = {0};
    stex_status st = scaled(img, r->opt.png_scale, &big);
    if (!st)
        st = io_add_png(b, file, &big);
    stex_image_free(&big);
    return st;
}

/* The record with "output": i (malloc'ed JSON text); NULL without a
 * record, or out of memory (*st says which). */
static char *record_of(const stex_run *r, size_t i, stex_status *st)
{
    *st = STEX_OK;
    if (!r->record)
        return NULL;
    json_t *j = json_loads(r->record, JSON_DECODE_ANY, NULL);
    json_object_set_new(j, "output", json_integer((json_int_t)i));
    char *text = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(j);
    if (!text)
        *st = stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", r->name);
    return text;
}

stex_status stex_run_set_record(stex_run *r, const char *run_json)
{
    if (!r)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_set_record: run is NULL");
    json_t *j = run_json ? json_loads(run_json, 0, NULL) : NULL;
    bool ok = !run_json || json_is_object(j);
    json_decref(j);
    if (!ok)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_set_record: the record must be a JSON "
                                                "object");
    char *copy = run_json ? strdup(run_json) : NULL;
    if (run_json && !copy)
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_run_set_record: out of memory");
    free(r->record);
    r->record = copy;
    return STEX_OK;
}

size_t stex_run_input_count(const stex_run *r) { return r && r->inputs ? r->inputs->n : 0; }

const char *stex_run_input_path(const stex_run *r, size_t i)
{
    return i < stex_run_input_count(r) ? r->inputs->path[i] : NULL;
}

const char *stex_run_input_sha256(const stex_run *r, size_t i)
{
    return i < stex_run_input_count(r) ? r->inputs->sha[i] : NULL;
}

stex_status stex_run_write_outputs(stex_run *r)
{
    if (!r || !r->executed)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_write_outputs: run the file first "
                                                "(stex_run_execute)");
    stex_io_meta meta = {.kernel = r->name, .profile = profile_name(r),
                         .schedule = stex_schedule_name(r->dispatch.schedule),
                         .seed = r->dispatch.seed, .has_seed = true};
    io_batch batch = {0};
    stex_status st = STEX_OK;
    char *record = NULL;
    for (size_t i = 0; !st && i < r->output_count; i++) {
        char p[RUN_PATH_MAX];
        run_path_index(p, "$.outputs", i);
        stex_image img = {0};
        free(record);
        record = record_of(r, i, &st);
        meta.run_json = record;
        meta.inputs = r->outputs[i].allowed;
        stex_bounds bounds = {0};
        if (!st)
            st = output_image(r, &r->outputs[i], p, &img);
        /* allowed mode: X.bin.allowed beside each .bin of the output */
        if (!st && r->opt.allowed)
            st = run_output_bounds(r, &r->outputs[i], p, &img, &bounds);
        meta.bounds = r->opt.allowed ? &bounds : NULL;
        for (size_t k = 0; !st && k < r->outputs[i].file_count; k++) {
            /* checked again: the folders may have changed since the parse */
            const run_output *o = &r->outputs[i];
            if ((st = run_check_path(r, o->names[k], o->files[k], p, true)))
                break;
            if ((st = add_image(r, &batch, o->files[k], &img, &meta)))
                st = run_wrap(r, st, p);
        }
        stex_image_free(&img);
        stex_bounds_free(&bounds);
    }
    free(record);
    if (st) {
        io_batch_abort(&batch);
        return st;
    }
    return io_batch_commit(&batch);
}

stex_status stex_run_output_bounds(stex_run *r, size_t i, stex_bounds *out)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (!r || !out || !r->executed || !r->opt.allowed || i >= r->output_count)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_output_bounds: a run file executed "
                                                "with stex_run_options.allowed, and an output "
                                                "entry it has");
    char p[RUN_PATH_MAX];
    run_path_index(p, "$.outputs", i);
    stex_image img = {0};
    stex_status st = output_image(r, &r->outputs[i], p, &img);
    if (!st)
        st = run_output_bounds(r, &r->outputs[i], p, &img, out);
    stex_image_free(&img);
    return st;
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
