/* Replays the const and const-abstract rows measured through Dawn (tests/
 * data/wgslexpr-const-{lavapipe,nvidia}.tsv.gz: op, type, source, inputs,
 * output) through stex_math_eval_const: a value must match bit for bit, an
 * `error: ...` row must be an error (the wording is not compared).
 *
 * Under STEX_CONST_TINT (Dawn's front end, the rule of the lavapipe and
 * nvidia profiles) every row must match.  Under STEX_CONST_WGSL the rows
 * where Dawn departs from WGSL's rules are named in EXCEPTIONS
 * (const_exceptions.h), with the number of rows each explains; any other
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

#include "const_explain.h"
#include "const_zeros.h"
#include "hex_list.h"

static void replay(const char *name, stex_const_rule rule)
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
    zero_table zeros = {.set = false};
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
        bool abstract = !strcmp(src, "const-abstract");
        zero_table before = zeros; /* an error row is left out of the module */
        if (rule == STEX_CONST_TINT) {
            zt_group(&zeros, op, sig, src);
            before = zeros;
            zt_args(&zeros, fn, abstract, in);
        }
        stex_status st = stex_math_eval_const(rule, fn, abstract, in, got);
        if (rule == STEX_CONST_TINT && st == STEX_OK && !dev_err)
            zt_results(&zeros, fn, got);
        if (dev_err)
            zeros = before;
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
        /* under the Tint rule no difference is explained */
        for (k = rule == STEX_CONST_WGSL ? 0 : NEXC; k < NEXC; k++)
            if (explains(&EXCEPTIONS[k], fn, op, sig, src, in, nin, dev_err, want, nout, st,
                         got))
                break;
        exc_rows[k]++;
        if (k == NEXC || getenv("STEX_CONST_SHOW"))
            fprintf(stderr, "[%s] %s %s %s (%s): Dawn %s, stex %s %08x\n", name, op, sig, src,
                    inputs, output, st == STEX_OK ? "" : stex_last_error(), got[0]);
    }
    gzclose(f);
    printf("[%s, %s rule] const rows: %u, values bit-exact %u, errors matched %u\n", name,
           stex_const_rule_name(rule), rows, exact, errors_ok);
    for (size_t k = 0; rule == STEX_CONST_WGSL && k < NEXC; k++) {
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

static void test_lavapipe_tint(void **state)
{
    (void)state;
    replay("lavapipe", STEX_CONST_TINT);
}

static void test_nvidia_tint(void **state)
{
    (void)state;
    replay("nvidia", STEX_CONST_TINT);
}

static void test_lavapipe_wgsl(void **state)
{
    (void)state;
    replay("lavapipe", STEX_CONST_WGSL);
}

static void test_nvidia_wgsl(void **state)
{
    (void)state;
    replay("nvidia", STEX_CONST_WGSL);
}

/* The profiles name their rule: spec WGSL's, the devices reached through
 * Dawn Dawn's. */
static void test_profile_rules(void **state)
{
    (void)state;
    assert_int_equal(stex_math_const_rule(stex_profile_get(STEX_PROFILE_SPEC)), STEX_CONST_WGSL);
    assert_int_equal(stex_math_const_rule(NULL), STEX_CONST_WGSL);
    assert_int_equal(stex_math_const_rule(stex_profile_get(STEX_PROFILE_LAVAPIPE)),
                     STEX_CONST_TINT);
    assert_int_equal(stex_math_const_rule(stex_profile_get(STEX_PROFILE_NVIDIA)),
                     STEX_CONST_TINT);
    uint32_t in[2] = {0x3f800000u, 0}, out[2];
    assert_int_equal(stex_math_eval_const((stex_const_rule)7, STEX_MATH_ADD_F32, false, in, out),
                     STEX_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lavapipe_tint),
        cmocka_unit_test(test_nvidia_tint),
        cmocka_unit_test(test_lavapipe_wgsl),
        cmocka_unit_test(test_nvidia_wgsl),
        cmocka_unit_test(test_profile_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
