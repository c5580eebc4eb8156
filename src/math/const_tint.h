/*
 * math/const_tint.h - const-expressions under STEX_CONST_TINT (const_tint.c).
 */
#ifndef STEX_MATH_CONST_TINT_H
#define STEX_MATH_CONST_TINT_H

#include <stdbool.h>

#include "math/ops.h"

/* fn on finite, -0-free arguments as Dawn's front end computes it; sets
 * *handled = false (and returns STEX_OK) for an operation whose value is
 * WGSL's, exact.  The caller checks that the results are finite. */
stex_status stex_m_const_tint(stex_math_fn fn, const uint32_t *in, uint32_t *out,
                              bool *handled);

#endif
