/*
 * math/fn.c - the overload table: one entry per line of stex/math.def, the
 * only list of the operations and builtins the math layer evaluates.
 */
#include <string.h>

#include "math/ops.h"

static const stex_math_fn_info fns[STEX_MATH_FN_COUNT] = {
#define X(id, op, sig, expr, nin, nout) [STEX_MATH_##id] = {op, sig, expr, nin, nout},
#include "stex/math.def"
#undef X
};

const stex_math_fn_info *stex_math_fn_get(stex_math_fn fn)
{
    return (unsigned)fn < STEX_MATH_FN_COUNT ? &fns[fn] : NULL;
}

bool stex_math_fn_find(const char *op, const char *sig, stex_math_fn *out)
{
    for (int i = 0; i < STEX_MATH_FN_COUNT; i++) {
        if (op && sig && !strcmp(fns[i].op, op) && !strcmp(fns[i].sig, sig)) {
            *out = (stex_math_fn)i;
            return true;
        }
    }
    return false;
}


int stex_math_word_types(const char *types, char *out, int max)
{
    int n = 0;
    while (*types && *types != '-' && n < max) {
        int count = 1;
        if (!strncmp(types, "vec", 3) && types[3] >= '2' && types[3] <= '4' && types[4] == '<') {
            count = types[3] - '0';
            types += 5;
        }
        char t = !strncmp(types, "bool", 4) ? 'b' : !strncmp(types, "f16", 3) ? 'h' : types[0];
        for (int k = 0; k < count && n < max; k++)
            out[n++] = t;
        while (*types && *types != ',' && *types != '-')
            types++;
        if (*types == ',')
            types++;
    }
    return n;
}
