/* Internal: the interpreter - a phase executor (dispatch/phase.h) running a
 * program's bytecode for all lanes of each sub-group at once. */
#ifndef STEX_WGSL_INTERP_H
#define STEX_WGSL_INTERP_H

#include "stex/dispatch.h"
#include "wgsl/ir.h"
#include "wgsl/jit.h"

typedef struct wg_exec_program {
    wg_program prog;
    uint32_t width;       /* sub-group width: 1..64 */
    uint64_t max_steps;   /* instructions one sub-group may run in one workgroup */
    char *filename;       /* owned (the module may be destroyed first) */
    /* wg_prepare: the registers an instruction may read before the program
     * has surely written them, as runs (first register, count) that each
     * workgroup zeroes (NULL: every register); every other register is
     * written before it is read */
    uint32_t *zero_runs;
    uint32_t nzero_runs;
    uint32_t id_regs;     /* bit r: builtin id register r (< REG_FIRST_FREE) is read */
    /* wg_optimize: registers const_reg .. const_reg + nconsts hold consts[]
     * in every lane from the workgroup's start; the program never writes them */
    uint32_t *consts;
    uint32_t nconsts, const_reg;
    uint64_t uid;         /* wg_program_uid(): which program a thread's kept registers hold */
    struct wg_locmap *locs; /* the race reports' names of its memory (NULL: none) */
    /* wg_prepare: the program has an OP_SUBGROUP (a subgroup builtin or
     * operation), so its lock-step groups are its sub-groups: the
     * interleaved schedule keeps them `width` wide */
    bool uses_subgroups;
    /* allowed mode (stex_wgsl_options.allowed): the shadows its dispatches
     * keep; the pipeline runs wg_ival_run_workgroup (interp_ival.c) */
    struct stex_allowed *allowed;
    /* --executor jit (jit.h): the compiled program, run by wg_run_workgroup
     * instead of the interpreter for sub-groups of `width` lanes under
     * profile jit_prof (NULL: the interpreter runs it all) */
    struct wg_jit_code *jit;
    wg_jit_fn jit_fn;
    const stex_profile *jit_prof;
} wg_exec_program;

/* A number no other program gets while the process runs. */
uint64_t wg_program_uid(void);

/* Fills xp->zero_regs from xp->prog (false: out of memory).  Before the
 * first wg_run_workgroup; wg_unprepare frees it. */
bool wg_prepare(wg_exec_program *xp);
void wg_unprepare(wg_exec_program *xp);

/* run_workgroup of the executor; user is a wg_exec_program. */
void wg_run_workgroup(const stex_workgroup *w, void *user);
/* phase_executor.site_name: site = instruction index + 1 (stex_lanes.site) ->
 * "file:line:col" */
bool wg_site_name(void *user, uint32_t site, char *buf, size_t size);

#endif
