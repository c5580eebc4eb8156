/* "pipelines": GPUComputePipelineDescriptor entries,
 *   {"layout": "auto" | {"bindGroupLayouts": [{"entries": [...]}, ...]},
 *    "compute": {"module", "entryPoint", "constants"}}.
 * A built-in kernel's module gives its C pipeline (an explicit layout must
 * hold every binding the kernel declares, with the same type); a WGSL
 * module goes to the compiler in stex_run_options. */
#include <stdlib.h>
#include <string.h>

#include "run/run_internal.h"

#define BAD STEX_FILE_FORMAT_ERROR

typedef struct pipeline_parts {
    bool layout_auto;
    stex_layout_entry *layout;
    uint32_t layout_count;
    stex_run_constant *constants;
    size_t constant_count;
    const char *entry_point;
    run_module *module;
} pipeline_parts;

static stex_status parse_layout(stex_run *r, const json_t *d, const char *path, pipeline_parts *pp)
{
    const json_t *l = json_object_get(d, "layout");
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "layout");
    if (!l)
        return run_fail(r, BAD, path, "missing member 'layout' (\"auto\" or {\"bindGroupLayouts\": [...]})");
    if (json_is_string(l) && !strcmp(json_string_value(l), "auto")) {
        pp->layout_auto = true;
        return STEX_OK;
    }
    static const char *const members[] = {"bindGroupLayouts", NULL};
    stex_status st;
    if ((st = run_want_object(r, l, p)) || (st = run_check_members(r, l, p, members)))
        return st;
    const json_t *groups = json_object_get(l, "bindGroupLayouts");
    char pg[RUN_PATH_MAX];
    run_path_key(pg, p, "bindGroupLayouts");
    if ((st = run_want_array(r, groups, pg)))
        return st;
    size_t g;
    json_t *bgl;
    json_array_foreach(groups, g, bgl) {
        static const char *const m[] = {"entries", "label", NULL};
        char pi[RUN_PATH_MAX], pe[RUN_PATH_MAX];
        run_path_index(pi, pg, g);
        run_path_key(pe, pi, "entries");
        if ((st = run_want_object(r, bgl, pi)) || (st = run_check_members(r, bgl, pi, m)) ||
            (st = run_layout_entries(r, json_object_get(bgl, "entries"), pe, (uint32_t)g,
                                     &pp->layout, &pp->layout_count)))
            return st;
    }
    return STEX_OK;
}

static stex_status parse_compute(stex_run *r, const json_t *d, const char *path, pipeline_parts *pp)
{
    static const char *const members[] = {"module", "entryPoint", "constants", NULL};
    const json_t *c = json_object_get(d, "compute");
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "compute");
    stex_status st;
    if (!c)
        return run_fail(r, BAD, path, "missing member 'compute'");
    if ((st = run_want_object(r, c, p)) || (st = run_check_members(r, c, p, members)) ||
        (st = run_get_ref(r, c, p, "module", &r->modules, "shader module", (void **)&pp->module)) ||
        (st = run_get_string(r, c, p, "entryPoint", false, &pp->entry_point)))
        return st;
    const json_t *k = json_object_get(c, "constants");
    if (!k)
        return STEX_OK;
    char pk[RUN_PATH_MAX];
    run_path_key(pk, p, "constants");
    if ((st = run_want_object(r, k, pk)))
        return st;
    if (!(pp->constants = calloc(json_object_size(k) + 1, sizeof *pp->constants)))
        return run_fail(r, STEX_OUT_OF_MEMORY, pk, "out of memory");
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)k, name, v) {
        double value = 0;
        if ((st = run_get_number(r, k, pk, name, &value)))
            return st;
        pp->constants[pp->constant_count++] = (stex_run_constant){name, value};
    }
    return STEX_OK;
}

static const char *type_name(stex_binding_type t)
{
    switch (t) {
    case STEX_BINDING_STORAGE_TEXTURE: return "storageTexture";
    case STEX_BINDING_TEXTURE: return "texture";
    case STEX_BINDING_SAMPLER: return "sampler";
    case STEX_BINDING_STORAGE_BUFFER: return "buffer (storage)";
    case STEX_BINDING_READ_ONLY_STORAGE_BUFFER: return "buffer (read-only-storage)";
    default: return "buffer (uniform)";
    }
}

/* Every binding the kernel declares must be in the explicit layout with the
 * same type (and, for storage textures, the same format and access). */
