/*
 * bindings/node/src/addon_queue.c - the queue's work off the JavaScript
 * thread.  A dispatch runs as N-API async work on libuv's thread pool and
 * settles a promise, so the event loop (timers, promises, I/O) goes on
 * while it runs; lib/webgpu.js orders the queue's commands after it.
 * While it runs, the work holds a reference to its pipeline's and bind
 * groups' handles (which hold their resources), so the collector may take
 * the JavaScript objects meanwhile.
 *
 * A cancel flag (stex/cancel.h, one per device) stops it: device.destroy()
 * raises it; the watchdog is its deadline, set when the dispatch starts on
 * its worker thread (the provider's flag timeout).
 */
#include "addon.h"

#include <stdlib.h>
#include <string.h>

/* The tag that marks the JavaScript object holding a cancel flag. */
static const napi_type_tag CANCEL_TAG = {0x7374657863616e63ull, 0x656c2d666c616721ull};

static void cancel_finalize(napi_env env, void *data, void *hint)
{
    (void)env, (void)hint;
    stex_cancel_destroy(data);
}

/* cancelCreate() -> an object holding a new cancel flag */
static napi_value cancel_create(napi_env env, napi_callback_info info)
{
    (void)info;
    stex_cancel *c = stex_cancel_create();
    napi_value o;
    if (!c || napi_create_object(env, &o) != napi_ok) {
        stex_cancel_destroy(c);
        napi_throw_error(env, "out of memory", "stex: out of memory for a cancel flag");
        return NULL;
    }
    if (napi_wrap(env, o, c, cancel_finalize, NULL, NULL) != napi_ok ||
        napi_type_tag_object(env, o, &CANCEL_TAG) != napi_ok) {
        stex_cancel_destroy(c);
        return NULL;
    }
    return o;
}

static stex_cancel *cancel_of(napi_env env, napi_value v)
{
    bool tagged = false;
    void *c = NULL;
    napi_valuetype t;
    if (napi_typeof(env, v, &t) != napi_ok || t != napi_object ||
        napi_check_object_type_tag(env, v, &CANCEL_TAG, &tagged) != napi_ok || !tagged ||
        napi_unwrap(env, v, &c) != napi_ok) {
        addon_throw_type(env, "not a cancel flag (cancelCreate)");
        return NULL;
    }
    return c;
}

/* cancelRequest(flag): stops the work checking it (device.destroy()). */
static napi_value cancel_request(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(1);
    stex_cancel *c = cancel_of(env, argv[0]);
    if (c)
        stex_cancel_request(c, STEX_CANCEL_INTERRUPTED);
    return NULL;
}

typedef struct dispatch_work {
    napi_async_work work;
    napi_deferred deferred;
    napi_ref cancel_ref;          /* keeps the flag's object alive */
    addon_handle *keep[1 + 4];    /* the pipeline and the bind groups */
    uint32_t nkeep;
    const stex_pipeline *p;
    stex_bound_group bg[4];
    uint32_t offs[4][16];
    uint32_t n, xyz[3];
    stex_dispatch_options o;
    double timeout_s;
    /* the outcome, written on the worker thread */
    stex_status st;
    char msg[1024];
    char *json;                   /* the race report, when o.races */
} dispatch_work;

static void execute(napi_env env, void *data)
{
    (void)env; /* no N-API here: this is a worker thread */
    dispatch_work *w = data;
    if (w->timeout_s > 0) /* the watchdog counts from the start, not from the queueing */
        stex_cancel_set_timeout(w->o.cancel, w->timeout_s);
    w->st = stex_dispatch_bound(w->p, w->bg, w->n, w->xyz[0], w->xyz[1], w->xyz[2], &w->o);
    if (w->st)
        snprintf(w->msg, sizeof w->msg, "%s", stex_last_error());
    else if (w->o.races && !(w->json = stex_race_report_json_string(w->o.races))) {
        w->st = STEX_OUT_OF_MEMORY;
        snprintf(w->msg, sizeof w->msg, "dispatchWorkgroups: out of memory for the race report");
    }
}

