/*
 * bindings/node/src/addon.c - the module's entry point, handles and the
 * helpers every part uses (see addon.h).
 */
#include "addon.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const KIND_NAMES[ADDON_KIND_COUNT] = {
    "GPUAdapter", "GPUDevice", "GPUBuffer", "GPUTexture", "GPUTextureView", "GPUSampler",
    "GPUShaderModule", "GPUComputePipeline", "GPUBindGroupLayout", "GPUBindGroup",
    "stex allowed sets", "stex bounds"};

/* Handles alive per kind, over the process (every environment that loads
 * the addon shares them): counted where a handle is made and freed. */
static atomic_uint_fast64_t live[ADDON_KIND_COUNT];
/* Bytes of handles freed on this thread and not yet taken off V8's count:
 * release() runs without an env (down a chain of dependencies). */
static _Thread_local int64_t freed_bytes;

static void destroy(addon_kind kind, void *ptr)
{
    switch (kind) {
    case ADDON_ADAPTER: stex_adapter_destroy(ptr); break;
    case ADDON_DEVICE: stex_device_destroy(ptr); break;
    case ADDON_BUFFER: stex_buffer_destroy(ptr); break;
    case ADDON_TEXTURE: stex_texture_destroy(ptr); break;
    case ADDON_VIEW: stex_texture_view_destroy(ptr); break;
    case ADDON_SAMPLER: stex_sampler_destroy(ptr); break;
    case ADDON_MODULE: stex_wgsl_module_destroy(ptr); break;
    case ADDON_PIPELINE: case ADDON_LAYOUT: stex_pipeline_destroy(ptr); break;
    case ADDON_BIND_GROUP: stex_bind_group_destroy(ptr); break;
    case ADDON_ALLOWED: stex_allowed_destroy(ptr); break;
    case ADDON_BOUNDS: stex_bounds_free(ptr); free(ptr); break;
    case ADDON_KIND_COUNT: break;
    }
}

static void release(addon_handle *h)
{
    if (!h || --h->refs)
        return;
    destroy(h->kind, h->ptr);
    for (uint32_t i = 0; i < h->ndeps; i++)
        release(h->deps[i]); /* after the object: it may use them to the end */
    atomic_fetch_sub(&live[h->kind], 1);
    freed_bytes += h->bytes;
    free(h->deps);
    free(h);
}

/* Takes the bytes freed since the last call off V8's external memory. */
static void settle_bytes(napi_env env)
{
    int64_t n = freed_bytes, total;
    freed_bytes = 0;
    if (n)
        napi_adjust_external_memory(env, -n, &total);
}

addon_handle *addon_handle_new(addon_kind kind, void *ptr, addon_handle *const *deps, uint32_t n)
{
    addon_handle *h = calloc(1, sizeof *h);
    if (h && n && !(h->deps = calloc(n, sizeof *h->deps))) {
        free(h);
        h = NULL;
    }
    if (!h) {
        destroy(kind, ptr);
        return NULL;
    }
    h->kind = kind, h->ptr = ptr, h->refs = 1, h->ndeps = n;
    for (uint32_t i = 0; i < n; i++) {
        h->deps[i] = deps[i];
        deps[i]->refs++;
    }
    if (kind == ADDON_BUFFER)
        h->bytes = (int64_t)stex_buffer_size(ptr);
    else if (kind == ADDON_TEXTURE)
        h->bytes = (int64_t)stex_texture_memory_size(ptr);
    atomic_fetch_add(&live[kind], 1);
    return h;
}

void addon_handle_retain(addon_handle *h) { h->refs++; }

void addon_handle_release(napi_env env, addon_handle *h)
{
    release(h);
    settle_bytes(env);
}

/* The external's data: the JavaScript value's reference to a handle,
 * NULL once `drop` gave it up (the box itself goes with the value). */
typedef struct js_ref {
    addon_handle *h;
} js_ref;

static void finalize(napi_env env, void *data, void *hint)
{
    (void)hint;
    js_ref *r = data;
    release(r->h);
    free(r);
    settle_bytes(env);
}

napi_value addon_wrap(napi_env env, addon_handle *h)
{
    napi_value v;
    js_ref *r = h ? malloc(sizeof *r) : NULL;
    if (!r) {
        if (h)
            h->bytes = 0; /* never told to V8 */
        release(h);
        napi_throw_error(env, "out of memory", "stex: out of memory for a native object");
        return NULL;
    }
    r->h = h;
    if (napi_create_external(env, r, finalize, NULL, &v) != napi_ok) {
        free(r);
        h->bytes = 0;
        release(h);
        return NULL;
    }
    int64_t total;
    if (h->bytes)
        napi_adjust_external_memory(env, h->bytes, &total);
    return v;
}