static stex_status check_layout(stex_run *r, const char *path, const stex_pipeline_desc *k,
                                const pipeline_parts *pp)
{
    for (uint32_t i = 0; i < k->entry_count; i++) {
        const stex_layout_entry *ke = &k->entries[i], *le = NULL;
        for (uint32_t j = 0; j < pp->layout_count && !le; j++)
            if (pp->layout[j].group == ke->group && pp->layout[j].binding == ke->binding)
                le = &pp->layout[j];
        if (!le)
            return run_fail(r, STEX_VALIDATION_ERROR, path, "the shader's @group(%u) @binding(%u) "
                            "(%s) is not in the layout", ke->group, ke->binding, type_name(ke->type));
        stex_access ka = ke->storage_texture.access ? ke->storage_texture.access : STEX_ACCESS_WRITE_ONLY;
        stex_access la = le->storage_texture.access ? le->storage_texture.access : STEX_ACCESS_WRITE_ONLY;
        if (le->type != ke->type ||
            (ke->type == STEX_BINDING_STORAGE_TEXTURE &&
             (le->storage_texture.format != ke->storage_texture.format || la != ka)))
            return run_fail(r, STEX_VALIDATION_ERROR, path, "the layout's @group(%u) @binding(%u) "
                            "is %s%s%s, but the shader declares %s%s%s", ke->group, ke->binding,
                            type_name(le->type), le->type == STEX_BINDING_STORAGE_TEXTURE ? " " : "",
                            le->type == STEX_BINDING_STORAGE_TEXTURE
                                ? stex_format_name(le->storage_texture.format) : "",
                            type_name(ke->type), ke->type == STEX_BINDING_STORAGE_TEXTURE ? " " : "",
                            ke->type == STEX_BINDING_STORAGE_TEXTURE
                                ? stex_format_name(ke->storage_texture.format) : "");
    }
    return STEX_OK;
}

static stex_status make_pipeline(stex_run *r, const char *name, const char *path,
                                 const pipeline_parts *pp, stex_pipeline **out)
{
    const run_module *m = pp->module;
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "compute");
    stex_status st;
    if (!m->kernel) {
        stex_run_shader s = {m->code, m->filename, pp->entry_point, pp->constants,
                             pp->constant_count, pp->layout_auto, pp->layout, pp->layout_count,
                             name};
        if (!r->opt.compile) /* stex's own WGSL front end */
            return run_wgsl_pipeline(r, (run_module *)(uintptr_t)m, &s, path, out);
        if (r->opt.allowed)
            return run_fail(r, STEX_INVALID_ARGUMENT, p, "allowed mode runs WGSL on stex's own "
                            "front end, not on the caller's compiler");
        return (st = r->opt.compile(r->opt.compile_user, r->device, &s, out)) ? run_wrap(r, st, path)
                                                                              : STEX_OK;
    }
    if (r->opt.allowed) /* its stores would keep no sets */
        return run_fail(r, STEX_INVALID_ARGUMENT, p, "allowed mode follows WGSL only: kernel %s's "
                        "C module has no sets to give (run its WGSL instead)", m->kernel->name);
    const stex_kernel_pass *pass = &m->kernel->passes[m->pass];
    if (pp->entry_point && strcmp(pp->entry_point, pass->entry_point))
        return run_fail(r, BAD, p, "entryPoint '%s': pass %u of kernel %s is '%s'", pp->entry_point,
                        m->pass, m->kernel->name, pass->entry_point);
    if (pp->constant_count)
        return run_fail(r, BAD, p, "constants: built-in kernels have no overridable constants");
    stex_pipeline_desc desc = pass->pipeline;
    desc.label = name;
    if (!pp->layout_auto) {
        char pl[RUN_PATH_MAX];
        run_path_key(pl, path, "layout");
        if ((st = check_layout(r, pl, &pass->pipeline, pp)))
            return st;
        desc.entries = pp->layout;
        desc.entry_count = pp->layout_count;
    }
    return (st = stex_pipeline_create(r->device, &desc, out)) ? run_wrap(r, st, path) : STEX_OK;
}

static stex_status create_one(stex_run *r, const char *name, const json_t *d, const char *path)
{
    static const char *const members[] = {"layout", "compute", "label", NULL};
    pipeline_parts pp = {0};
    stex_pipeline *pl = NULL;
    stex_status st;
    if (!(st = run_want_object(r, d, path)) && !(st = run_check_members(r, d, path, members)) &&
        !(st = parse_compute(r, d, path, &pp)) && !(st = parse_layout(r, d, path, &pp)) &&
        !(st = make_pipeline(r, name, path, &pp, &pl)) &&
        (st = run_table_add(&r->pipelines, name, pl)))
        stex_pipeline_destroy(pl);
    free(pp.layout);
    free(pp.constants);
    return st;
}

stex_status run_create_pipelines(stex_run *r)
{
    const char *name;
    json_t *d;
    json_object_foreach(json_object_get(r->root, "pipelines"), name, d) {
        char p[RUN_PATH_MAX];
        run_path_key(p, "$.pipelines", name);
        stex_status st = create_one(r, name, d, p);
        if (st)
            return st;
    }
    return STEX_OK;
}
