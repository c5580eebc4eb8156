/* Internal: WGSL's uniformity analysis (WGSL 14.2).  workgroupBarrier,
 * storageBarrier, textureBarrier and workgroupUniformLoad must be reached
 * by every invocation of a workgroup together: a call in control flow that
 * depends on a non-uniform value (a branch on local_invocation_id, a loop
 * that some invocations leave early, code after a return some invocations
 * took) is a compile error with rule "uniformity".  The analysis walks the
 * entry point's syntax tree (user functions analysed at each call, as
 * lowering inlines them), tracking for every local whether its value may
 * differ between invocations, and whether control flow may. Sources of
 * non-uniformity: local_invocation_id/index and global_invocation_id, reads
 * of var<workgroup>, var<private> and read_write storage (buffers and
 * textures), atomics' results; values made in non-uniform control flow.
 * workgroupUniformLoad's result is uniform; its pointer, and
 * subgroupShuffleUp/Down/Xor's delta or mask, must be. A function-scope
 * variable's value is that of the assignments reaching the statement (WGSL
 * "Function-scope Variable Value Analysis"): a whole-variable store
 * replaces it on its path, paths meet after if, switch and loop (a loop's
 * breaks, a 'continuing' block's continues, a function's returns), code no
 * path reaches is not analysed.  A pointer (a let, a ptr parameter) is the
 * memory view it was made from, its indices' uniformity taken where it is
 * made ("Pointer Desugaring").  As WGSL, it is conservative: once a loop or
 * switch is left early by some invocations, or a function returned early by
 * some, the rest of the function is non-uniform. */
#ifndef STEX_WGSL_UNIFORM_H
#define STEX_WGSL_UNIFORM_H

#include "wgsl/ast.h"

/* Checks entry point `entry` of ast; errors go to d. */
void wg_uniformity(const wg_ast *ast, const wg_decl *entry, bool fragment, wg_diags *d);

#endif
