/* Internal: WGSL's alias analysis (WGSL "Alias Analysis").  A function may
 * not reach one piece of memory two ways when one of them writes it: a call
 * is an error of rule "alias-analysis" when two of its pointer arguments
 * have the same root identifier (the variable they point into, or the
 * caller's pointer parameter they come from) and the callee writes through
 * one and reads or writes through the other, or when a pointer argument
 * points into a module-scope variable that the callee also names, and one
 * of the two accesses is a write.  "Writes" and "reads" include those of the
 * functions the callee calls in turn.  Like WGSL it works by root
 * identifier only: two different elements or members of one variable alias. */
#ifndef STEX_WGSL_ALIAS_H
#define STEX_WGSL_ALIAS_H

#include "wgsl/ast.h"

/* Checks every call of every function of ast (a module that otherwise
 * checks); errors go to d. */
void wg_alias_analysis(const wg_ast *ast, wg_diags *d);

#endif
