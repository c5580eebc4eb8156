/* Where Dawn's const evaluator departs from WGSL's rules: the named
 * exceptions of const_exceptions.h and explains(), which decides whether
 * one of them accounts for a row where stex and Dawn differ.  Shared by the
 * math layer's replay (tests/math/test_const.c) and the WGSL front end's
 * (tests/wgsl/test_wgsl_const.c), so both name the same differences.
 * Needs <math.h>, <string.h> and stex/math.h. */
#ifndef STEX_TESTS_CONST_EXPLAIN_H
#define STEX_TESTS_CONST_EXPLAIN_H

/* kind: how a row is recognised - NEGZERO: Dawn's value is stex's with every
 * -0 (argument and result) read as +0; FMA_TWICE: Dawn's fma is a multiply
 * and an add, each rounded; ULP1: every f32 result within 1 ulp; OP: any
 * other difference in the named op/signature. */
typedef enum { NEGZERO, FMA_TWICE, ULP1, OP } kind;

typedef struct exception {
    kind kind;
    const char *op, *sig;  /* "*": any */
    unsigned max_rows;     /* per file */
    const char *why;
} exception;

static uint32_t no_negzero(uint32_t u)
{
    return u == 0x80000000u ? 0u : u;
}

static long ulp_distance(uint32_t a, uint32_t b)
{
    long ia = (a & 0x80000000u) ? -(long)(a & 0x7fffffffu) : (long)a;
    long ib = (b & 0x80000000u) ? -(long)(b & 0x7fffffffu) : (long)b;
    return ia > ib ? ia - ib : ib - ia;
}

static float fbits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Does exception e explain the row? */
static int explains(const exception *e, stex_math_fn fn, const char *op, const char *sig,
                    const char *src, const uint32_t *in, int nin, int dev_err,
                    const uint32_t *want, int nout, stex_status st, const uint32_t *got)
{
    if (strcmp(e->op, "*") && (strcmp(e->op, op) || strcmp(e->sig, sig)))
        return 0;
    switch (e->kind) {
    case NEGZERO: {
        if (dev_err)
            return 0;
        uint32_t in0[8], out0[8] = {0};
        for (int i = 0; i < nin; i++)
            in0[i] = strstr(sig, "f32") ? no_negzero(in[i]) : in[i];
        if (stex_math_eval_const(STEX_CONST_WGSL, fn, !strcmp(src, "const-abstract"), in0, out0) !=
            STEX_OK)
            return 0;
        for (int i = 0; i < nout; i++)
            if (no_negzero(out0[i]) != want[i])
                return 0;
        return 1;
    }
    case FMA_TWICE: {
        if (strcmp(op, "fma"))
            return 0;
        float v = fbits(in[0]) * fbits(in[1]);
        if (dev_err) /* the product alone overflows */
            return !isfinite(v);
        v = v + fbits(in[2]);
        uint32_t u;
        memcpy(&u, &v, sizeof u);
        return no_negzero(u) == want[0];
    }
    case ULP1:
        if (dev_err || st != STEX_OK || !strstr(sig, "->f32"))
            return 0;
        for (int i = 0; i < nout; i++)
            if (ulp_distance(got[i], want[i]) > 1)
                return 0;
        return 1;
    case OP:
        return 1;
    }
    return 0;
}

static const exception EXCEPTIONS[] = {
#include "const_exceptions.h"
};

#endif
