/* A run file's life: parse (the JSON and the outputs' files), execute
 * (create every resource, then the steps), look resources up, destroy. */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "io/io_internal.h"
#include "run/run_internal.h"

#define BAD STEX_FILE_FORMAT_ERROR

static const char *const SECTIONS[] = {"shaderModules", "textures", "buffers", "samplers",
                                       "views", "pipelines", "bindGroups", NULL};

/* "requiredFeatures": GPUDeviceDescriptor.requiredFeatures, the features the
 * program asks requestDevice for (GPUFeatureName strings). */
static stex_status parse_features(stex_run *r)
{
    const json_t *list = json_object_get(r->root, "requiredFeatures"), *v;
    size_t i;
    json_array_foreach(list, i, v) {
        char p[RUN_PATH_MAX];
        run_path_index(p, "$.requiredFeatures", i);
        stex_feature f;
        if (!json_is_string(v))
            return run_fail(r, BAD, p, "expected a GPUFeatureName string");
        if (!stex_feature_from_name(json_string_value(v), &f))
            return run_fail(r, BAD, p, "unknown GPUFeatureName \"%s\"", json_string_value(v));
        r->features |= (uint32_t)f;
    }
    return STEX_OK;
}

/* The top level: known members, each of the right JSON type. */
static stex_status check_top(stex_run *r)
{
    static const char *const members[] = {"description", "requiredFeatures", "shaderModules",
                                          "textures", "buffers", "samplers", "views", "pipelines",
                                          "bindGroups", "steps", "outputs", NULL};
    stex_status st;
    if ((st = run_want_object(r, r->root, "$")) || (st = run_check_members(r, r->root, "$", members)))
        return st;
    for (const char *const *s = SECTIONS; *s; s++) {
        const json_t *v = json_object_get(r->root, *s);
        char p[RUN_PATH_MAX];
        run_path_key(p, "$", *s);
        if (v && (st = run_want_object(r, v, p)))
            return st;
    }
    const char *lists[] = {"steps", "outputs", "requiredFeatures"};
    for (int i = 0; i < 3; i++) {
        const json_t *v = json_object_get(r->root, lists[i]);
        char p[RUN_PATH_MAX];
        run_path_key(p, "$", lists[i]);
        if (v && (st = run_want_array(r, v, p)))
            return st;
    }
    const char *d = NULL;
    if ((st = run_get_string(r, r->root, "$", "description", false, &d)))
        return st;
    return parse_features(r);
}

stex_status stex_run_parse(const char *json_text, const char *name, const char *base_dir,
                           const stex_run_options *opt, stex_run **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_parse: out is NULL");
    *out = NULL;
    if (!json_text)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_parse: no JSON text");
    stex_run *r = calloc(1, sizeof *r);
    if (!r || !(r->name = strdup(name ? name : "run file")) ||
        !(r->base_dir = strdup(base_dir ? base_dir : "."))) {
        stex_run_destroy(r);
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_run_parse: out of memory");
    }
    if (opt)
        r->opt = *opt;
    /* the allowed folders are the run's own copy (the caller's may go) */
    r->opt.allow_paths = NULL;
    size_t nallow = opt && opt->allow_paths ? opt->allow_path_count : 0;
    /* the output folder is one more allowed folder, the run's copy */
    bool out_dir = opt && opt->output_dir;
    r->opt.output_dir = NULL;
    if ((r->opt.record_inputs && !(r->inputs = calloc(1, sizeof *r->inputs))) ||
        ((nallow || out_dir) && !(r->allow = calloc(nallow + out_dir, sizeof *r->allow)))) {
        stex_run_destroy(r);
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_run_parse: out of memory");
    }
    for (size_t i = 0; i < nallow; i++, r->allow_count++)
        if (!opt->allow_paths[i] || !(r->allow[i] = strdup(opt->allow_paths[i]))) {
            stex_run_destroy(r);
            return opt->allow_paths[i]
                       ? stex_fail(STEX_OUT_OF_MEMORY, "stex_run_parse: out of memory")
                       : stex_fail(STEX_INVALID_ARGUMENT, "stex_run_parse: allow_paths[%zu] "
                                   "is NULL", i);
        }
    if (out_dir && !(r->allow[r->allow_count] = strdup(opt->output_dir))) {
        stex_run_destroy(r);
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_run_parse: out of memory");
    }
    if (out_dir)
        r->opt.output_dir = r->allow[r->allow_count++];
    json_error_t e;
    stex_status st = STEX_OK;
    if (!(r->root = json_loads(json_text, JSON_REJECT_DUPLICATES, &e)))
        st = stex_fail(BAD, "%s: line %d, column %d: malformed JSON: %s", r->name, e.line,
                       e.column, e.text);
    if (!st)
        st = check_top(r);
    if (!st)
        st = run_parse_outputs(r);
    if (st) {
        stex_run_destroy(r);
        return st;
    }
    *out = r;
    return STEX_OK;
}

