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

#endif
