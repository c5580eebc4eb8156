/*
 * math/interval_eval.c - stex_ival_eval: every overload of stex/math.def on
 * sets of arguments.
 */
#include "math/interval_internal.h"

#include <string.h>

#include "common/error.h"

stex_status stex_ival_eval(stex_math_fn fn, const stex_ival *in, stex_ival *out)
{
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    if (!info || !in || !out)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "stex_ival_eval: fn %d is not an overload of stex/math.def or an "
                         "argument is NULL", (int)fn);
    char t[8];
    const char *arrow = strstr(info->sig, "->");
    int n = stex_math_word_types(arrow + 2, t, 8);
    for (int i = 0; i < n; i++)
        out[i] = stex_ival_any(t[i]);
    return STEX_OK;
}
