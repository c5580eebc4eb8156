/* `stex eval` of an expression that stex/math.def does not list: through the
 * WGSL front end and interpreter (eval_wgsl.c). */
#ifndef STEX_CLI_EVAL_WGSL_H
#define STEX_CLI_EVAL_WGSL_H

#include <stdint.h>

#include "stex/convert.h"
#include "stex/status.h"

/* The argument and result words of signature sig ("f32,vec2<u32>->f32"). */
stex_status eval_wgsl_words(const char *sig, unsigned *nin, unsigned *nout);

/* expr over a, b, c, d of signature sig, on one invocation under profile:
 * in[] holds the argument words, out[] receives the result's.  A shader
 * the expression breaks: STEX_VALIDATION_ERROR (or another status) with
 * *diagnostics the front end's messages (malloc'ed, or NULL). */
stex_status eval_wgsl(const char *expr, const char *sig, stex_profile_id profile,
                      const uint32_t *in, uint32_t *out, char **diagnostics);

#endif
