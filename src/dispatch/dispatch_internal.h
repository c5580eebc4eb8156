/* Internal: pipelines, bind groups, schedules and fibers of the dispatch layer
 * (the phase service has its own header, phase.h). */
#ifndef STEX_DISPATCH_INTERNAL_H
#define STEX_DISPATCH_INTERNAL_H

#include <stdint.h>

#include "dispatch/phase.h"
#include "shader/exec.h"
#include "stex/dispatch.h"

struct stex_pipeline {
    stex_device *dev;
    stex_kernel_fn kernel;
    stex_workgroup_fn workgroup; /* the kernel as a workgroup loop, or NULL */
    phase_executor executor;     /* runs each workgroup itself (phase.h), or {NULL} */
    uint32_t wg[3], invocations;
    stex_layout_entry *entries;  /* sorted by (group, binding) */
    uint32_t n;
    stex_slots slots;            /* where each group's bindings go in a dispatch's table */
    uint32_t nb;                 /* slots.total */
    uint32_t groups;             /* bit g: the layout has @group(g) */
    uint32_t wg_memory_size;
    bool barriers;
    bool shared_layout;          /* stex_pipeline_desc.shared_layout */
    char label[64];
};

/* Does bind group g serve group index `group` of pipeline p: made for it,
 * or for an equal group of another shared layout (bind_group.c)? */
bool bind_group_compatible(const stex_bind_group *g, const stex_pipeline *p, uint32_t group);

struct stex_bind_group {
    const stex_pipeline *p;
    uint32_t group;              /* the @group whose layout it follows */
    uint32_t first, n;           /* its layout entries: p->entries[first .. first + n) */
    stex_bind_group_entry *e;    /* one per layout entry, same order; buffer size resolved */
    uint32_t dynamic_count;      /* entries with has_dynamic_offset */
};

/* ---- schedules (schedule.c) ---- */

/* A seeded bijection of [0, n) computed on the fly (no table): a Feistel
 * network on the next power of four, cycle-walked into range. */
typedef struct perm {
    uint64_t n, mask;
    unsigned half_bits;
    uint64_t keys[4];
    stex_schedule kind;
} perm;

void perm_init(perm *p, uint64_t n, stex_schedule kind, uint64_t seed);
uint64_t perm_at(const perm *p, uint64_t i);
uint64_t sched_mix(uint64_t a, uint64_t b);
/* Fisher-Yates shuffle of order[0..n) driven by an xorshift64* stream seeded
 * with `seed` (cheap enough to run for every workgroup). */
void sched_shuffle(uint32_t *order, uint32_t n, uint64_t seed);
/* The invocations of a workgroup (local indices) in the schedule's order:
 * 0, 1, ...; reversed; or shuffled with `seed` (shuffled, interleaved). */
void sched_invocation_order(uint32_t *order, uint32_t n, stex_schedule kind, uint64_t seed);

/* ---- fibers (fiber.c): a C kernel's invocations meeting at barriers ---- */

struct fiber_pool *fiber_pool_create(uint32_t invocations);
void fiber_pool_destroy(struct fiber_pool *f);
/* The executor (phase.h) of pipelines with barriers and a C kernel. */
void fiber_run_workgroup(const stex_workgroup *w, void *user);
/* The barrier builtins' hook (exec_barrier_fn) while fibers run a workgroup. */
void fiber_barrier(const stex_invocation *inv, exec_barrier kind);

/* ---- race detection (race_bind.c) ---- */

/* The detector's state for this dispatch: a shadow for every writable
 * binding (exec_binding.shadow) and the fast bindings armed for the inline
 * summary marks. */
stex_status dispatch_race_begin(stex_race_detector *rd, exec_dispatch *ctx,
                                struct race_dispatch **out);
void dispatch_race_free(exec_dispatch *ctx, struct race_dispatch *d);

/* ---- bind group preparation (bind_group.c) ---- */

/* The usage scope of a dispatch with the groups set at each index
 * (validated by validate_groups): writable storage meets no read-only use
 * of the same subresource, nor another writable use of it. */
stex_status bind_group_check_scope(const stex_pipeline *p, const stex_bound_group *groups);
/* The indirect buffer of dispatchWorkgroupsIndirect against the writable
 * bindings of the same usage scope. */
stex_status bind_group_check_indirect(const stex_pipeline *p, const stex_bound_group *groups,
                                      const stex_buffer *indirect);
/* Fills ctx->b / ctx->fb for a dispatch from the groups set at each index
 * (validated by the caller). */
stex_status bind_group_prepare(const stex_bound_group *groups, exec_dispatch *ctx);
void bind_group_release(exec_dispatch *ctx);

#endif
