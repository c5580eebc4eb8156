/* Which resource a dispatch bound where: the dispatch steps as they ran,
 * so that a race (numbered by dispatch, placed by @group/@binding) can be
 * told to be on an output or elsewhere (stex_run_bound_resource). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "run/run_internal.h"
#include "stex/shader.h"

stex_status run_note_dispatch(stex_run *r, const json_t *step)
{
    if (r->dispatches == r->dispatch_step_cap) {
        size_t cap = r->dispatch_step_cap ? 2 * r->dispatch_step_cap : 16;
        const json_t **p = realloc(r->dispatch_steps, cap * sizeof *p);
        if (!p)
            return stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", r->name);
        r->dispatch_steps = p;
        r->dispatch_step_cap = cap;
    }
    r->dispatch_steps[r->dispatches] = step;
    return STEX_OK;
}

/* The texture or buffer name that bind group `group` gives `binding`
 * ("" when none), from the run file's JSON. */
static const char *resource_at(const stex_run *r, const char *group, uint32_t binding,
                               bool *is_buffer)
{
    const json_t *entries = json_object_get(
        json_object_get(json_object_get(r->root, "bindGroups"), group), "entries");
    size_t i;
    const json_t *e;
    json_array_foreach(entries, i, e) {
        if (json_integer_value(json_object_get(e, "binding")) != (json_int_t)binding)
            continue;
        const json_t *res = json_object_get(e, "resource");
        if (json_is_string(res)) { /* a view: its texture */
            *is_buffer = false;
            const json_t *v = json_object_get(json_object_get(r->root, "views"),
                                              json_string_value(res));
            const char *t = json_string_value(json_object_get(v, "texture"));
            return t ? t : "";
        }
        *is_buffer = true;
        const char *b = json_string_value(json_object_get(res, "buffer"));
        return b ? b : "";
    }
    return "";
}

const char *stex_run_bound_resource(const stex_run *r, uint64_t dispatch, uint32_t binding,
                                    bool *is_buffer)
{
    if (!r || !is_buffer || dispatch >= r->dispatches)
        return NULL;
    const json_t *list = json_object_get(r->dispatch_steps[dispatch], "bindGroups");
    const json_t *g = json_array_get(list, STEX_BINDING_GROUP(binding));
    const char *group = json_is_string(g) ? json_string_value(g)
                                          : json_string_value(json_object_get(g, "group"));
    if (!group)
        return NULL;
    const char *name = resource_at(r, group, STEX_BINDING_NUMBER(binding), is_buffer);
    return *name ? name : NULL;
}

const char *stex_run_output_resource(const stex_run *r, size_t i, bool *is_buffer)
{
    if (!r || !is_buffer || i >= r->output_count)
        return NULL;
    *is_buffer = r->outputs[i].buffer != NULL;
    return *is_buffer ? r->outputs[i].buffer : r->outputs[i].texture;
}
