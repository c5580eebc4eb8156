/* stex race and races inside a workgroup (issue 25): under the default
 * schedule (interleaved) a teacher's racy run files show more than one
 * output, their fixes one; under --schedule shuffled the racy ones give one
 * output at the default lock-step width, and the report says why and which
 * option shows them; stex run takes the schedule with a seed.  One default
 * lock-step width: the one `stex run --help` and `stex race --help` print,
 * the C API's, and the one docs/guide.md, docs/engine.md,
 * include/stex/run.h and the Node provider's README state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../io/io_test.h"
#include "cli_run.h"
#include "stex/stex.h"

static const char *data_dir(void)
{
    const char *d = getenv("STEX_TEST_DATA");
    return d ? d : "tests/data";
}

/* `stex race race-shaders/NAME.json --runs 8 --threads 1 [--schedule S]`,
 * text (json false) or JSON. */
static cli_result race(const char *name, const char *schedule, bool json)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/race-shaders/%s.json", data_dir(), name);
    const char *args[10] = {"race", path, "--runs", "8", "--threads", "1"};
    int n = 6;
    if (schedule) {
        args[n++] = "--schedule";
        args[n++] = schedule;
    }
    if (json)
        args[n++] = "--json";
    cli_result r = cli_run(args);
    if (r.status != 0)
        fail_msg("stex race %s: exit %d: %s", name, r.status, r.err ? r.err : "");
    return r;
}

/* The number after `key` in text (a JSON member "key": N, or "key: N"). */
static unsigned long number_after(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p)
        fail_msg("no '%s' in: %s", key, text);
    p += strlen(key);
    while (*p == '"' || *p == ':' || *p == ' ')
        p++;
    return strtoul(p, NULL, 10);
}

static void test_racy_files_differ(void **state)
{
    (void)state;
    static const char *const racy[] = {"wg-reduce", "wg-shift"};
    for (int i = 0; i < 2; i++) {
        cli_result r = race(racy[i], NULL, true);
        assert_non_null(strstr(r.out, "\"schedule\": \"interleaved\""));
        if (number_after(r.out, "\"distinct_outputs\"") < 2)
            fail_msg("%s: one output under the default schedule: %s", racy[i], r.out);
        assert_true(number_after(r.out, "\"total\"") > 0); /* racing locations */
        assert_non_null(strstr(r.out, "\"why_one_output\": null"));
        cli_free(&r);
        /* the explanation in JSON too */
        r = race(racy[i], "shuffled", true);
        if (!strstr(r.out, "\"why_one_output\": \"why one output: every racing pair is inside "
                           "one workgroup"))
            fail_msg("%s: no explanation in the JSON: %s", racy[i], r.out);
        cli_free(&r);
        /* issue 25: the shuffled schedule keeps each workgroup in lock step */
        r = race(racy[i], "shuffled", false);
        assert_int_equal(number_after(r.out, "distinct outputs"), 1);
        if (!strstr(r.out, "why one output: every racing pair is inside one workgroup") ||
            !strstr(r.out, "lock-step groups of 64 invocations") ||
            !strstr(r.out, "--schedule\ninterleaved (the default)"))
            fail_msg("%s: no explanation of the one output: %s", racy[i], r.out);
        cli_free(&r);
    }
}

/* Issue 25's "done when": stex race shows distinct outputs for each of the
 * teacher's racy shaders in race-shaders/ (a reduction and a prefix sum on
 * var<workgroup>, a shift on a buffer in @group(1), a blur on a texture in
 * @group(2), a histogram mixing atomics with plain accesses). */
static void test_teacher_shaders_differ(void **state)
{
    (void)state;
    static const char *const racy[] = {"reduce", "prefix", "shift", "blur", "stats"};
    for (int i = 0; i < 5; i++) {
        cli_result r = race(racy[i], NULL, true);
        if (number_after(r.out, "\"distinct_outputs\"") < 2)
            fail_msg("%s: one output under the default schedule: %s", racy[i], r.out);
        assert_true(number_after(r.out, "\"total\"") > 0);
        cli_free(&r);
    }
}

