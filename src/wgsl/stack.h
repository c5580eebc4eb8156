/* Internal: how deep the front end's recursive passes (lowering, the
 * uniformity analysis, type resolution) may go on the calling thread.  The
 * parser's limits (ast.h) bound one function's nesting, but calls inline
 * into each other and declarations chain, so each recursive step asks
 * wg_stack_ok() and the pass stops with a [limits] error instead of running
 * off the thread's stack - whatever thread creates the module (a Node.js
 * thread, an OpenMP worker, a small-stack thread of an embedder). */
#ifndef STEX_WGSL_STACK_H
#define STEX_WGSL_STACK_H

#include <stdbool.h>
#include <stdint.h>

/* Bytes left unused at the end of the stack: what one step between two
 * checks may take (a diagnostic, a libc call), generously. */
enum { WG_STACK_RESERVE = 256 * 1024 };

/* Marks the start of a compile on this thread (nested calls keep the
 * outermost mark); returns the previous mark for wg_stack_end. */
uintptr_t wg_stack_begin(void);
void wg_stack_end(uintptr_t saved);
/* Whether the current frame is still above the reserve. */
bool wg_stack_ok(void);

#endif
