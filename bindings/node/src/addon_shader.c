/*
 * bindings/node/src/addon_shader.c - shader modules, compute pipelines,
 * bind groups and dispatches behind N-API.
 */
#include "addon.h"
#include "run/names.h" /* WebGPU's enum spellings, as run files read them */

#include <stdlib.h>
#include <string.h>

/* A string argument, malloc'ed; NULL (with a TypeError) when not a string. */
static char *string_arg(napi_env env, napi_value v, const char *what)
{
    size_t n;
    napi_valuetype t;
    if (napi_typeof(env, v, &t) != napi_ok || t != napi_string ||
        napi_get_value_string_utf8(env, v, NULL, 0, &n) != napi_ok) {
        addon_throw_type(env, "%s: not a string", what);
        return NULL;
    }
    char *s = malloc(n + 1);
    if (!s) {
        napi_throw_error(env, "out of memory", "stex: out of memory");
        return NULL;
    }
    napi_get_value_string_utf8(env, v, s, n + 1, &n);
    return s;
}

/* The diagnostics of code (n bytes) that holds a U+0000 (at its first one),
 * in the front end's form, or NULL when it holds none: WGSL text is made of
 * tokens and blankspace, and U+0000 is neither (the C front end would end
 * the text there, quietly dropping the rest). */
static char *nul_diagnostics(const char *code, size_t n, const char *file)
{
    const char *z = memchr(code, 0, n);
    if (!z)
        return NULL;
    size_t line = 1, col = 1;
    for (const char *p = code; p < z; p++) {
        if (*p == '\n')
            line++, col = 1;
        else if ((*p & 0xc0) != 0x80) /* code points, not UTF-8 bytes */
            col++;
    }
    char *d = malloc(strlen(file) + 160);
    if (d)
        sprintf(d, "%s:%zu:%zu: error: invalid character U+0000 (NUL): WGSL text is tokens and "
                   "blankspace only [wgsl: parsing]\n", file, line, col);
    return d;
}

/* moduleCreate(device, code, filename) -> {module, diagnostics, errors}: the
 * module is returned even with errors (its compilation info holds them); its
 * const-expressions are evaluated as the device's profile's front end does. */
static napi_value module_create(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(3);
    addon_handle *dev = addon_unwrap(env, argv[0], ADDON_DEVICE, "createShaderModule");
    if (!dev)
        return NULL;
    char *code = string_arg(env, argv[1], "code");
    if (!code)
        return NULL;
    char file[256] = "shader.wgsl";
    size_t len;
    napi_valuetype t;
    napi_typeof(env, argv[2], &t);
    if (t == napi_string)
        napi_get_value_string_utf8(env, argv[2], file, sizeof file, &len);
    napi_get_value_string_utf8(env, argv[1], NULL, 0, &len);
    char *nul = nul_diagnostics(code, len, file);
    if (nul) { /* an invalid module: its compilation info says why */
        free(code);
        napi_value o, v;
        napi_create_object(env, &o);
        napi_create_string_utf8(env, nul, NAPI_AUTO_LENGTH, &v);
        free(nul);
        napi_set_named_property(env, o, "diagnostics", v);
        napi_create_uint32(env, 1, &v);
        napi_set_named_property(env, o, "errors", v);
        return o;
    }
    stex_wgsl_module *m = NULL;
    stex_status st = stex_wgsl_module_create_for(stex_device_profile(dev->ptr), code, file, &m);
    free(code);
    if (!m)
        return addon_throw_status(env, st);
    napi_value o, v;
    napi_create_object(env, &o);
    napi_create_string_utf8(env, stex_wgsl_module_diagnostics(m), NAPI_AUTO_LENGTH, &v);
    napi_set_named_property(env, o, "diagnostics", v);
    napi_create_uint32(env, (uint32_t)stex_wgsl_module_error_count(m), &v);
    napi_set_named_property(env, o, "errors", v);
    if (!(v = addon_wrap(env, addon_handle_new(ADDON_MODULE, m, NULL, 0))))
        return NULL;
    napi_set_named_property(env, o, "module", v);
    return o;
}