static void test_fixed_files_agree(void **state)
{
    (void)state;
    static const char *const fixed[] = {"wg-reduce-fixed", "wg-shift-fixed"};
    for (int i = 0; i < 2; i++) {
        cli_result r = race(fixed[i], NULL, false);
        assert_int_equal(number_after(r.out, "distinct outputs"), 1);
        assert_int_equal(number_after(r.out, "race detector"), 0);
        assert_null(strstr(r.out, "why one output"));
        cli_free(&r);
    }
}

/* stex run takes the interleaved schedule with a seed (a seed was refused
 * with any schedule but shuffled) and names it in its JSON. */
static void test_run_interleaved(void **state)
{
    (void)state;
    const char *args[] = {"run", "difundir", "--size", "16x16", "--schedule", "interleaved",
                          "--seed", "3", "--threads", "1", "--json", NULL};
    cli_result r = cli_run(args);
    if (r.status != 0)
        fail_msg("exit %d: %s", r.status, r.err ? r.err : "");
    assert_non_null(strstr(r.out, "\"schedule\": \"interleaved\""));
    assert_int_equal(number_after(r.out, "\"seed\""), 3);
    cli_free(&r);
    const char *bad[] = {"run", "difundir", "--schedule", "reversed", "--seed", "3", NULL};
    r = cli_run(bad);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "shuffled and interleaved"));
    cli_free(&r);
}

/* The default in "--subgroup-size N ... (default D;" of a command's help. */
static unsigned long help_default(const char *cmd)
{
    const char *args[] = {cmd, "--help", NULL};
    cli_result r = cli_run(args);
    assert_int_equal(r.status, 0);
    const char *p = strstr(r.out, "--subgroup-size N");
    assert_non_null(p);
    unsigned long d = number_after(p, "(default");
    cli_free(&r);
    return d;
}

static char *read_doc(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/../../%s", data_dir(), rel);
    char *s = slurp_text(path);
    if (!s)
        fail_msg("cannot open %s", path);
    return s;
}

/* The number a document states right after `before` (which may span a
 * line break where the document's does: compared with blanks folded). */
static unsigned long doc_number(const char *rel, const char *before)
{
    char *s = read_doc(rel);
    /* fold runs of blanks and newlines to one space */
    size_t k = 0;
    for (size_t i = 0; s[i]; i++) {
        char c = s[i] == '\n' ? ' ' : s[i];
        if (c == ' ' && k && s[k - 1] == ' ')
            continue;
        s[k++] = c;
    }
    s[k] = '\0';
    const char *p = strstr(s, before);
    if (!p)
        fail_msg("%s: no '%s'", rel, before);
    unsigned long v = strtoul(p + strlen(before), NULL, 10);
    free(s);
    return v;
}

static void test_one_default_width(void **state)
{
    (void)state;
    unsigned long want = STEX_WGSL_SUBGROUP_WIDTH_DEFAULT;
    assert_int_equal(help_default("run"), want);
    assert_int_equal(help_default("race"), want);
    assert_int_equal(doc_number("docs/guide.md", "which differs: the interpreter runs "), want);
    assert_int_equal(doc_number("docs/engine.md", "the sub-group is a whole workgroup of "),
                     want);
    assert_int_equal(doc_number("include/stex/run.h", "step (1..64; 0 = "), want);
    /* the provider's flag table: the `subgroup` row's last cell */
    char *readme = read_doc("bindings/node/README.md");
    const char *row = strstr(readme, "| `subgroup` |");
    assert_non_null(row);
    const char *end = strchr(row, '\n');
    assert_non_null(end);
    const char *cell = end - 1;
    while (cell > row && *cell != '|')
        cell--; /* the row's closing bar */
    cell--;
    while (cell > row && *cell != '|')
        cell--; /* the last cell's opening bar */
    assert_int_equal(strtoul(cell + 1, NULL, 10), want);
    free(readme);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_racy_files_differ),
        cmocka_unit_test(test_teacher_shaders_differ),
        cmocka_unit_test(test_fixed_files_agree),
        cmocka_unit_test(test_run_interleaved),
        cmocka_unit_test(test_one_default_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