static void complete(napi_env env, napi_status status, void *data)
{
    dispatch_work *w = data;
    for (uint32_t i = 0; i < w->nkeep; i++)
        addon_handle_release(env, w->keep[i]);
    napi_delete_reference(env, w->cancel_ref);
    napi_value v, code, msg;
    if (status != napi_ok && !w->st) {
        w->st = STEX_CANCELLED;
        snprintf(w->msg, sizeof w->msg, "dispatchWorkgroups: the work was cancelled");
    }
    if (w->st) {
        napi_create_string_utf8(env, stex_status_name(w->st), NAPI_AUTO_LENGTH, &code);
        napi_create_string_utf8(env, w->msg, NAPI_AUTO_LENGTH, &msg);
        napi_create_error(env, code, msg, &v);
        napi_reject_deferred(env, w->deferred, v);
    } else {
        if (w->json)
            napi_create_string_utf8(env, w->json, NAPI_AUTO_LENGTH, &v);
        else
            napi_get_undefined(env, &v);
        napi_resolve_deferred(env, w->deferred, v);
    }
    napi_delete_async_work(env, w->work);
    stex_race_detector_destroy(w->o.races);
    free(w->json);
    free(w);
}

napi_value addon_dispatch_async(napi_env env, napi_value pipeline, napi_value groups,
                                const stex_bound_group *bg, uint32_t n, const uint32_t xyz[3],
                                const stex_dispatch_options *o, napi_value run)
{
    stex_cancel *c = cancel_of(env, addon_get(env, run, "cancel"));
    double timeout = 0;
    bool present;
    if (!c || !addon_get_f64(env, run, "timeout", &timeout, &present)) {
        stex_race_detector_destroy(o->races);
        return NULL;
    }
    dispatch_work *w = calloc(1, sizeof *w);
    if (!w) {
        stex_race_detector_destroy(o->races);
        napi_throw_error(env, "out of memory", "stex: out of memory for a dispatch");
        return NULL;
    }
    w->o = *o;
    w->o.cancel = c;
    w->timeout_s = timeout;
    w->n = n;
    memcpy(w->xyz, xyz, sizeof w->xyz);
    addon_handle *ph = addon_peek(env, pipeline);
    w->p = ph->ptr;
    w->keep[w->nkeep++] = ph;
    for (uint32_t i = 0; i < n; i++) {
        w->bg[i] = bg[i];
        if (bg[i].dynamic_offset_count)
            memcpy(w->offs[i], bg[i].dynamic_offsets, bg[i].dynamic_offset_count * sizeof(uint32_t));
        w->bg[i].dynamic_offsets = w->offs[i];
        napi_value it = addon_element(env, groups, i);
        addon_handle *gh = bg[i].group ? addon_peek(env, addon_get(env, it, "group")) : NULL;
        if (gh)
            w->keep[w->nkeep++] = gh;
    }
    for (uint32_t i = 0; i < w->nkeep; i++)
        addon_handle_retain(w->keep[i]);
    napi_value promise, name;
    napi_create_string_utf8(env, "stex.dispatch", NAPI_AUTO_LENGTH, &name);
    if (napi_create_reference(env, addon_get(env, run, "cancel"), 1, &w->cancel_ref) != napi_ok ||
        napi_create_promise(env, &w->deferred, &promise) != napi_ok ||
        napi_create_async_work(env, NULL, name, execute, complete, w, &w->work) != napi_ok ||
        napi_queue_async_work(env, w->work) != napi_ok) {
        /* not queued: nothing runs; the promise (if made) stays pending, as
         * after any other failed N-API call an exception is pending */
        for (uint32_t i = 0; i < w->nkeep; i++)
            addon_handle_release(env, w->keep[i]);
        if (w->cancel_ref)
            napi_delete_reference(env, w->cancel_ref);
        stex_race_detector_destroy(w->o.races);
        free(w);
        napi_throw_error(env, "internal error", "stex: the dispatch could not be queued");
        return NULL;
    }
    return promise;
}

void addon_define_queue(napi_env env, napi_value exports)
{
    addon_export(env, exports, "cancelCreate", cancel_create);
    addon_export(env, exports, "cancelRequest", cancel_request);
}
