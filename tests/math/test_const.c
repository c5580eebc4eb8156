/* Replays the const and const-abstract rows measured through Dawn (tests/
 * data/wgslexpr-const-{lavapipe,nvidia}.tsv.gz: op, type, source, inputs,
 * output) through stex_math_eval_const: a value must match bit for bit, an
 * `error: ...` row must be an error (the wording is not compared).
 *
 * Where Dawn's evaluator departs from WGSL's rules the rows are named in
 * EXCEPTIONS below, with the number of rows each explains; any other
 * difference, or more rows than recorded, fails.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>
#include <zlib.h>

#include "stex/math.h"

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
        if (stex_math_eval_const(fn, !strcmp(src, "const-abstract"), in0, out0) != STEX_OK)
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

static int parse_hex_list(const char *s, uint32_t *out, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        out[n++] = (uint32_t)strtoul(s, &end, 16);
        if (end == s)
            return -1;
        s = end;
        if (*s == ',')
            s++;
    }
    return n;
}

static void replay(const char *name)
{
    const char *dir = getenv("STEX_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/wgslexpr-const-%s.tsv.gz", dir ? dir : "tests/data", name);
    gzFile f = gzopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    enum { NEXC = sizeof EXCEPTIONS / sizeof EXCEPTIONS[0] };
    unsigned exc_rows[NEXC + 1] = {0};
    unsigned rows = 0, exact = 0, errors_ok = 0, bad = 0;
    char line[4096];
    while (gzgets(f, line, sizeof line)) {
        line[strcspn(line, "\r\n")] = 0;
        char *op = strtok(line, "\t"), *sig = strtok(NULL, "\t"), *src = strtok(NULL, "\t");
        char *inputs = strtok(NULL, "\t"), *output = strtok(NULL, "\t");
        assert_non_null(output);
        stex_math_fn fn;
        if (!stex_math_fn_find(op, sig, &fn))
            continue; /* oob rows on literal indices: not a math.def operation */
        rows++;
        uint32_t in[8] = {0}, want[8] = {0}, got[8] = {0};
        if (parse_hex_list(inputs, in, 8) < 0)
            fail_msg("bad inputs %s", inputs);
        int dev_err = !strncmp(output, "error:", 6);
        int nout = dev_err ? 0 : parse_hex_list(output, want, 8);
        stex_status st = stex_math_eval_const(fn, !strcmp(src, "const-abstract"), in, got);
        int ok;
        if (dev_err)
            ok = st == STEX_SHADER_ERROR;
        else
            ok = st == STEX_OK && !memcmp(got, want, (size_t)nout * 4);
        if (ok) {
            exact += !dev_err;
            errors_ok += dev_err;
            continue;
        }
        size_t k;
        int nin = (int)stex_math_fn_get(fn)->in_words;
        for (k = 0; k < NEXC; k++)
            if (explains(&EXCEPTIONS[k], fn, op, sig, src, in, nin, dev_err, want, nout, st,
                         got))
                break;
        exc_rows[k]++;
        if (k == NEXC || getenv("STEX_CONST_SHOW"))
            fprintf(stderr, "[%s] %s %s %s (%s): Dawn %s, stex %s %08x\n", name, op, sig, src,
                    inputs, output, st == STEX_OK ? "" : stex_last_error(), got[0]);
    }
    gzclose(f);
    printf("[%s] const rows: %u, values bit-exact %u, errors matched %u\n", name, rows, exact,
           errors_ok);
    for (size_t k = 0; k < NEXC; k++) {
        printf("  exception %-12s %-18s %3u rows (at most %u): %s\n", EXCEPTIONS[k].op,
               EXCEPTIONS[k].sig, exc_rows[k], EXCEPTIONS[k].max_rows, EXCEPTIONS[k].why);
        if (exc_rows[k] > EXCEPTIONS[k].max_rows)
            bad = 1;
    }
    if (exc_rows[NEXC]) {
        fprintf(stderr, "[%s] %u const rows differ without a named exception\n", name,
                exc_rows[NEXC]);
        bad = 1;
    }
    assert_false(bad);
}

static void test_lavapipe(void **state)
{
    (void)state;
    replay("lavapipe");
}

static void test_nvidia(void **state)
{
    (void)state;
    replay("nvidia");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lavapipe),
        cmocka_unit_test(test_nvidia),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
