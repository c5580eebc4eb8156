/* Internal: barriers as an engine service.
 *
 * Between two barriers the invocations of a workgroup run a *phase*.  An
 * executor - the fiber runner for C kernels (fiber.c), or an interpreter that
 * keeps each invocation's state itself - runs every invocation until it
 * reaches a barrier or returns, tells the service which, and ends the phase:
 *
 *     phase_executor x = {run, user};      // at pipeline creation
 *     pipeline_create_with_executor(dev, &desc, &x, &p);
 *
 *     static void run(const stex_workgroup *w, void *user) {
 *         struct stex_exec *e = w->inv->exec;
 *         for (;;) {
 *             const uint32_t *order = phase_order(e);   // this phase's order
 *             for each lid in order:                    // or lanes in lock-step
 *                 stex_invocation inv; phase_invocation(w, lid, &inv);
 *                 run lid with &inv until
 *                     a barrier: phase_arrive(e, lid, EXEC_BARRIER_*, site);
 *                     or return: phase_return(e, lid);
 *             if (phase_end(e) != PHASE_NEXT) return;   // done, or a shader error
 *         }
 *     }
 *
 * phase_end checks WGSL's uniformity rule (every invocation at the same
 * barrier, or all returned), closes the race detector's segment of the memory
 * the barrier orders, and orders memory.  The engine calls phase_begin
 * before each workgroup; the executor must report every invocation once per
 * phase, and stop calling the builtins for the workgroup once phase_end
 * returned PHASE_DONE or PHASE_ERROR. */
#ifndef STEX_DISPATCH_PHASE_H
#define STEX_DISPATCH_PHASE_H

#include <stdint.h>

#include "shader/exec.h"
#include "stex/dispatch.h"

/* Runs every invocation of one workgroup (w->inv is the template: workgroup
 * ids, params, var<workgroup>, exec) phase by phase, as above. */
typedef struct phase_executor {
    void (*run_workgroup)(const stex_workgroup *w, void *user);
    void *user;
    /* optional: frees `user` when the pipeline is destroyed (the WGSL
     * interpreter's program belongs to its pipeline) */
    void (*destroy)(void *user);
    /* optional: the executor passes each access's site to the race detector
     * (stex_lanes.site); this writes a site's "file:line:col" into buf
     * (false: unknown), for the race report */
    bool (*site_name)(void *user, uint32_t site, char *buf, size_t size);
    /* optional: names a memory location in the shader's terms for the race
     * report (race_geometry.location_name): byte `byte` of binding `ref`
     * (buffers: from the start of the bound range), of var<workgroup>
     * memory, or a storage texture's variable; false: unknown */
    bool (*location_name)(void *user, stex_race_memory m, uint32_t ref, uint64_t byte,
                          char *buf, size_t size);
} phase_executor;

/* stex_pipeline_create with an executor instead of a kernel: desc->kernel
 * and desc->workgroup are ignored; desc->uses_barriers must be set if the
 * executor ends a phase at a barrier (else that barrier is a shader error,
 * as a C kernel's would be). */
stex_status pipeline_create_with_executor(stex_device *d, const stex_pipeline_desc *desc,
                                          const phase_executor *x, stex_pipeline **out);

/* Fills *inv for local invocation `lid` of the workgroup. */
void phase_invocation(const stex_workgroup *w, uint32_t lid, stex_invocation *inv);

/* The order to run the current phase's invocations in (local indices): the
 * schedule's, a new shuffle per phase under SHUFFLED. */
const uint32_t *phase_order(struct stex_exec *e);

/* The interleaved schedule (STEX_SCHEDULE_INTERLEAVED): true, with *seed
 * the current phase's seed - a function of (seed, workgroup, phase), never
 * of the thread - for an executor that varies the lock-step groups and
 * their interleaving between barriers; false under every other schedule. */
bool phase_interleave(struct stex_exec *e, uint64_t *seed);

/* Invocation `lid` stopped at a barrier of `kind`; `site` names which barrier
 * (an instruction index; 0 for C kernels, which are told apart by kind only). */
void phase_arrive(struct stex_exec *e, uint32_t lid, exec_barrier kind, uint32_t site);
/* Invocation `lid` returned. */
void phase_return(struct stex_exec *e, uint32_t lid);
/* phase_return for local indices first .. first + count - 1 at once */
void phase_return_range(struct stex_exec *e, uint32_t first, uint32_t count);

typedef enum phase_result {
    PHASE_NEXT,  /* all at the same barrier: the phase ended, run the next one */
    PHASE_DONE,  /* all returned: the workgroup is done */
    PHASE_ERROR  /* uniformity broken (a shader error is recorded): stop the workgroup */
} phase_result;
phase_result phase_end(struct stex_exec *e);


/* ---- the engine's side (dispatch.c) ---- */
struct phase_state *phase_state_create(uint32_t invocations);
void phase_state_destroy(struct phase_state *ps);
/* A new workgroup: phase 0, nothing reported. */
void phase_begin(struct stex_exec *e, const stex_workgroup *w);

#endif
