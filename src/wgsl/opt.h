/* Internal: the optimisation pass over a lowered program (opt.c), run once
 * per pipeline between lowering and wg_prepare. */
#ifndef STEX_WGSL_OPT_H
#define STEX_WGSL_OPT_H

#include <stdbool.h>

#include "wgsl/interp.h"

/* Rewrites xp->prog into a program with the same effects and results and
 * fewer instructions, and sets xp's constant registers (consts, nconsts,
 * const_reg).  False: out of memory (the program is then left as it was). */
bool wg_optimize(wg_exec_program *xp);

/* Whether pipelines are optimised (default true).  Tests turn it off to
 * compare an optimised program with the unoptimised one; set it before
 * creating pipelines, not while another thread creates one. */
void wg_optimize_set_enabled(bool on);
bool wg_optimize_enabled(void);

/* The registers instruction i writes: *count from *first (UINT32_MAX: every
 * register from *first on; 0: none); false for an opcode the pass does not
 * describe. */
bool wg_opt_written(wg_ins *i, uint32_t *first, uint32_t *count);

/* The profile's compiler rewrites of f32 arithmetic on operands known to be
 * constant (stex_math_float_rewrite_rule; opt_lavapipe.c), applied to
 * xp->prog before wg_optimize; nothing for a profile without them. */
void wg_opt_float_rewrites(wg_exec_program *xp, const stex_profile *p);

/* The registers instruction i reads: returns how many ranges (at most 6),
 * range k being count[k] registers from first[k] (UINT32_MAX: every
 * register from first[k] on); -1 for an opcode the pass does not describe. */
int wg_opt_read(wg_ins *i, uint32_t *first, uint32_t *count);

/* The nvidia profile's rewrites (opt_nvidia.c), called by wg_opt_float_rewrites. */
void wg_opt_nvidia(wg_exec_program *xp);

#endif