static js_ref *ref_of(napi_env env, napi_value v)
{
    napi_valuetype t;
    void *data = NULL;
    if (napi_typeof(env, v, &t) != napi_ok || t != napi_external ||
        napi_get_value_external(env, v, &data) != napi_ok)
        return NULL;
    return data;
}

addon_handle *addon_peek(napi_env env, napi_value v)
{
    js_ref *r = ref_of(env, v);
    return r ? r->h : NULL;
}

addon_handle *addon_unwrap(napi_env env, napi_value v, addon_kind kind, const char *what)
{
    addon_handle *h = addon_peek(env, v);
    if (!h || h->kind != kind) {
        addon_throw_type(env, "%s: not a %s%s", what, KIND_NAMES[kind],
                         ref_of(env, v) && !h ? " (it was destroyed)" : "");
        return NULL;
    }
    return h;
}

/* drop(value): gives up the JavaScript value's reference now, as
 * GPUBuffer.destroy() and GPUTexture.destroy() may: the memory goes at
 * once unless a view or bind group still holds the object.  Twice is
 * nothing. */
static napi_value drop(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(1);
    js_ref *r = ref_of(env, argv[0]);
    if (!r)
        return addon_throw_type(env, "drop: not a native object");
    addon_handle *h = r->h;
    r->h = NULL;
    release(h);
    settle_bytes(env);
    return NULL;
}

/* discard(value): GPUBuffer.destroy() and GPUTexture.destroy(): the
 * object's memory goes now, even while a view or bind group holds it; the
 * object stays, so that views and bind groups may still be made of it (as
 * WebGPU allows: its queue refuses them at submit).  Twice is nothing. */
static napi_value discard(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(1);
    addon_handle *h = addon_peek(env, argv[0]);
    if (!h || (h->kind != ADDON_BUFFER && h->kind != ADDON_TEXTURE))
        return addon_throw_type(env, "discard: not a GPUBuffer or GPUTexture");
    if (h->kind == ADDON_BUFFER)
        stex_buffer_discard(h->ptr);
    else
        stex_texture_discard(h->ptr);
    freed_bytes += h->bytes;
    h->bytes = 0;
    settle_bytes(env);
    return NULL;
}

/* liveObjects() -> {GPUAdapter: n, GPUDevice: n, ...}: the handles alive
 * now, per kind (an object is alive while JavaScript or another handle
 * holds it). */
static napi_value live_objects(napi_env env, napi_callback_info info)
{
    (void)info;
    napi_value o, v;
    napi_create_object(env, &o);
    for (int k = 0; k < ADDON_KIND_COUNT; k++) {
        napi_create_double(env, (double)atomic_load(&live[k]), &v);
        napi_set_named_property(env, o, KIND_NAMES[k], v);
    }
    return o;
}

void addon_define_lifetime(napi_env env, napi_value exports)
{
    addon_export(env, exports, "drop", drop);
    addon_export(env, exports, "discard", discard);
    addon_export(env, exports, "liveObjects", live_objects);
}

napi_value addon_throw_status(napi_env env, stex_status st)
{
    napi_throw_error(env, stex_status_name(st), stex_last_error());
    return NULL;
}

napi_value addon_throw_type(napi_env env, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    napi_throw_type_error(env, NULL, msg);
    return NULL;
}

napi_value addon_get(napi_env env, napi_value obj, const char *key)
{
    napi_value v = NULL;
    napi_valuetype t;
    if (obj && napi_typeof(env, obj, &t) == napi_ok && t == napi_object)
        napi_get_named_property(env, obj, key, &v);
    if (!v)
        napi_get_undefined(env, &v);
    return v;
}

napi_value addon_element(napi_env env, napi_value arr, uint32_t i)
{
    napi_value v = NULL;
    if (napi_get_element(env, arr, i, &v) != napi_ok || !v)
        napi_get_undefined(env, &v);
    return v;
}

bool addon_is_undefined(napi_env env, napi_value v)
{
    napi_valuetype t;
    return !v || napi_typeof(env, v, &t) != napi_ok || t == napi_undefined || t == napi_null;
}

