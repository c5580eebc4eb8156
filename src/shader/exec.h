/* Internal: the engine state a kernel's builtins read (struct stex_exec) and
 * the per-dispatch view of each binding.  Shared by shader/, dispatch/, race/. */
#ifndef STEX_SHADER_EXEC_H
#define STEX_SHADER_EXEC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shader/fast.h"
#include "stex/layout.h"
#include "stex/race.h"

/* Tags compared in one instruction by the builtins: a mismatch sends the call
 * to the slow path that names the WGSL rule. */
#define EXEC_TAG_NONE 0xffffu
#define EXEC_STORE_TAG(dim, scalar) ((uint32_t)(dim) | ((uint32_t)(scalar) << 8))

typedef struct exec_binding {
    /* what the inline builtins read (tags, bounds, codecs, address tables):
     * each thread starts from a copy of it (exec_dispatch.fb) */
    stex_fast_binding f;
    stex_binding_type type; /* 0 = nothing bound at this slot */
    uint32_t ref;           /* STEX_BINDING(group, binding) of this slot */
    stex_view_dimension dim;
    stex_access access;
    stex_format format;
    uint32_t bpp;
    stex_texture_view *view;
    stex_view_access acc;        /* the layout layer's fast texel address */
    stex_texture *texture;
    uint32_t mip, mip_count, base_layer; /* the view's subresources */
    stex_vec4 zero_value;        /* the decoded zero texel (OOB load policy ZERO) */
    const stex_sampler *sampler;
    stex_buffer *buffer;
    uint8_t *bytes;              /* buffer: data + offset */
    uint64_t words;              /* buffer: 32-bit words in the bound range */
    uint64_t offset;             /* buffer: byte offset of the range */
    uint8_t *mem_base;           /* texture memory / buffer data (live) */
    size_t mem_size;
    uint8_t *snap_base;          /* SNAPSHOT visibility: copy at dispatch start */
    struct race_shadow *shadow;  /* race detection: NULL when off */
} exec_binding;

/* The three barrier builtins, by the memory each orders (the race
 * detector's classes of memory). */
typedef enum exec_barrier {
    EXEC_BARRIER_WORKGROUP = RACE_CLASS_WORKGROUP, EXEC_BARRIER_STORAGE = RACE_CLASS_BUFFER,
    EXEC_BARRIER_TEXTURE = RACE_CLASS_TEXTURE, EXEC_BARRIER_COUNT = RACE_CLASS_COUNT
} exec_barrier;
/* "workgroupBarrier", "storageBarrier", "textureBarrier". */
const char *exec_barrier_name(exec_barrier kind);

/* Where a barrier builtin goes: the runner of the workgroup's invocations
 * (the dispatch layer's fibers for a C kernel) sets this hook in the
 * thread's stex_exec; NULL when the pipeline runs as a plain loop. */
typedef void (*exec_barrier_fn)(const stex_invocation *inv, exec_barrier kind);

struct race_thread;
struct fiber_pool;
struct phase_state;

/* What the builtins and the runners read of a dispatch's options
 * (stex_dispatch_options, dispatch.h, has the rest). */
typedef struct exec_options {
    int schedule;                /* stex_schedule: the order workgroups and invocations run in */
    uint64_t seed;
    stex_visibility visibility;
    stex_oob_load oob_load;
    const void *params;          /* stex_invocation.params */
    stex_store_observer_fn store_observer;
    void *store_observer_user;
} exec_options;

typedef struct exec_dispatch {
    const struct stex_pipeline *pipeline; /* the dispatch layer's */
    stex_kernel_fn kernel;
    exec_binding *b;
    stex_fast_binding *fb;       /* the same bindings, as the inline fast path reads them */
    uint32_t nb;                 /* entries in b and fb: slots.total */
    stex_slots slots;            /* where each group's bindings start in b and fb */
    const stex_profile *profile;
    exec_options opt;            /* from stex_dispatch_options */
    uint32_t wg_size[3], wg_invocations;
    uint32_t num_wg[3];
    uint64_t total_wg;
    uint32_t wg_memory_size;
    bool slow;                   /* race detection or snapshot visibility */
    bool barriers;               /* pipeline uses barriers */
    atomic_bool failed;          /* some thread hit a shader error */
    int threads;                 /* OpenMP threads running the dispatch */
    struct race_dispatch *race;
    struct stex_cancel *cancel;  /* stex_dispatch_options.cancel (NULL: none) */
    /* stex_dispatch_options.after_phase and its user (NULL: none) */
    void (*after_phase)(void *user, const uint32_t workgroup_id[3], uint32_t phase, bool last);
    void *after_phase_user;
} exec_dispatch;