/* ---- layouts ---- */

/* A GPUBindGroupLayoutEntry (its one binding layout member) in @group(group). */
static bool layout_entry(napi_env env, napi_value o, uint32_t group, stex_layout_entry *e)
{
    memset(e, 0, sizeof *e);
    e->group = group;
    if (!addon_get_u32(env, o, "binding", &e->binding) || !addon_get_u32(env, o, "visibility", &e->visibility))
        return false;
    napi_value buf = addon_get(env, o, "buffer"), smp = addon_get(env, o, "sampler");
    napi_value tex = addon_get(env, o, "texture"), st = addon_get(env, o, "storageTexture");
    int kinds = !addon_is_undefined(env, buf) + !addon_is_undefined(env, smp) +
                !addon_is_undefined(env, tex) + !addon_is_undefined(env, st);
    if (kinds != 1) { /* WebGPU: exactly one binding member (a validation error) */
        napi_throw_error(env, "validation error", "createBindGroupLayout: an entry must have exactly "
                         "one of buffer, sampler, texture and storageTexture");
        return false;
    }
    int v;
    if (!addon_is_undefined(env, buf)) {
        v = 0;
        static const stex_binding_type T[] = {STEX_BINDING_UNIFORM_BUFFER, STEX_BINDING_STORAGE_BUFFER,
                                              STEX_BINDING_READ_ONLY_STORAGE_BUFFER};
        if (!addon_get_name(env, buf, "type", RUN_BUFFER_TYPES, 0, &v) ||
            !addon_get_bool(env, buf, "hasDynamicOffset", &e->buffer.has_dynamic_offset) ||
            !addon_get_u64(env, buf, "minBindingSize", &e->buffer.min_binding_size))
            return false;
        e->type = T[v];
    } else if (!addon_is_undefined(env, smp)) {
        v = STEX_SAMPLER_BINDING_FILTERING;
        if (!addon_get_name(env, smp, "type", RUN_SAMPLER_TYPES, STEX_SAMPLER_BINDING_FILTERING, &v))
            return false;
        e->type = STEX_BINDING_SAMPLER, e->sampler_type = (stex_sampler_binding_type)v;
    } else if (!addon_is_undefined(env, tex)) {
        int t = STEX_SAMPLE_TYPE_FLOAT, d = STEX_VIEW_DIMENSION_2D;
        if (!addon_get_name(env, tex, "sampleType", RUN_SAMPLE_TYPES, STEX_SAMPLE_TYPE_FLOAT, &t) ||
            !addon_get_name(env, tex, "viewDimension", RUN_VIEW_DIMENSIONS, 1, &d) ||
            !addon_get_bool(env, tex, "multisampled", &e->texture_multisampled))
            return false;
        e->type = STEX_BINDING_TEXTURE, e->texture_sample_type = (stex_texture_sample_type)t;
        e->texture_view_dimension = (stex_view_dimension)d;
    } else {
        int a = STEX_ACCESS_WRITE_ONLY, d = STEX_VIEW_DIMENSION_2D;
        char f[40];
        bool present;
        if (!addon_get_name(env, st, "access", RUN_ACCESS, STEX_ACCESS_WRITE_ONLY, &a) ||
            !addon_get_name(env, st, "viewDimension", RUN_VIEW_DIMENSIONS, 1, &d) ||
            !addon_get_string(env, st, "format", f, sizeof f, &present))
            return false;
        stex_format fmt = present ? stex_format_from_name(f) : STEX_FORMAT_UNDEFINED;
        if (fmt == STEX_FORMAT_UNDEFINED) {
            addon_throw_type(env, "storageTexture.format: '%s' is not a GPUTextureFormat",
                             present ? f : "(missing)");
            return false;
        }
        e->type = STEX_BINDING_STORAGE_TEXTURE;
        e->storage_texture = (stex_storage_texture_layout){(stex_access)a, fmt, (stex_view_dimension)d};
    }
    return true;
}

