/* Shader-creation errors found while a kernel runs, and the WGSL names used in
 * their messages.  Each thread keeps the error of the smallest (workgroup,
 * invocation) it saw, so the message a dispatch returns does not depend on
 * which thread ran what; the dispatch runs to its end (to find that
 * invocation) but drops every write after the first error. */
#include <stdarg.h>
#include <stdio.h>

#include "shader/describe.h"
#include "shader/exec.h"

const char *exec_scalar_name(stex_scalar_type t)
{
    switch (t) {
    case STEX_SCALAR_F32: return "f32";
    case STEX_SCALAR_U32: return "u32";
    case STEX_SCALAR_I32: return "i32";
    }
    return "?";
}

void exec_describe_binding(const exec_binding *b, char *buf, size_t size)
{
    const char *d = stex_view_dimension_wgsl_name(b->dim);
    switch (b->type) {
    case STEX_BINDING_STORAGE_TEXTURE:
        snprintf(buf, size, "texture_storage_%s<%s, %s>", d, stex_format_name(b->format),
                 stex_access_wgsl_name(b->access));
        return;
    case STEX_BINDING_TEXTURE: snprintf(buf, size, "texture_%s<f32>", d); return;
    case STEX_BINDING_SAMPLER: snprintf(buf, size, "sampler"); return;
    case STEX_BINDING_STORAGE_BUFFER: snprintf(buf, size, "var<storage, read_write>"); return;
    case STEX_BINDING_READ_ONLY_STORAGE_BUFFER: snprintf(buf, size, "var<storage, read>"); return;
    case STEX_BINDING_UNIFORM_BUFFER: snprintf(buf, size, "var<uniform>"); return;
    }
    snprintf(buf, size, "not bound in the pipeline layout");
}

const exec_binding *exec_binding_at(const struct stex_exec *e, uint32_t ref)
{
    static const exec_binding none; /* type 0: nothing bound */
    uint32_t slot = stex__slot(&e->fast.slots, ref);
    return slot != STEX__NO_SLOT ? &e->b[slot] : &none;
}

const char *stex_binding_name(uint32_t ref, char buf[32])
{
    if (STEX_BINDING_GROUP(ref))
        snprintf(buf, 32, "@group(%u) @binding(%u)", STEX_BINDING_GROUP(ref),
                 STEX_BINDING_NUMBER(ref));
    else
        snprintf(buf, 32, "@binding(%u)", ref);
    return buf;
}

/* This thread's copy number i of a binding: the near copies of @group(0)
 * @binding(0..7) first, then the copy of every slot - @group(1..3)'s slots
 * among them, which may be below STEX__NEAR_BINDINGS too. */
static stex_fast_binding *thread_copy(struct stex_exec *e, uint32_t i)
{
    stex_fast_binding *far = (stex_fast_binding *)(uintptr_t)e->fast.b;
    return i < STEX__NEAR_BINDINGS ? &e->fast.near[i] : &far[i - STEX__NEAR_BINDINGS];
}

void exec_fast_disable(struct stex_exec *e)
{
    for (uint32_t i = 0; i < STEX__NEAR_BINDINGS + e->fast.slots.total; i++) {
        stex_fast_binding *f = thread_copy(e, i);
        f->load_tag = f->store_tag = EXEC_TAG_NONE;
        f->buf_load = f->buf_store = 0;
        f->site_load_tag = f->site_store_tag = EXEC_TAG_NONE;
        f->site_buf_load = f->site_buf_store = 0;
    }
}

void exec_fast_disable_recorded(struct stex_exec *e)
{
    for (uint32_t i = 0; i < STEX__NEAR_BINDINGS + e->fast.slots.total; i++) {
        stex_fast_binding *f = thread_copy(e, i);
        if (!f->race)
            continue;
        f->site_load_tag = f->load_tag == EXEC_TAG_NONE ? EXEC_TAG_NONE
                                                        : f->load_tag & ~STEX__TAG_RACE;
        f->site_store_tag = f->store_tag == EXEC_TAG_NONE ? EXEC_TAG_NONE
                                                          : f->store_tag & ~STEX__TAG_RACE;
        f->site_buf_load = f->buf_load & ~STEX__TAG_RACE;
        f->site_buf_store = f->buf_store & ~STEX__TAG_RACE;
        f->load_tag = f->store_tag = EXEC_TAG_NONE;
        f->buf_load = f->buf_store = 0;
    }
}

void exec_shader_error(const stex_invocation *inv, const char *fmt, ...)
{
    struct stex_exec *e = inv->exec;
    /* WebGPU would not have run this shader at all: from now on no write of
     * the dispatch reaches memory (the slow path drops them). */
    e->dead = e->fast.slow = true;
    exec_fast_disable(e); /* no write may reach memory any more */
    atomic_store_explicit(&((exec_dispatch *)e->ctx)->failed, true, memory_order_relaxed);
    uint64_t wg = e->wg;
    uint32_t lid = inv->local_invocation_index;
    if (e->has_error && (e->err_wg < wg || (e->err_wg == wg && e->err_lid <= lid)))
        return;
    e->has_error = true;
    e->err_wg = wg;
    e->err_lid = lid;
    int n = snprintf(e->err_msg, sizeof e->err_msg, "shader error (workgroup (%u, %u, %u), "
                     "local invocation (%u, %u, %u)): ",
                     inv->workgroup_id[0], inv->workgroup_id[1], inv->workgroup_id[2],
                     inv->local_invocation_id[0], inv->local_invocation_id[1],
                     inv->local_invocation_id[2]);
    if (n < 0 || (size_t)n >= sizeof e->err_msg)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->err_msg + n, sizeof e->err_msg - (size_t)n, fmt, ap);
    va_end(ap);
}
