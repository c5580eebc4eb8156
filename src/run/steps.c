/* "steps": the commands, in order, each {"<command>": {...}} with the
 * members of its WebGPU call: dispatchWorkgroups, writeBuffer,
 * writeTexture, copyBufferToBuffer, copyBufferToTexture,
 * copyTextureToBuffer, clearBuffer. */
#include <stdlib.h>
#include <string.h>

#include "run/run_internal.h"
#include "wgsl/interp_ival.h"

#define BAD STEX_FILE_FORMAT_ERROR

/* Allowed mode: a step may not touch a resource holding sets (the sets
 * would not follow the bytes). */
static stex_status no_sets(stex_run *r, const void *res, const char *path)
{
    if (!r->opt.allowed || !res || !ival_holds(r->opt.allowed, res))
        return STEX_OK;
    return run_fail(r, STEX_INVALID_ARGUMENT, path, "allowed mode: an earlier dispatch stored "
                    "sets of values in this resource, and stex does not carry them through "
                    "copies, writes or clears");
}

/* GPUTexelCopyTextureInfo: {"texture", "mipLevel", "origin": [x, y, z]}. */
static stex_status texture_info(stex_run *r, const json_t *d, const char *path, stex_copy_texture *t)
{
    static const char *const members[] = {"texture", "mipLevel", "origin", "aspect", NULL};
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_ref(r, d, path, "texture", &r->textures, "texture", (void **)&t->texture)) ||
        (st = run_get_u32(r, d, path, "mipLevel", false, &t->mip_level)))
        return st;
    const json_t *o = json_object_get(d, "origin");
    if (!o)
        return STEX_OK;
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "origin");
    size_t n = json_is_array(o) ? json_array_size(o) : 0;
    if (n < 1 || n > 3)
        return run_fail(r, BAD, p, "expected [x, y, z] (1 to 3 whole numbers)");
    for (size_t i = 0; i < n; i++) {
        json_int_t v = json_integer_value(json_array_get(o, i));
        if (!json_is_integer(json_array_get(o, i)) || v < 0 || v > UINT32_MAX)
            return run_fail(r, BAD, p, "expected [x, y, z] (whole numbers >= 0)");
        t->origin[i] = (uint32_t)v;
    }
    return STEX_OK;
}

/* GPUTexelCopyBufferLayout members of d: offset, bytesPerRow, rowsPerImage. */
static stex_status buffer_layout(stex_run *r, const json_t *d, const char *path, stex_copy_layout *l)
{
    stex_status st;
    if ((st = run_get_u64(r, d, path, "offset", false, &l->offset)) ||
        (st = run_get_u32(r, d, path, "bytesPerRow", false, &l->bytes_per_row)))
        return st;
    return run_get_u32(r, d, path, "rowsPerImage", false, &l->rows_per_image);
}

static stex_status buffer_info(stex_run *r, const json_t *d, const char *path, stex_buffer **b,
                               stex_copy_layout *l)
{
    static const char *const members[] = {"buffer", "offset", "bytesPerRow", "rowsPerImage", NULL};
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_ref(r, d, path, "buffer", &r->buffers, "buffer", (void **)b)))
        return st;
    return buffer_layout(r, d, path, l);
}

/* setBindGroup(i, ...) for each entry of "bindGroups": a name, null, or
 * {"group": name, "dynamicOffsets": [...]}. */
static stex_status bound_groups(stex_run *r, const json_t *list, const char *path,
                                stex_bound_group *g, uint32_t offsets[4][16], uint32_t *count)
{
    stex_status st = run_want_array(r, list, path);
    if (st)
        return st;
    if (json_array_size(list) > 4)
        return run_fail(r, STEX_VALIDATION_ERROR, path, "%zu bind groups: at most maxBindGroups "
                        "(%u)", json_array_size(list), 4u);
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        char p[RUN_PATH_MAX];
        run_path_index(p, path, i);
        if (json_is_null(e))
            continue;
        if (json_is_string(e)) {
            if (!(g[i].group = run_table_find(&r->groups, json_string_value(e))))
                return run_fail(r, BAD, p, "bind group '%s' is not declared", json_string_value(e));
            continue;
        }
        static const char *const m[] = {"group", "dynamicOffsets", NULL};
        if ((st = run_want_object(r, e, p)) || (st = run_check_members(r, e, p, m)) ||
            (st = run_get_ref(r, e, p, "group", &r->groups, "bind group", (void **)&g[i].group)))
            return st;
        const json_t *d = json_object_get(e, "dynamicOffsets");
        char pd[RUN_PATH_MAX];
        run_path_key(pd, p, "dynamicOffsets");
        if (d && ((st = run_want_array(r, d, pd))))
            return st;
        if (d && json_array_size(d) > 16)
            return run_fail(r, BAD, pd, "at most 16 dynamic offsets");
        for (size_t k = 0; d && k < json_array_size(d); k++) {
            json_int_t v = json_integer_value(json_array_get(d, k));
            if (!json_is_integer(json_array_get(d, k)) || v < 0 || v > UINT32_MAX)
                return run_fail(r, BAD, pd, "expected whole numbers in [0, 2^32)");
            offsets[i][k] = (uint32_t)v;
        }
        g[i].dynamic_offsets = offsets[i];
        g[i].dynamic_offset_count = d ? (uint32_t)json_array_size(d) : 0;
    }
    *count = (uint32_t)json_array_size(list);
    return STEX_OK;
}

