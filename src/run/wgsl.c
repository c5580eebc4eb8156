/* A run file's WGSL module through stex's own front end (src/wgsl): the
 * module is compiled once, on the first pipeline that names it, and lives
 * as long as the run (its pipelines keep pointers into it). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "run/run_internal.h"
#include "stex/wgsl.h"

static bool same_entry(const stex_layout_entry *a, const stex_layout_entry *b)
{
    if (a->group != b->group || a->binding != b->binding || a->type != b->type)
        return false;
    if (a->type == STEX_BINDING_STORAGE_TEXTURE)
        return a->storage_texture.format == b->storage_texture.format &&
               a->storage_texture.access == b->storage_texture.access;
    return true;
}

/* stex builds a WGSL pipeline's layout from the shader ('auto'); an explicit
 * layout is accepted when it declares exactly the bindings the shader uses. */
static stex_status check_layout(stex_run *r, const char *path, const stex_run_shader *s,
                                const stex_wgsl_entry_point *ep)
{
    for (uint32_t i = 0; i < ep->entry_count; i++) {
        bool found = false;
        for (uint32_t k = 0; k < s->layout_count && !found; k++)
            found = same_entry(&ep->entries[i], &s->layout[k]);
        if (!found)
            return run_fail(r, STEX_VALIDATION_ERROR, path, "the layout lacks @group(%u) "
                            "@binding(%u) ('%s') as the shader declares it",
                            ep->entries[i].group, ep->entries[i].binding, ep->binding_names[i]);
    }
    if (s->layout_count != ep->entry_count)
        return run_fail(r, STEX_VALIDATION_ERROR, path, "the layout has %u entries, the shader "
                        "uses %u: stex takes a WGSL pipeline's layout from its shader, so an "
                        "explicit layout must declare exactly those bindings (or say 'auto')",
                        s->layout_count, ep->entry_count);
    return STEX_OK;
}

stex_status run_wgsl_pipeline(stex_run *r, run_module *m, const stex_run_shader *s,
                              const char *path, stex_pipeline **out)
{
    if (!m->wgsl) {
        /* const-expressions as the profile's front end evaluates them */
        const stex_profile *prof = r->dispatch.profile ? r->dispatch.profile
                                                       : stex_device_profile(r->device);
        stex_status st = stex_wgsl_module_create_n(prof, m->code, m->code_len, m->filename,
                                                   &m->wgsl);
        if (st && !m->wgsl)
            return run_wrap(r, st, path);
        if (stex_wgsl_module_error_count(m->wgsl))
            return run_fail(r, STEX_VALIDATION_ERROR, path, "createShaderModule:\n%s",
                            stex_wgsl_module_diagnostics(m->wgsl));
    }
    const stex_wgsl_entry_point *ep = s->entry_point
                                          ? stex_wgsl_entry_point_find(m->wgsl, s->entry_point)
                                          : stex_wgsl_entry_point_count(m->wgsl) == 1
                                                ? stex_wgsl_entry_point_at(m->wgsl, 0) : NULL;
    if (!ep && s->entry_point)
        return run_fail(r, STEX_VALIDATION_ERROR, path, "the module has no @compute entry "
                        "point '%s'", s->entry_point);
    if (!ep)
        return run_fail(r, STEX_VALIDATION_ERROR, path, "the module has %u entry points: name "
                        "one in 'entryPoint'", stex_wgsl_entry_point_count(m->wgsl));
    stex_status st;
    if (!s->layout_auto && (st = check_layout(r, path, s, ep)))
        return st;
    stex_wgsl_override *ov = calloc(s->constant_count ? s->constant_count : 1, sizeof *ov);
    if (!ov)
        return run_fail(r, STEX_OUT_OF_MEMORY, path, "out of memory");
    for (size_t i = 0; i < s->constant_count; i++)
        ov[i] = (stex_wgsl_override){s->constants[i].name, s->constants[i].value};
    stex_wgsl_options o = {.subgroup_width = r->opt.subgroup_width,
                           .max_steps = r->opt.max_steps, .overrides = ov,
                           .executor = r->opt.executor,
                           .override_count = (uint32_t)s->constant_count,
                           .allowed = r->opt.allowed};
    if (!s->layout_auto) { /* its sample and sampler types are the pipeline's */
        o.layout = s->layout;
        o.layout_count = (uint32_t)s->layout_count;
    }
    st = stex_wgsl_pipeline_create(r->device, m->wgsl, ep->name, &o, out);
    free(ov);
    if (!st)
        return STEX_OK;
    /* a constant unknown, out of its type's range, or missing for an
     * override without a default: the error is the constants' */
    char pc[RUN_PATH_MAX], pk[RUN_PATH_MAX];
    run_path_key(pc, path, "compute");
    run_path_key(pk, pc, "constants");
    return run_wrap(r, st, strstr(stex_last_error(), "[pipeline-constants]") ? pk : path);
}