/* Per-thread engine state; inv->exec points here. */
struct stex_exec {
    stex_exec_fast fast;         /* first: the inline builtins read it (shader.h) */
    const exec_dispatch *ctx;
    exec_binding *b;             /* ctx->b, by slot (fast.slots) */
    bool dead;                   /* a shader error happened: no more writes */
    uint64_t wg;                 /* linear workgroup index running now */
    /* first shader error of this thread (smallest workgroup, invocation) */
    bool has_error;
    uint64_t err_wg;
    uint32_t err_lid;
    char err_msg[512];
    /* workgroup memory */
    uint8_t *wg_mem;
    /* barriers: the phase service (dispatch/phase.h), fibers for C kernels */
    exec_barrier_fn barrier;     /* the builtins' way to the runner (NULL: none) */
    struct phase_state *phase;
    struct fiber_pool *fibers;
    /* snapshot visibility: this workgroup's own writes */
    struct overlay *overlay;
    /* race detection */
    struct race_thread *race;
    uint32_t race_key;           /* summary key of invocation 0 of the running workgroup */
    /* textureLoad's windows (shader/window.h), allocated at first use */
    struct stex_windows *windows;
};

/* The view's first layer in its texture (a 3d view has none: 0). */
static inline uint64_t exec_layer0(const exec_binding *b)
{
    return b->dim == STEX_VIEW_DIMENSION_3D ? 0 : b->base_layer;
}

/* Records a shader-creation error found while running (shader/error.c). */
void exec_shader_error(const stex_invocation *inv, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;


/* Snapshot visibility (shader/visibility.c): this workgroup's writes. */
struct overlay;
struct overlay *overlay_create(void);
void overlay_destroy(struct overlay *o);
void overlay_clear(struct overlay *o);
void overlay_put(struct overlay *o, const uint8_t *live, const void *bytes, uint32_t n);
/* Copies the bytes this workgroup wrote at `live`; false if it wrote none. */
bool overlay_get(const struct overlay *o, const uint8_t *live, void *bytes, uint32_t n);

/* Where a read of `live` (n bytes of binding b) comes from under the visibility mode. */
const uint8_t *exec_visible(struct stex_exec *e, const exec_binding *b, const uint8_t *live,
                            uint32_t n, uint8_t *tmp);
/* Record a write for the visibility mode (SNAPSHOT keeps the workgroup's own writes). */
void exec_wrote(struct stex_exec *e, const uint8_t *live, const void *bytes, uint32_t n);

/* This thread's copy of the binding at `slot` as the inline builtins see it. */
static inline const stex_fast_binding *exec_fast_binding(const struct stex_exec *e, uint32_t slot)
{
    /* near[] holds @group(0)'s first bindings; a slot of @group(1..3) may be
     * below STEX__NEAR_BINDINGS too */
    return slot < STEX__NEAR_BINDINGS && slot < e->fast.slots.count[0] ? &e->fast.near[slot]
                                                                       : &e->fast.b[slot];
}

/* The binding that reference `ref` (STEX_BINDING) names, or an entry of
 * type 0 (nothing bound) when there is none. */
const exec_binding *exec_binding_at(const struct stex_exec *e, uint32_t ref);

/* stex_binding_name in a buffer that lives to the end of the enclosing block. */
#define EXEC_REF(ref) stex_binding_name((ref), (char[32]){0})

/* Clears the load/store tags of this thread's binding copies: every texture
 * and buffer access then goes out of line (see stex_exec_fast). */
void exec_fast_disable(struct stex_exec *e);
/* Sends only the bindings the race summary records out of line, keeping
 * their tags for the lane word forms (stex_fast_binding.site_*): a race
 * summary that keeps sites and nothing else to slow the dispatch. */
void exec_fast_disable_recorded(struct stex_exec *e);

#endif
