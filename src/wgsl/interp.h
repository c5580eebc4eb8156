/* Internal: the interpreter - a phase executor (dispatch/phase.h) running a
 * program's bytecode for all lanes of each sub-group at once. */
#ifndef STEX_WGSL_INTERP_H
#define STEX_WGSL_INTERP_H

#include "stex/dispatch.h"
#include "wgsl/ir.h"

typedef struct wg_exec_program {
    wg_program prog;
    uint32_t width;       /* sub-group width: 1..64 */
    uint64_t max_steps;   /* instructions one sub-group may run in one workgroup */
    char *filename;       /* owned (the module may be destroyed first) */
} wg_exec_program;

/* run_workgroup of the executor; user is a wg_exec_program. */
void wg_run_workgroup(const stex_workgroup *w, void *user);
/* phase_executor.site_name: site = instruction index + 1 (stex_lanes.site) ->
 * "file:line:col" */
bool wg_site_name(void *user, uint32_t site, char *buf, size_t size);

#endif
