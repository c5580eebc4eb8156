/* Internal: pipelines, bind groups, schedules and fibers of the dispatch layer. */
#ifndef STEX_DISPATCH_INTERNAL_H
#define STEX_DISPATCH_INTERNAL_H

#include <stdint.h>

#include "shader/exec.h"
#include "stex/dispatch.h"

struct stex_pipeline {
    stex_device *dev;
    stex_kernel_fn kernel;
    stex_workgroup_fn workgroup; /* the kernel as a workgroup loop, or NULL */
    uint32_t wg[3], invocations;
    stex_layout_entry *entries;  /* sorted by (group, binding) */
    uint32_t n;
    stex_slots slots;            /* where each group's bindings go in a dispatch's table */
    uint32_t nb;                 /* slots.total */
    uint32_t groups;             /* bit g: the layout has @group(g) */
    uint32_t wg_memory_size;
    bool barriers;
    char label[64];
};

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

/* ---- fibers (fiber.c): a workgroup whose invocations meet at barriers ---- */

struct fiber_pool *fiber_pool_create(uint32_t invocations);
void fiber_pool_destroy(struct fiber_pool *f);
/* Runs every invocation of the workgroup in `invs` (already filled in) with
 * barriers; false after a uniformity error (recorded in the exec). */
bool fiber_run_workgroup(struct stex_exec *e, stex_invocation *invs, uint32_t n,
                         stex_kernel_fn kernel);

/* ---- bind group preparation (bind_group.c) ---- */

/* Fills ctx->b / ctx->fb for a dispatch from the groups set at each index
 * (validated by the caller); validates the usage scope. */
stex_status bind_group_prepare(const stex_bound_group *groups, exec_dispatch *ctx);
void bind_group_release(exec_dispatch *ctx);

#endif
