/* Internal: the order Dawn's front end resolves declarations in (decl_order.c). */
#ifndef STEX_WGSL_DECL_ORDER_H
#define STEX_WGSL_DECL_ORDER_H

#include <stdint.h>

#include "wgsl/ast.h"

/* The indices of ast's declarations, each after every module-scope
 * declaration it names, otherwise in source order (malloc'd, ast->n of
 * them); NULL on no memory or a cycle of names (an invalid module). */
uint32_t *wg_decl_order(const wg_ast *ast);

#endif