static stex_status dispatch(stex_run *r, const json_t *d, const char *path)
{
    static const char *const members[] = {"pipeline", "bindGroups", "workgroupCount", "repeat", NULL};
    stex_pipeline *pl;
    stex_bound_group g[4] = {{0}};
    uint32_t offsets[4][16], count = 0, wg[3], repeat = 1;
    char pb[RUN_PATH_MAX];
    run_path_key(pb, path, "bindGroups");
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_ref(r, d, path, "pipeline", &r->pipelines, "pipeline", (void **)&pl)) ||
        (st = run_get_extent(r, d, path, "workgroupCount", true, wg)) ||
        (st = run_get_u32(r, d, path, "repeat", false, &repeat)) ||
        (json_object_get(d, "bindGroups") &&
         (st = bound_groups(r, json_object_get(d, "bindGroups"), pb, g, offsets, &count))))
        return st;
    for (uint32_t i = 0; i < repeat; i++) {
        if ((st = run_note_dispatch(r, d)))
            return st;
        if ((st = stex_dispatch_bound(pl, g, count, wg[0], wg[1], wg[2], &r->dispatch)))
            return run_wrap(r, st, path);
        if (++r->dispatches, r->opt.progress)
            r->opt.progress(r->opt.progress_user, r->dispatches, r->planned);
    }
    return STEX_OK;
}

/* The dispatches the steps hold (each repeat counts), for the progress. */
static uint64_t planned(const json_t *steps)
{
    uint64_t n = 0;
    size_t i;
    json_t *s;
    json_array_foreach(steps, i, s) {
        const json_t *d = json_object_get(s, "dispatchWorkgroups");
        const json_t *rep = json_object_get(d, "repeat");
        if (d)
            n += json_is_integer(rep) && json_integer_value(rep) >= 0
                     ? (uint64_t)json_integer_value(rep) : 1;
    }
    return n;
}

static stex_status write_buffer(stex_run *r, const json_t *d, const char *path)
{
    static const char *const members[] = {"buffer", "bufferOffset", "data", NULL};
    stex_buffer *b;
    uint64_t offset = 0;
    uint8_t *bytes;
    size_t size;
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "data");
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_ref(r, d, path, "buffer", &r->buffers, "buffer", (void **)&b)) ||
        (st = run_get_u64(r, d, path, "bufferOffset", false, &offset)) ||
        (st = run_want_object(r, json_object_get(d, "data"), p)) ||
        (st = run_data(r, json_object_get(d, "data"), p, &bytes, &size)))
        return st;
    if ((st = no_sets(r, b, path))) {
        free(bytes);
        return st;
    }
    st = stex_queue_write_buffer(b, offset, bytes, size);
    free(bytes);
    return st ? run_wrap(r, st, path) : STEX_OK;
}

static stex_status write_texture(stex_run *r, const json_t *d, const char *path)
{
    static const char *const members[] = {"destination", "data", "dataLayout", "size", NULL};
    stex_copy_texture dst = {0};
    stex_copy_layout layout = {0};
    uint32_t size[3];
    uint8_t *bytes;
    size_t n;
    char pd[RUN_PATH_MAX], pdata[RUN_PATH_MAX], pl[RUN_PATH_MAX];
    run_path_key(pd, path, "destination");
    run_path_key(pdata, path, "data");
    run_path_key(pl, path, "dataLayout");
    const json_t *l = json_object_get(d, "dataLayout");
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = texture_info(r, json_object_get(d, "destination"), pd, &dst)) ||
        (st = run_get_extent(r, d, path, "size", true, size)) ||
        (l && ((st = run_want_object(r, l, pl)) || (st = buffer_layout(r, l, pl, &layout)))) ||
        (st = run_want_object(r, json_object_get(d, "data"), pdata)) ||
        (st = run_data(r, json_object_get(d, "data"), pdata, &bytes, &n)))
        return st;
    if ((st = no_sets(r, dst.texture, path))) {
        free(bytes);
        return st;
    }
    st = stex_queue_write_texture(&dst, bytes, n, &layout, (stex_extent3d){size[0], size[1], size[2]});
    free(bytes);
    return st ? run_wrap(r, st, path) : STEX_OK;
}