stex_status stex_run_load(const char *path, const stex_run_options *opt, stex_run **out)
{
    if (!out || !path)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_load: path and out must not be NULL");
    *out = NULL;
    uint8_t *bytes;
    size_t n;
    stex_status st = io_read_file(path, &bytes, &n, 64u << 20);
    if (st)
        return st;
    char *text = malloc(n + 1), *copy = strdup(path);
    if (!text || !copy) {
        free(bytes), free(text), free(copy);
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_run_load: out of memory");
    }
    memcpy(text, bytes, n);
    text[n] = '\0';
    free(bytes);
    if (memchr(text, '\0', n))
        st = stex_fail(BAD, "%s: not a JSON text (it holds a NUL byte)", path);
    else
        st = stex_run_parse(text, path, dirname(copy), opt, out);
    free(text);
    free(copy);
    return st;
}

uint32_t stex_run_required_features(const stex_run *r)
{
    return r ? r->features : 0;
}

stex_status stex_run_request_device(const stex_run *r, stex_adapter *a, stex_device **out)
{
    if (!r || !a || !out)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "stex_run_request_device: run, adapter and out must not be NULL");
    stex_device_desc dd = {.required_features = r->features};
    stex_status st = stex_device_create(a, &dd, out);
    return st ? run_wrap(r, st, "$.requiredFeatures") : STEX_OK;
}

stex_status stex_run_execute(stex_run *r, stex_device *d, const stex_dispatch_options *opt)
{
    if (!r || !d)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_run_execute: run and device must not be NULL");
    if (r->executed || r->device)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: stex_run_execute: a run file runs once; "
                         "load it again to run it again", r->name);
    r->device = d;
    if (opt)
        r->dispatch = *opt;
    stex_status st;
    if ((st = run_create_modules(r)) || (st = run_create_textures(r)) ||
        (st = run_create_buffers(r)) || (st = run_create_samplers(r)) ||
        (st = run_create_views(r)) || (st = run_create_pipelines(r)) ||
        (st = run_create_bind_groups(r)) || (st = run_prepare_outputs(r)) ||
        (st = run_steps(r)))
        return st;
    r->executed = true;
    return STEX_OK;
}

void stex_run_destroy(stex_run *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->groups.n; i++)
        stex_bind_group_destroy(r->groups.items[i]);
    for (size_t i = 0; i < r->pipelines.n; i++)
        stex_pipeline_destroy(r->pipelines.items[i]);
    for (size_t i = 0; i < r->views.n; i++)
        stex_texture_view_destroy(r->views.items[i]);
    for (size_t i = 0; i < r->samplers.n; i++)
        stex_sampler_destroy(r->samplers.items[i]);
    for (size_t i = 0; i < r->buffers.n; i++)
        stex_buffer_destroy(r->buffers.items[i]);
    for (size_t i = 0; i < r->textures.n; i++)
        stex_texture_destroy(r->textures.items[i]);
    run_table *tables[] = {&r->groups, &r->pipelines, &r->views, &r->samplers, &r->buffers,
                           &r->textures};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        run_table_free(tables[i]);
    run_free_modules(r);
    run_free_outputs(r);
    json_decref(r->root);
    free(r->name);
    free(r->base_dir);
    for (size_t i = 0; i < r->allow_count; i++)
        free(r->allow[i]);
    free(r->allow);
    if (r->inputs) {
        for (size_t i = 0; i < r->inputs->n; i++)
            free(r->inputs->path[i]);
        free(r->inputs->path);
        free(r->inputs->sha);
        free(r->inputs);
    }
    free(r->record);
    free(r->dispatch_steps);
    free(r);
}

stex_texture *stex_run_texture(const stex_run *r, const char *name)
{
    return r ? run_table_find(&r->textures, name) : NULL;
}
stex_buffer *stex_run_buffer(const stex_run *r, const char *name)
{
    return r ? run_table_find(&r->buffers, name) : NULL;
}
stex_texture_view *stex_run_view(const stex_run *r, const char *name)
{
    return r ? run_table_find(&r->views, name) : NULL;
}
stex_sampler *stex_run_sampler(const stex_run *r, const char *name)
{
    return r ? run_table_find(&r->samplers, name) : NULL;
}
stex_pipeline *stex_run_pipeline(const stex_run *r, const char *name)
{
    return r ? run_table_find(&r->pipelines, name) : NULL;
}
stex_bind_group *stex_run_bind_group(const stex_run *r, const char *name)
{
    return r ? run_table_find(&r->groups, name) : NULL;
}
uint64_t stex_run_dispatch_count(const stex_run *r) { return r ? r->dispatches : 0; }
