/*
 * math/lavapipe.c - lavapipe's approximations of the inexact builtins, as
 * Mesa's gallivm (lp_bld_arit.c) builds them for llvmpipe.
 */
#include "math/ops.h"

const stex_math_approx stex_math_approx_lavapipe = {
    .source = "Mesa 25.0.7 gallivm (lp_bld_arit.c), fitted to lavapipe/wgslexpr.tsv",
};