static stex_status copy_b2b(stex_run *r, const json_t *d, const char *path)
{
    static const char *const members[] = {"source", "sourceOffset", "destination",
                                          "destinationOffset", "size", NULL};
    stex_buffer *src, *dst;
    uint64_t so = 0, doff = 0, size = 0;
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_ref(r, d, path, "source", &r->buffers, "buffer", (void **)&src)) ||
        (st = run_get_ref(r, d, path, "destination", &r->buffers, "buffer", (void **)&dst)) ||
        (st = run_get_u64(r, d, path, "sourceOffset", false, &so)) ||
        (st = run_get_u64(r, d, path, "destinationOffset", false, &doff)) ||
        (st = run_get_u64(r, d, path, "size", true, &size)))
        return st;
    if ((st = no_sets(r, src, path)) || (st = no_sets(r, dst, path)))
        return st;
    return (st = stex_copy_buffer_to_buffer(src, so, dst, doff, size)) ? run_wrap(r, st, path) : STEX_OK;
}

static stex_status copy_with_texture(stex_run *r, const json_t *d, const char *path, bool to_texture)
{
    static const char *const members[] = {"source", "destination", "copySize", NULL};
    stex_copy_texture t = {0};
    stex_copy_layout l = {0};
    stex_buffer *b;
    uint32_t size[3];
    char ps[RUN_PATH_MAX], pd[RUN_PATH_MAX];
    run_path_key(ps, path, "source");
    run_path_key(pd, path, "destination");
    const json_t *bj = json_object_get(d, to_texture ? "source" : "destination");
    const json_t *tj = json_object_get(d, to_texture ? "destination" : "source");
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = buffer_info(r, bj, to_texture ? ps : pd, &b, &l)) ||
        (st = texture_info(r, tj, to_texture ? pd : ps, &t)) ||
        (st = run_get_extent(r, d, path, "copySize", true, size)))
        return st;
    if ((st = no_sets(r, b, path)) || (st = no_sets(r, t.texture, path)))
        return st;
    stex_extent3d e = {size[0], size[1], size[2]};
    st = to_texture ? stex_copy_buffer_to_texture(b, &l, &t, e) : stex_copy_texture_to_buffer(&t, b, &l, e);
    return st ? run_wrap(r, st, path) : STEX_OK;
}

static stex_status clear_buffer(stex_run *r, const json_t *d, const char *path)
{
    static const char *const members[] = {"buffer", "offset", "size", NULL};
    stex_buffer *b;
    uint64_t offset = 0, size = UINT64_MAX;
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_ref(r, d, path, "buffer", &r->buffers, "buffer", (void **)&b)) ||
        (st = run_get_u64(r, d, path, "offset", false, &offset)) ||
        (st = run_get_u64(r, d, path, "size", false, &size)))
        return st;
    if ((st = no_sets(r, b, path)))
        return st;
    return (st = stex_clear_buffer(b, offset, size)) ? run_wrap(r, st, path) : STEX_OK;
}

stex_status run_steps(stex_run *r)
{
    static const char *const commands[] = {"dispatchWorkgroups", "writeBuffer", "writeTexture",
                                           "copyBufferToBuffer", "copyBufferToTexture",
                                           "copyTextureToBuffer", "clearBuffer", NULL};
    const json_t *steps = json_object_get(r->root, "steps");
    size_t i;
    json_t *s;
    r->planned = planned(steps);
    if (r->opt.progress)
        r->opt.progress(r->opt.progress_user, r->dispatches, r->planned);
    json_array_foreach(steps, i, s) {
        char p[RUN_PATH_MAX], pc[RUN_PATH_MAX];
        run_path_index(p, "$.steps", i);
        stex_status st;
        if ((st = run_want_object(r, s, p)) || (st = run_check_members(r, s, p, commands)))
            return st;
        if (json_object_size(s) != 1)
            return run_fail(r, BAD, p, "expected one command, {\"dispatchWorkgroups\": {...}} "
                            "or another, found %zu", json_object_size(s));
        const char *cmd = json_object_iter_key(json_object_iter(s));
        const json_t *d = json_object_get(s, cmd);
        run_path_key(pc, p, cmd);
        if (r->opt.before_step && (st = r->opt.before_step(r->opt.step_user, r, i)))
            return st;
        if (stex_cancel_check(r->dispatch.cancel)) { /* stopped between steps too */
            char where[RUN_PATH_MAX + 256];
            snprintf(where, sizeof where, "%s: %s", r->name, pc);
            return stex_cancel_fail(r->dispatch.cancel, where);
        }
        st = !strcmp(cmd, "dispatchWorkgroups")    ? dispatch(r, d, pc)
             : !strcmp(cmd, "writeBuffer")         ? write_buffer(r, d, pc)
             : !strcmp(cmd, "writeTexture")        ? write_texture(r, d, pc)
             : !strcmp(cmd, "copyBufferToBuffer")  ? copy_b2b(r, d, pc)
             : !strcmp(cmd, "copyBufferToTexture") ? copy_with_texture(r, d, pc, true)
             : !strcmp(cmd, "copyTextureToBuffer") ? copy_with_texture(r, d, pc, false)
                                                   : clear_buffer(r, d, pc);
        if (!st && r->opt.after_step)
            st = r->opt.after_step(r->opt.step_user, r, i);
        if (st)
            return st;
    }
    return STEX_OK;
}
