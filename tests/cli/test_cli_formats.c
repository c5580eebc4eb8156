/* `stex formats` through the built binary, its --json answer checked against
 * the spec's lists (tests/format/spec_formats.h), under several feature sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_run.h"
#include "../format/spec_formats.h"

static const struct {
    const char *features; /* --features value, NULL = none */
    uint32_t mask;
    bool lang;
} sets[] = {
    {NULL, 0, true},
    {"bgra8unorm-storage", BGRA, true},
    {"texture-formats-tier1", T1, true},
    {"texture-formats-tier2", T2, true},
    {"texture-formats-tier2,bgra8unorm-storage", T2 | BGRA, false},
    {"all", STEX_FEATURE_ALL, true},
};

static void test_json_against_spec(void **state)
{
    (void)state;
    static const char *const acc[] = {"write_only", "read_only", "read_write"}; /* JSON keys */
    static const stex_access acc_enum[] = {STEX_ACCESS_WRITE_ONLY, STEX_ACCESS_READ_ONLY,
                                           STEX_ACCESS_READ_WRITE};
    int n = 0, bad = 0;
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
        const char *args[8] = {"formats", "--json"};
        size_t k = 2;
        if (sets[s].features) {
            args[k++] = "--features";
            args[k++] = sets[s].features;
        }
        if (!sets[s].lang)
            args[k++] = "--no-language-feature";
        args[k] = NULL;
        cli_result r = cli_run(args);
        assert_int_equal(r.status, 0);
        json_error_t e;
        json_t *j = json_loads(r.out, 0, &e);
        if (!j)
            fail_msg("not JSON (%s): %.200s", e.text, r.out);
        json_t *list = json_object_get(j, "formats");
        assert_true(json_array_size(list) >= 48);
        size_t i;
        json_t *f;
        json_array_foreach(list, i, f)
        {
            const char *name = json_string_value(json_object_get(f, "format"));
            for (int a = 0; a < 3; a++) {
                bool got = json_is_true(json_object_get(json_object_get(f, acc[a]), "allowed"));
                bool want = spec_access(name, acc_enum[a], sets[s].mask, sets[s].lang ? LF : 0);
                n++;
                if (got != want && bad++ < 20)
                    print_error("%s %s with %s: spec %d, stex formats %d\n", name, acc[a],
                                sets[s].features ? sets[s].features : "no features", want, got);
            }
        }
        json_decref(j);
        cli_free(&r);
    }
    print_message("stex formats --json: %d/%d cells agree with the spec lists\n", n - bad, n);
    assert_int_equal(bad, 0);
}

static void test_text_and_errors(void **state)
{
    (void)state;
    const char *plain[] = {"formats", NULL};
    cli_result r = cli_run(plain);
    assert_int_equal(r.status, 0);
    /* The row for rgba8unorm: write-only yes, read-only yes, read-write needs tier2. */
    const char *row = strstr(r.out, "\nrgba8unorm ");
    assert_non_null(row);
    assert_non_null(strstr(row, "needs tier2"));
    assert_non_null(strstr(r.out, "tier2: the features texture-formats-tier1 and "
                                  "texture-formats-tier2"));
    /* within 80 columns (issue 26) */
    for (const char *l = r.out; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
        assert_true(strcspn(l, "\n") <= 80);
    /* A device asked for nothing has only core-features-and-limits. */
    assert_non_null(strstr(r.out, "features: core-features-and-limits\n"));
    cli_free(&r);

    const char *bad[] = {"formats", "--features", "bgra8unorm-storage,nope", NULL};
    r = cli_run(bad);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--features: unknown feature 'nope'"));
    assert_non_null(strstr(r.err, "texture-formats-tier1"));
    cli_free(&r);

    const char *extra[] = {"formats", "rgba8unorm", NULL};
    r = cli_run(extra);
    assert_int_equal(r.status, 2);
    cli_free(&r);

    const char *help[] = {"formats", "--help", NULL};
    r = cli_run(help);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "examples:"));
    cli_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_against_spec),
        cmocka_unit_test(test_text_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
