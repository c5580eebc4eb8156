/* "bindGroups": GPUBindGroupDescriptor entries,
 *   {"layout": {"pipeline": "p", "group": 0}   (p.getBindGroupLayout(0)),
 *    "entries": [{"binding": 0, "resource": "viewOrSampler" |
 *                 {"buffer": "b", "offset": 0, "size": 64}}]}. */
#include <stdlib.h>

#include "run/run_internal.h"

#define BAD STEX_FILE_FORMAT_ERROR

static stex_status resource(stex_run *r, const json_t *e, const char *path, stex_bind_group_entry *x)
{
    const json_t *res = json_object_get(e, "resource");
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "resource");
    if (!res)
        return run_fail(r, BAD, path, "missing member 'resource'");
    if (json_is_string(res)) {
        const char *name = json_string_value(res);
        x->view = run_table_find(&r->views, name);
        x->sampler = run_table_find(&r->samplers, name);
        if (x->view && x->sampler)
            return run_fail(r, BAD, p, "'%s' names both a view and a sampler", name);
        if (!x->view && !x->sampler)
            return run_fail(r, BAD, p, "'%s' is not a declared view or sampler (a buffer "
                                       "binding is {\"buffer\": NAME})", name);
        return STEX_OK;
    }
    static const char *const members[] = {"buffer", "offset", "size", NULL};
    stex_status st;
    if ((st = run_want_object(r, res, p)) || (st = run_check_members(r, res, p, members)) ||
        (st = run_get_ref(r, res, p, "buffer", &r->buffers, "buffer", (void **)&x->buffer)) ||
        (st = run_get_u64(r, res, p, "offset", false, &x->offset)))
        return st;
    return run_get_u64(r, res, p, "size", false, &x->size);
}

static stex_status create_one(stex_run *r, const char *name, const json_t *d, const char *path)
{
    static const char *const members[] = {"layout", "entries", "label", NULL};
    static const char *const layout_members[] = {"pipeline", "group", NULL};
    const json_t *layout = json_object_get(d, "layout"), *entries = json_object_get(d, "entries");
    char pl[RUN_PATH_MAX], pe[RUN_PATH_MAX];
    run_path_key(pl, path, "layout");
    run_path_key(pe, path, "entries");
    stex_pipeline *pipe;
    uint32_t group = 0;
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_want_object(r, layout, pl)) ||
        (st = run_check_members(r, layout, pl, layout_members)) ||
        (st = run_get_ref(r, layout, pl, "pipeline", &r->pipelines, "pipeline", (void **)&pipe)) ||
        (st = run_get_u32(r, layout, pl, "group", false, &group)) ||
        (st = run_want_array(r, entries, pe)))
        return st;
    size_t n = json_array_size(entries), i;
    stex_bind_group_entry *x = calloc(n + 1, sizeof *x);
    if (!x)
        return run_fail(r, STEX_OUT_OF_MEMORY, pe, "out of memory");
    json_t *e;
    json_array_foreach(entries, i, e) {
        static const char *const m[] = {"binding", "resource", NULL};
        char p[RUN_PATH_MAX];
        run_path_index(p, pe, i);
        if ((st = run_want_object(r, e, p)) || (st = run_check_members(r, e, p, m)) ||
            (st = run_get_u32(r, e, p, "binding", true, &x[i].binding)) ||
            (st = resource(r, e, p, &x[i])))
            break;
    }
    stex_bind_group *g = NULL;
    if (!st && (st = stex_bind_group_create_in_group(pipe, group, x, (uint32_t)n, &g)))
        st = run_wrap(r, st, path);
    free(x);
    if (!st && (st = run_table_add(&r->groups, name, g)))
        stex_bind_group_destroy(g);
    return st;
}

stex_status run_create_bind_groups(stex_run *r)
{
    const char *name;
    json_t *d;
    json_object_foreach(json_object_get(r->root, "bindGroups"), name, d) {
        char p[RUN_PATH_MAX];
        run_path_key(p, "$.bindGroups", name);
        stex_status st = create_one(r, name, d, p);
        if (st)
            return st;
    }
    return STEX_OK;
}