/* The number at obj[key] (missing: false, no error). */
static bool number(napi_env env, napi_value obj, const char *key, double *out, bool *bad)
{
    napi_value v = addon_get(env, obj, key);
    *bad = false;
    if (addon_is_undefined(env, v))
        return false;
    napi_valuetype t;
    napi_typeof(env, v, &t);
    if (t == napi_bigint) {
        uint64_t u;
        bool lossless;
        napi_get_value_bigint_uint64(env, v, &u, &lossless);
        *out = (double)u;
        return true;
    }
    if (t != napi_number || napi_get_value_double(env, v, out) != napi_ok) {
        *bad = true;
        addon_throw_type(env, "%s: not a number", key);
        return false;
    }
    return true;
}

bool addon_get_f64(napi_env env, napi_value obj, const char *key, double *out, bool *present)
{
    bool bad;
    *present = number(env, obj, key, out, &bad);
    return !bad;
}

/* WebGPU's [EnforceRange] integers: finite, whole after truncation, in range. */
static bool integer(napi_env env, napi_value obj, const char *key, double max, uint64_t *out)
{
    double d;
    bool bad;
    if (!number(env, obj, key, &d, &bad))
        return !bad;
    if (!(d >= 0) || d > max || d != d) {
        addon_throw_type(env, "%s: %g is not an integer in [0, %.0f] (WebIDL [EnforceRange])", key,
                         d, max);
        return false;
    }
    *out = (uint64_t)d;
    return true;
}

bool addon_get_u32(napi_env env, napi_value obj, const char *key, uint32_t *out)
{
    uint64_t u = *out;
    if (!integer(env, obj, key, 4294967295.0, &u))
        return false;
    *out = (uint32_t)u;
    return true;
}

bool addon_get_u64(napi_env env, napi_value obj, const char *key, uint64_t *out)
{
    return integer(env, obj, key, 9007199254740991.0, out);
}

bool addon_get_bool(napi_env env, napi_value obj, const char *key, bool *out)
{
    napi_value v = addon_get(env, obj, key);
    if (addon_is_undefined(env, v))
        return true;
    napi_value b;
    napi_coerce_to_bool(env, v, &b);
    napi_get_value_bool(env, b, out);
    return true;
}

bool addon_get_string(napi_env env, napi_value obj, const char *key, char *buf, size_t size,
                      bool *present)
{
    napi_value v = addon_get(env, obj, key);
    *present = false;
    if (addon_is_undefined(env, v))
        return true;
    napi_value s;
    size_t n;
    if (napi_coerce_to_string(env, v, &s) != napi_ok ||
        napi_get_value_string_utf8(env, s, buf, size, &n) != napi_ok) {
        addon_throw_type(env, "%s: not a string", key);
        return false;
    }
    if (n + 1 >= size) {
        addon_throw_type(env, "%s: longer than %zu bytes", key, size - 1);
        return false;
    }
    if (strlen(buf) != n) { /* no name holds U+0000: C would read its prefix */
        addon_throw_type(env, "%s: holds U+0000", key);
        return false;
    }
    *present = true;
    return true;
}

bool addon_get_name(napi_env env, napi_value obj, const char *key, const char *const *names,
                    int first, int *out)
{
    char s[40];
    bool present;
    if (!addon_get_string(env, obj, key, s, sizeof s, &present))
        return false;
    if (!present)
        return true;
    for (int i = first; names[i]; i++)
        if (!strcmp(s, names[i])) {
            *out = i;
            return true;
        }
    addon_throw_type(env, "%s: '%s' is not one of WebGPU's values", key, s);
    return false;
}

void addon_export(napi_env env, napi_value exports, const char *name, napi_callback fn)
{
    napi_value f;
    napi_create_function(env, name, NAPI_AUTO_LENGTH, fn, NULL, &f);
    napi_set_named_property(env, exports, name, f);
}

/* the library's notices (a JIT pipeline run on the interpreter, and why):
 * once each, on stderr as the command line prints them */
static void print_notice(void *user, const char *text)
{
    (void)user;
    fprintf(stderr, "stex: %s\n", text);
}

NAPI_MODULE_INIT()
{
    /* the interpreter's default lock-step width, the `subgroup` flag's default */
    napi_value width, jit;
    napi_create_uint32(env, STEX_WGSL_SUBGROUP_WIDTH_DEFAULT, &width);
    napi_set_named_property(env, exports, "subgroupWidthDefault", width);
    /* whether flag executor=jit compiles (LLVM was there when it was built) */
    napi_get_boolean(env, stex_wgsl_jit_available(), &jit);
    napi_set_named_property(env, exports, "jitAvailable", jit);
    stex_wgsl_set_notice(print_notice, NULL);
    addon_define_lifetime(env, exports);
    addon_define_device(env, exports);
    addon_define_shader(env, exports);
    addon_define_queue(env, exports);
    addon_define_allowed(env, exports);
    return exports;
}
