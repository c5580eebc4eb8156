/*
 * bindings/node/src/addon.h - the native half of stex's WebGPU provider for
 * Node.js: stex's C API behind N-API, called by lib/webgpu.js, which
 * implements the WebGPU classes on top.
 *
 * Every native object reaches JavaScript as an external value holding an
 * `addon_handle`.  A handle counts its references: the JavaScript value's
 * (dropped by the garbage collector's finaliser, or earlier by `drop`:
 * GPUBuffer.destroy() and GPUTexture.destroy()) and each handle that
 * depends on it (a buffer on its device, a view on its texture, a bind
 * group on its pipeline and resources).  The stex object is destroyed when
 * the count reaches zero, so the collector may finalise JavaScript objects
 * in any order without a view outliving its texture.
 *
 * The addon counts the handles alive per kind (`liveObjects()`, the
 * provider's gpu.stex.liveObjects()) and tells V8 how many bytes of buffer
 * and texture memory they hold, so that dropped objects are collected as
 * soon as their memory, not only their JavaScript wrappers, calls for it.
 *
 * Failures throw a JavaScript Error whose `code` is the stex status name
 * ("validation error", "out of memory", ...) and whose message is
 * stex_last_error(): the JavaScript layer turns them into WebGPU's errors.
 */
#ifndef STEX_NODE_ADDON_H
#define STEX_NODE_ADDON_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>

#include "stex/stex.h"

typedef enum addon_kind {
    ADDON_ADAPTER, ADDON_DEVICE, ADDON_BUFFER, ADDON_TEXTURE, ADDON_VIEW, ADDON_SAMPLER,
    ADDON_MODULE, ADDON_PIPELINE,
    ADDON_LAYOUT, /* createBindGroupLayout's: a stex pipeline with no kernel */
    ADDON_BIND_GROUP,
    ADDON_ALLOWED, /* flag allowed=1: a device's stex_allowed (addon_allowed.c) */
    ADDON_BOUNDS,  /* the bounds of a readback (a stex_bounds) */
    ADDON_KIND_COUNT
} addon_kind;

typedef struct addon_handle {
    addon_kind kind;
    uint32_t refs;
    void *ptr;                    /* the stex object */
    struct addon_handle **deps;   /* handles this one keeps alive */
    uint32_t ndeps;
    int64_t bytes;                /* memory told to V8 (buffers, textures) */
} addon_handle;

/* A new handle for ptr (one reference: the JavaScript value's) keeping
 * deps[0..n) alive; NULL when out of memory (ptr is then destroyed). */
addon_handle *addon_handle_new(addon_kind kind, void *ptr, addon_handle *const *deps, uint32_t n);
/* One more reference to h (work in flight that uses it), and giving it
 * back (on the JavaScript thread: the bytes freed are told to V8). */
void addon_handle_retain(addon_handle *h);
void addon_handle_release(napi_env env, addon_handle *h);
/* The JavaScript value for h; on failure h is released and NULL returned. */
napi_value addon_wrap(napi_env env, addon_handle *h);
/* The handle in value v, which must be of kind `kind` (else a TypeError
 * is thrown and NULL returned; also when v was dropped). */
addon_handle *addon_unwrap(napi_env env, napi_value v, addon_kind kind, const char *what);
/* The handle in v whatever its kind; NULL (nothing thrown) when v holds none. */
addon_handle *addon_peek(napi_env env, napi_value v);

/* In a callback: argv[0..n) the call's arguments, undefined past those given. */
#define ADDON_ARGS(n)                                                       \
    size_t argc = (n);                                                      \
    napi_value argv[(n) > 0 ? (n) : 1];                                     \
    if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok)    \
        return NULL;                                                        \
    for (size_t k_ = argc; k_ < (n); k_++)                                  \
        napi_get_undefined(env, &argv[k_])

/* Throws the last stex failure (status st) as an Error; returns NULL. */
napi_value addon_throw_status(napi_env env, stex_status st);
/* Throws a TypeError naming the broken rule; returns NULL. */
napi_value addon_throw_type(napi_env env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Property readers of a descriptor object: false (with a TypeError thrown)
 * when the property has the wrong type; a missing or undefined property
 * leaves *out as it is (the caller's default). */
bool addon_get_u32(napi_env env, napi_value obj, const char *key, uint32_t *out);
bool addon_get_u64(napi_env env, napi_value obj, const char *key, uint64_t *out);
bool addon_get_f64(napi_env env, napi_value obj, const char *key, double *out, bool *present);
bool addon_get_bool(napi_env env, napi_value obj, const char *key, bool *out);
/* A string property into buf (size bytes); *present false when missing. */
bool addon_get_string(napi_env env, napi_value obj, const char *key, char *buf, size_t size,
                      bool *present);
/* obj[key] as the index of its string in names (a NULL-ended WebGPU name
 * table of run/names.h), matched from index `first` on (below it: names
 * stex uses for "not given"); missing: *out unchanged; another string: a
 * TypeError. */
bool addon_get_name(napi_env env, napi_value obj, const char *key, const char *const *names,
                    int first, int *out);
/* A property's value (undefined when missing). */
napi_value addon_get(napi_env env, napi_value obj, const char *key);
/* arr[i]; undefined when it cannot be read (a getter or Proxy trap threw:
 * its exception is then pending, and the caller's next N-API calls fail
 * without touching an unset value). */
napi_value addon_element(napi_env env, napi_value arr, uint32_t i);
bool addon_is_undefined(napi_env env, napi_value v);

/* The exported functions of each part (addon.c, addon_device.c, addon_shader.c). */
void addon_define_lifetime(napi_env env, napi_value exports);
void addon_define_device(napi_env env, napi_value exports);
void addon_define_shader(napi_env env, napi_value exports);
void addon_define_queue(napi_env env, napi_value exports);
void addon_define_allowed(napi_env env, napi_value exports);
/* dispatch(..., run) of addon_shader.c with run = {cancel, timeout}: the
 * dispatch as async work (addon_queue.c), a promise of the race report;
 * takes o->races. */
napi_value addon_dispatch_async(napi_env env, napi_value pipeline, napi_value groups,
                                const stex_bound_group *bg, uint32_t n, const uint32_t xyz[3],
                                const stex_dispatch_options *o, napi_value run);
/* Adds function fn to exports under name. */
void addon_export(napi_env env, napi_value exports, const char *name, napi_callback fn);

#endif
