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

#include "const_explain.h"

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
