/* "buffers": GPUBufferDescriptor entries and their initial contents, put in
 * place as mappedAtCreation would (no COPY_DST needed). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "run/names.h"
#include "run/run_internal.h"

#define BAD STEX_FILE_FORMAT_ERROR

static stex_status contents(stex_run *r, stex_buffer *b, const json_t *c, const char *path)
{
    static const char *const members[] = {"file", "hex", "u32", "i32", "f32", "offset", NULL};
    uint64_t offset = 0;
    uint8_t *bytes;
    size_t size;
    stex_status st;
    if ((st = run_want_object(r, c, path)) || (st = run_check_members(r, c, path, members)) ||
        (st = run_get_u64(r, c, path, "offset", false, &offset)) ||
        (st = run_data(r, c, path, &bytes, &size)))
        return st;
    uint64_t total = stex_buffer_size(b);
    if (offset > total || size > total - offset)
        st = run_fail(r, BAD, path, "offset %" PRIu64 " + %zu bytes of contents exceed the "
                      "buffer's size %" PRIu64, offset, size, total);
    else if (size)
        memcpy(stex_buffer_data(b) + offset, bytes, size);
    free(bytes);
    return st;
}

static stex_status create_one(stex_run *r, const char *name, const json_t *d, const char *path)
{
    static const char *const members[] = {"size", "usage", "mappedAtCreation", "label",
                                          "contents", NULL};
    stex_buffer_desc bd = {.label = name};
    bool mapped = false;
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_u64(r, d, path, "size", true, &bd.size)) ||
        (st = run_get_bool(r, d, path, "mappedAtCreation", &mapped)) ||
        (st = run_get_flags(r, d, path, "usage", "GPUBufferUsage", RUN_BUFFER_USAGES,
                            RUN_BUFFER_USAGE_BITS, &bd.usage)))
        return st;
    if (!json_object_get(d, "usage"))
        return run_fail(r, BAD, path, "missing member 'usage'");
    stex_buffer *b;
    /* maxBufferSize first (a validation error), then the run's memory */
    if ((st = stex_buffer_create(r->device, &(stex_buffer_desc){.size = 0, .usage = bd.usage}, &b)))
        return run_wrap(r, st, path);
    stex_buffer_destroy(b);
    if (bd.size > stex_device_limits(r->device)->max_buffer_size)
        return run_wrap(r, stex_buffer_create(r->device, &bd, &b), path);
    if ((st = run_reserve_memory(r, bd.size, path, "createBuffer")))
        return st;
    if ((st = stex_buffer_create(r->device, &bd, &b)))
        return run_wrap(r, st, path);
    if ((st = run_table_add(&r->buffers, name, b))) {
        stex_buffer_destroy(b);
        return st;
    }
    const json_t *c = json_object_get(d, "contents");
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "contents");
    return c ? contents(r, b, c, p) : STEX_OK;
}

stex_status run_create_buffers(stex_run *r)
{
    const char *name;
    json_t *d;
    json_object_foreach(json_object_get(r->root, "buffers"), name, d) {
        char p[RUN_PATH_MAX];
        run_path_key(p, "$.buffers", name);
        stex_status st = create_one(r, name, d, p);
        if (st)
            return st;
    }
    return STEX_OK;
}
