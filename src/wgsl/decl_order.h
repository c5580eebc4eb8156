/* Internal: the order Dawn's front end resolves declarations in (decl_order.c). */
#ifndef STEX_WGSL_DECL_ORDER_H
#define STEX_WGSL_DECL_ORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "wgsl/ast.h"

/* The indices of ast's declarations, each after every module-scope
 * declaration it names, otherwise in source order (malloc'd, ast->n of
 * them); NULL on no memory or a cycle of names (an invalid module). */
uint32_t *wg_decl_order(const wg_ast *ast);

enum { WG_CYCLE_SHOWN = 8 }; /* functions of a cycle named in its message */

/* A cycle of calls between two or more functions (WGSL forbids recursion;
 * a function calling itself is left to lowering): true with the first
 * cycle found - path[0..*npath) the functions' declaration indices, each
 * calling the next and the last calling path[0] at *at (at most
 * WG_CYCLE_SHOWN of them). */
bool wg_call_cycle(const wg_ast *ast, uint32_t *path, uint32_t *npath, wg_loc *at);

#endif