/* entries[i] of a JavaScript array, each with its "group" (or `group`); malloc'ed. */
static stex_layout_entry *layout_entries(napi_env env, napi_value arr, int group, uint32_t *n)
{
    bool is_array = false;
    *n = 0;
    napi_is_array(env, arr, &is_array);
    if (!is_array) {
        addon_throw_type(env, "entries: not a sequence");
        return NULL;
    }
    napi_get_array_length(env, arr, n);
    stex_layout_entry *e = calloc(*n ? *n : 1, sizeof *e);
    if (!e) {
        napi_throw_error(env, "out of memory", "stex: out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < *n; i++) {
        napi_value it = addon_element(env, arr, i);
        uint32_t g = group < 0 ? 0 : (uint32_t)group;
        if ((group < 0 && !addon_get_u32(env, it, "group", &g)) || !layout_entry(env, it, g, &e[i])) {
            free(e);
            return NULL;
        }
    }
    return e;
}

static void no_kernel(const stex_invocation *inv) { (void)inv; }

/* layoutCreate(device, entries, grouped): createBindGroupLayout, as a
 * pipeline with only that layout at @group(0), shared (its bind groups
 * serve every explicit layout with an equal group); grouped true: entries
 * carry their .group, createPipelineLayout's whole layout (checked against
 * the binding slot limits of all its groups together). */
static napi_value layout_create(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(3);
    addon_handle *dev = addon_unwrap(env, argv[0], ADDON_DEVICE, "createBindGroupLayout");
    uint32_t n;
    bool grouped = false;
    napi_valuetype gt;
    if (napi_typeof(env, argv[2], &gt) == napi_ok && gt == napi_boolean)
        napi_get_value_bool(env, argv[2], &grouped);
    stex_layout_entry *e = dev ? layout_entries(env, argv[1], grouped ? -1 : 0, &n) : NULL;
    if (!e)
        return NULL;
    stex_pipeline_desc pd = {.kernel = no_kernel, .entries = e, .entry_count = n,
                             .shared_layout = true, .label = "bind group layout"};
    stex_pipeline *p;
    stex_status st = stex_pipeline_create(dev->ptr, &pd, &p);
    free(e);
    if (st)
        return addon_throw_status(env, st);
    return addon_wrap(env, addon_handle_new(ADDON_LAYOUT, p, &dev, 1));
}

/* pipelineCreate(device, module, entryPoint | undefined, constants | undefined,
 *                layout entries with .group | undefined for 'auto',
 *                subgroup width | undefined (the interpreter's lanes: 1..64),
 *                max steps | undefined (a sub-group's instructions per workgroup),
 *                allowed | undefined (allowedCreate's: allowed mode),
 *                executor | undefined ('jit': the JIT, else the interpreter)) */
static napi_value pipeline_create(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(9);
    addon_handle *dev = addon_unwrap(env, argv[0], ADDON_DEVICE, "createComputePipeline");
    addon_handle *mod = dev ? addon_unwrap(env, argv[1], ADDON_MODULE, "compute.module") : NULL;
    if (!mod)
        return NULL;
    addon_handle *allowed = NULL;
    if (!addon_is_undefined(env, argv[7]) &&
        !(allowed = addon_unwrap(env, argv[7], ADDON_ALLOWED, "createComputePipeline allowed")))
        return NULL;
    char *entry = NULL;
    if (!addon_is_undefined(env, argv[2]) && !(entry = string_arg(env, argv[2], "entryPoint")))
        return NULL;
    stex_wgsl_override *ov = NULL;
    char **names = NULL;
    uint32_t n = 0;
    napi_value keys = NULL;
    if (!addon_is_undefined(env, argv[3])) {
        napi_get_property_names(env, argv[3], &keys);
        napi_get_array_length(env, keys, &n);
    }
    if (n && (!(ov = calloc(n, sizeof *ov)) || !(names = calloc(n, sizeof *names)))) {
        free(ov), free(entry);
        napi_throw_error(env, "out of memory", "stex: out of memory");
        return NULL;
    }
    bool ok = true;
    for (uint32_t i = 0; ok && i < n; i++) {
        napi_value k = addon_element(env, keys, i), v = NULL;
        ok = (names[i] = string_arg(env, k, "constants key")) != NULL;
        if (ok) {
            if (napi_get_property(env, argv[3], k, &v) != napi_ok || !v)
                napi_get_undefined(env, &v);
            napi_value num;
            ok = napi_coerce_to_number(env, v, &num) == napi_ok &&
                 napi_get_value_double(env, num, &ov[i].value) == napi_ok;
            ov[i].name = names[i];
        }
    }
    stex_pipeline *p = NULL;
    stex_status st = STEX_OK;
    stex_layout_entry *layout = NULL;
    uint32_t nlayout = 0;
    if (ok && !addon_is_undefined(env, argv[4]))
        ok = (layout = layout_entries(env, argv[4], -1, &nlayout)) != NULL;
    uint32_t width = 0;
    if (ok && !addon_is_undefined(env, argv[5]))
        ok = napi_get_value_uint32(env, argv[5], &width) == napi_ok;
    double steps = 0; /* the provider checked it: a whole number in [1, 2^53) */
    if (ok && !addon_is_undefined(env, argv[6]))
        ok = napi_get_value_double(env, argv[6], &steps) == napi_ok;
    stex_wgsl_executor executor = STEX_WGSL_EXECUTOR_INTERPRETER;
    if (ok && !addon_is_undefined(env, argv[8])) {
        char *ex = string_arg(env, argv[8], "executor");
        ok = ex != NULL;
        if (ex && !strcmp(ex, "jit"))
            executor = STEX_WGSL_EXECUTOR_JIT;
        free(ex);
    }
    if (ok) {
        stex_wgsl_options o = {.overrides = ov, .override_count = n, .layout = layout,
                               .layout_count = nlayout, .subgroup_width = width,
                               .max_steps = steps >= 1 && steps < 9007199254740992.0
                                                ? (uint64_t)steps : 0,
                               .allowed = allowed ? allowed->ptr : NULL,
                               .executor = executor};
        st = stex_wgsl_pipeline_create(dev->ptr, mod->ptr, entry, &o, &p);
    }
    free(layout);
    for (uint32_t i = 0; i < n && names; i++)
        free(names[i]);
    free(names), free(ov), free(entry);
    if (!ok)
        return NULL;
    if (st)
        return addon_throw_status(env, st);
    /* the module is not needed once the pipeline exists; the sets are */
    addon_handle *deps[2] = {dev, allowed};
    return addon_wrap(env, addon_handle_new(ADDON_PIPELINE, p, deps, allowed ? 2 : 1));
}

/* bindGroupCreate(pipeline | layout, group, [{binding, buffer?, offset?, size?, view?, sampler?}]) */
static napi_value bind_group_create(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(3);
    addon_handle *p = addon_peek(env, argv[0]);
    if (!p || p->kind != ADDON_LAYOUT)
        p = addon_unwrap(env, argv[0], ADDON_PIPELINE, "createBindGroup layout");
    uint32_t group = 0, n = 0;
    if (!p || napi_get_value_uint32(env, argv[1], &group) != napi_ok)
        return p ? addon_throw_type(env, "createBindGroup: bad group index") : NULL;
    bool is_array = false;
    napi_is_array(env, argv[2], &is_array);
    if (!is_array)
        return addon_throw_type(env, "createBindGroup: entries is not a sequence");
    napi_get_array_length(env, argv[2], &n);
    stex_bind_group_entry *e = calloc(n ? n : 1, sizeof *e);
    addon_handle **deps = calloc((size_t)n + 1, sizeof *deps); /* n + 1 in 64 bits */
    if (!e || !deps) {
        free(e), free(deps);
        napi_throw_error(env, "out of memory", "stex: out of memory");
        return NULL;
    }
    deps[0] = p;
    bool ok = true;
    for (uint32_t i = 0; ok && i < n; i++) {
        napi_value it = addon_element(env, argv[2], i);
        ok = addon_get_u32(env, it, "binding", &e[i].binding);
        napi_value buf = addon_get(env, it, "buffer"), view = addon_get(env, it, "view");
        napi_value smp = addon_get(env, it, "sampler");
        addon_handle *h = NULL;
        if (ok && !addon_is_undefined(env, buf)) {
            uint64_t size = UINT64_MAX; /* not given: to the end (0) */
            ok = (h = addon_unwrap(env, buf, ADDON_BUFFER, "resource.buffer")) &&
                 addon_get_u64(env, it, "offset", &e[i].offset) &&
                 addon_get_u64(env, it, "size", &size);
            e[i].size = size == UINT64_MAX ? 0 : size ? size : STEX_BINDING_SIZE_ZERO;
            if (ok)
                e[i].buffer = h->ptr;
        } else if (ok && !addon_is_undefined(env, view)) {
            ok = (h = addon_unwrap(env, view, ADDON_VIEW, "resource")) != NULL;
            if (ok)
                e[i].view = h->ptr;
        } else if (ok && !addon_is_undefined(env, smp)) {
            ok = (h = addon_unwrap(env, smp, ADDON_SAMPLER, "resource")) != NULL;
            if (ok)
                e[i].sampler = h->ptr;
        } else if (ok) {
            addon_throw_type(env, "createBindGroup: entries[%u] has no resource", i);
            ok = false;
        }
        deps[i + 1] = h;
    }
    stex_bind_group *g = NULL;
    stex_status st = ok ? stex_bind_group_create_in_group(p->ptr, group, e, n, &g) : STEX_OK;
    free(e);
    napi_value r = NULL;
    if (ok && st)
        addon_throw_status(env, st);
    else if (ok)
        r = addon_wrap(env, addon_handle_new(ADDON_BIND_GROUP, g, deps, n + 1));
    free(deps);
    return r;
}

/* dispatch(pipeline, [{group, offsets}] (index = @group), x, y, z, options, check,
 *          indirect buffer | undefined, run | undefined)
 * -> the race report (JSON text) when options.raceCheck, else undefined;
 * with run = {cancel (cancelCreate), timeout (seconds, 0: none)}: a promise
 * of it, the dispatch running off this thread (addon_queue.c).
 * options: {schedule, seed, threads, visibility, raceCheck, raceAll} as stex run takes
 * them (raceAll: every racing location listed, as --races all);
 * check true: only stex_check_dispatch (what the encoder checks). */
static napi_value dispatch(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(9);
    addon_handle *p = addon_unwrap(env, argv[0], ADDON_PIPELINE, "dispatchWorkgroups");
    if (!p)
        return NULL;
    uint32_t n = 0, xyz[3];
    napi_get_array_length(env, argv[1], &n);
    if (n > 4)
        return addon_throw_type(env, "dispatchWorkgroups: more than 4 bind groups");
    for (int k = 0; k < 3; k++)
        if (napi_get_value_uint32(env, argv[2 + k], &xyz[k]) != napi_ok)
            return addon_throw_type(env, "dispatchWorkgroups: a count is not an integer");
    stex_bound_group bg[4] = {{0}};
    uint32_t offs[4][16];
    for (uint32_t i = 0; i < n; i++) {
        napi_value it = addon_element(env, argv[1], i), offsets;
        napi_value g = addon_get(env, it, "group");
        if (addon_is_undefined(env, g))
            continue;
        addon_handle *h = addon_unwrap(env, g, ADDON_BIND_GROUP, "setBindGroup");
        if (!h)
            return NULL;
        bg[i].group = h->ptr;
        offsets = addon_get(env, it, "offsets");
        uint32_t m = 0;
        if (!addon_is_undefined(env, offsets))
            napi_get_array_length(env, offsets, &m);
        if (m > 16)
            return addon_throw_type(env, "setBindGroup: more than 16 dynamic offsets");
        for (uint32_t k = 0; k < m; k++) {
            offs[i][k] = 0;
            napi_get_value_uint32(env, addon_element(env, offsets, k), &offs[i][k]);
        }
        bg[i].dynamic_offsets = offs[i], bg[i].dynamic_offset_count = m;
    }
    bool check = false;
    napi_valuetype ct;
    if (napi_typeof(env, argv[6], &ct) == napi_ok && ct == napi_boolean)
        napi_get_value_bool(env, argv[6], &check);
    if (check && !addon_is_undefined(env, argv[7])) {
        addon_handle *ib = addon_unwrap(env, argv[7], ADDON_BUFFER, "dispatchWorkgroupsIndirect");
        if (!ib)
            return NULL;
        stex_status cst = stex_check_dispatch_indirect(p->ptr, bg, n, ib->ptr);
        return cst ? addon_throw_status(env, cst) : NULL;
    }
    if (check) {
        stex_status cst = stex_check_dispatch(p->ptr, bg, n, xyz[0], xyz[1], xyz[2]);
        return cst ? addon_throw_status(env, cst) : NULL;
    }
    stex_dispatch_options o = {.schedule = STEX_SCHEDULE_IN_ORDER};
    char s[32];
    bool present, race = false, race_all = false;
    double seed = 0;
    uint32_t threads = 0;
    if (!addon_get_string(env, argv[5], "schedule", s, sizeof s, &present))
        return NULL;
    if (present && !stex_schedule_from_name(s, &o.schedule))
        return addon_throw_type(env, "schedule: '%s' is not in-order, reversed, shuffled or "
                                     "interleaved", s);
    if (!addon_get_f64(env, argv[5], "seed", &seed, &present) ||
        !addon_get_u32(env, argv[5], "threads", &threads) ||
        !addon_get_bool(env, argv[5], "raceCheck", &race) ||
        !addon_get_bool(env, argv[5], "raceAll", &race_all))
        return NULL;
    if (!addon_get_string(env, argv[5], "visibility", s, sizeof s, &present))
        return NULL;
    if (present && !stex_visibility_from_name(s, &o.visibility))
        return addon_throw_type(env, "visibility: '%s' is not immediate or snapshot", s);
    o.seed = (uint64_t)seed, o.threads = (int)threads;
    stex_race_detector *rd = NULL;
    if (race) {
        /* raceAll (races=all): every racing location in the report, not the first 100 */
        stex_race_options ro = {.max_reported = race_all ? STEX_RACE_ALL : 0};
        stex_status st = stex_race_detector_create(&ro, &rd);
        if (st)
            return addon_throw_status(env, st);
        o.races = rd;
    }
    if (!addon_is_undefined(env, argv[8]))
        return addon_dispatch_async(env, argv[0], argv[1], bg, n, xyz, &o, argv[8]);
    stex_status st = stex_dispatch_bound(p->ptr, bg, n, xyz[0], xyz[1], xyz[2], &o);
    napi_value r = NULL;
    if (st)
        addon_throw_status(env, st);
    else if (rd) {
        char *json = stex_race_report_json_string(rd);
        if (json)
            napi_create_string_utf8(env, json, NAPI_AUTO_LENGTH, &r);
        free(json);
    }
    stex_race_detector_destroy(rd);
    return r;
}

void addon_define_shader(napi_env env, napi_value exports)
{
    addon_export(env, exports, "moduleCreate", module_create);
    addon_export(env, exports, "pipelineCreate", pipeline_create);
    addon_export(env, exports, "layoutCreate", layout_create);
    addon_export(env, exports, "bindGroupCreate", bind_group_create);
    addon_export(env, exports, "dispatch", dispatch);
}
