/* The option tables (src/cli/options.c) and the command-line rules every
 * subcommand shares: getopt_long's arrays and --help derived from one
 * table, options before or after values, decimal-only numbers, --seed
 * choosing the shuffled schedule, --version, `stex help CMD`, and a failed
 * write to stdout turning into a non-zero exit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli/cli.h"
#include "cli_exec.h"
#include "stex/stex.h"

typedef struct t_opts {
    uint32_t count, size[3];
    bool json;
} t_opts;

static const cli_option t_options[] = {
    {.name = "count", .short_name = 'c', .kind = CLI_U32, .at = offsetof(t_opts, count),
     .metavar = "N", .help = "how many\nat most 9", .min = 1, .max = 9},
    {.name = "json", .kind = CLI_FLAG, .at = offsetof(t_opts, json), .help = "JSON"},
    {.name = "size", .kind = CLI_SIZE, .at = offsetof(t_opts, size), .metavar = "WxH",
     .help = "a size"},
    {0}};
static const cli_spec t_spec = {"t", "usage: t\n", "end\n", t_options};

static void test_getopt_table(void **state)
{
    (void)state;
    struct option lo[CLI_MAX_OPTIONS + 2];
    char os[2 * CLI_MAX_OPTIONS + 4];
    assert_int_equal(cli_getopt_table(&t_spec, lo, os), 3);
    assert_string_equal(os, "+:hc:");
    const struct { const char *name; int has_arg, val; } want[] = {
        {"count", required_argument, 'c'}, {"json", no_argument, 257},
        {"size", required_argument, 258},  {"help", no_argument, 'h'}};
    for (int i = 0; i < 4; i++) {
        assert_string_equal(lo[i].name, want[i].name);
        assert_int_equal(lo[i].has_arg, want[i].has_arg);
        assert_int_equal(lo[i].val, want[i].val);
        assert_null(lo[i].flag);
    }
    assert_null(lo[4].name);
}

static void test_help_text(void **state)
{
    (void)state;
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    assert_non_null(f);
    cli_print_help(&t_spec, f);
    fclose(f);
    /* help column 18: the longest entry ("      --size WxH", 16) + 2 */
    assert_string_equal(text, "usage: t\n"
                              "\n"
                              "options:\n"
                              "  -c, --count N   how many\n"
                              "                  at most 9\n"
                              "      --json      JSON\n"
                              "      --size WxH  a size\n"
                              "  -h, --help      print this help and exit\n"
                              "\n"
                              "end\n");
    free(text);
}

static void test_parse(void **state)
{
    (void)state;
    char *argv[] = {"t", "a", "--count", "3", "-1.5", "--size=2x3", "b", "--json", "-inf",
                    "--", "--json", "-c", NULL};
    t_opts o = {0};
    cli_args a;
    assert_int_equal(cli_parse(&t_spec, 12, argv, &o, &a), CLI_OK);
    assert_false(a.help);
    assert_int_equal(o.count, 3);
    assert_true(o.json);
    assert_int_equal(o.size[0], 2);
    assert_int_equal(o.size[1], 3);
    assert_int_equal(o.size[2], 1);
    const char *values[] = {"a", "-1.5", "b", "-inf", "--json", "-c"};
    assert_int_equal(a.count, 6);
    for (int i = 0; i < 6; i++)
        assert_string_equal(a.value[i], values[i]);
    assert_true(cli_given(&t_spec, &a, "count"));
    assert_true(cli_given(&t_spec, &a, "size"));
    t_opts d = {.count = 7};
    char *none[] = {"t", "x", NULL};
    assert_int_equal(cli_parse(&t_spec, 2, none, &d, &a), CLI_OK);
    assert_int_equal(d.count, 7); /* the default stays */
    assert_false(cli_given(&t_spec, &a, "count"));
    /* each a usage error: out of range, octal-looking, unknown, missing value */
    char *bad[][3] = {{"t", "-c", "0"}, {"t", "--count", "010"}, {"t", "--nope", "x"},
                      {"t", "x", "--count"}, {"t", "--count", "0x3"}, {"t", "-q", "x"},
                      {"t", "--json=1", "x"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv3[] = {bad[i][0], bad[i][1], bad[i][2], NULL};
        if (cli_parse(&t_spec, 3, argv3, &d, &a) != CLI_USAGE)
            fail_msg("%s %s: accepted", bad[i][1], bad[i][2]);
    }
}

static void test_decimal_numbers(void **state)
{
    (void)state;
    static const struct { const char *s; bool ok; uint64_t v; } cases[] = {
        {"0", true, 0},         {"10", true, 10},
        {"18446744073709551615", true, UINT64_MAX},
        {"18446744073709551616", false, 0},
        {"010", false, 0},      /* strtoull(base 0) read 8 */
        {"0x10", false, 0},     /* and 16 */
        {"+1", false, 0},       {"-1", false, 0},   {" 1", false, 0},
        {"1 ", false, 0},       {"", false, 0},     {"1e3", false, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t v = 12345;
        bool ok = cli_parse_u64("t", "--n", cases[i].s, &v);
        if (ok != cases[i].ok || (ok && v != cases[i].v))
            fail_msg("'%s': %s, value %llu", cases[i].s, ok ? "accepted" : "refused",
                     (unsigned long long)v);
    }
    uint32_t size[3];
    assert_false(cli_parse_size("t", "--size", "08x8", size));
    assert_true(cli_parse_size("t", "--size", "10x8", size));
    assert_int_equal(size[0], 10);
}

/* Every line of text within 80 columns (issue 26: a terminal's width). */
static void assert_fits_80(const char *what, const char *text)
{
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        if (n > 80)
            fail_msg("%s: a line of %zu columns: %.*s", what, n, (int)n, l);
        l += n + (l[n] == '\n');
    }
}

/* Every table is well formed, and every option of every subcommand shows in
 * its --help (and `stex help CMD` prints the same), within 80 columns. */
static void test_every_help(void **state)
{
    (void)state;
    for (const cli_command *c = cli_commands; c->spec; c++) {
        cli_result h = run_stex("%s --help", c->spec->name);
        cli_result h2 = run_stex("help %s", c->spec->name);
        CLI_EXPECT(h, 0, NULL);
        CLI_EXPECT(h2, 0, NULL);
        assert_string_equal(h.out, h2.out);
        assert_non_null(strstr(h.out, "  -h, --help"));
        int n = 0;
        for (const cli_option *o = c->spec->options; o->name; o++, n++) {
            char entry[96], first[96];
            snprintf(entry, sizeof entry, "--%s%s%s", o->name, o->kind == CLI_FLAG ? "" : " ",
                     o->kind == CLI_FLAG ? "" : o->metavar);
            /* the help's first 16 characters (a line is broken at a space
             * past 50 columns of help: never inside them) */
            int len = (int)strcspn(o->help, "\n");
            if (len > 16)
                len = 16;
            snprintf(first, sizeof first, "%.*s", len, o->help);
            if (!strstr(h.out, entry) || !strstr(h.out, first))
                fail_msg("stex %s --help lacks '%s' or its help '%s'", c->spec->name, entry,
                         first);
            assert_true(o->kind == CLI_FLAG || o->metavar);
            assert_true(strcmp(o->name, "help") && o->short_name != 'h');
            assert_true(o->kind != CLI_CUSTOM || o->parse);
            for (const cli_option *p = c->spec->options; p != o; p++)
                assert_string_not_equal(p->name, o->name);
        }
        assert_true(n < CLI_MAX_OPTIONS);
        assert_fits_80(c->spec->name, h.out);
        cli_free(&h);
        cli_free(&h2);
    }
    cli_result top = run_stex("--help");
    CLI_EXPECT(top, 0, NULL);
    assert_fits_80("stex --help", top.out);
    cli_free(&top);
    cli_result r = run_stex("help nosuch");
    CLI_EXPECT(r, 2, "unknown command 'nosuch'");
    cli_free(&r);
}

static void test_version(void **state)
{
    (void)state;
    cli_result r = run_stex("--version");
    CLI_EXPECT(r, 0, NULL);
    char want[64];
    snprintf(want, sizeof want, "stex %s\n", STEX_VERSION);
    assert_string_equal(r.out, want);
    cli_free(&r);
}

/* Decimal numbers on the command line, and --seed without --schedule. */
static void test_numbers_and_seed(void **state)
{
    (void)state;
    static const struct { const char *args, *msg; } refused[] = {
        {"run decaer --size 4x4 --seed 010", "leading zero"},
        {"run decaer --size 4x4 --seed 0x10", "decimal"},
        {"run decaer --size 4x4 --threads 010", "leading zero"},
        {"race difundir --size 8x8 --runs 0x2", "decimal"},
        {"run decaer --size 4x4 --schedule reversed --seed 3", "shuffled"},
        {"layout rgba8unorm 010x8", "size"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        cli_result r = run_stex("%s", refused[i].args);
        if (r.code != 2 || !strstr(r.err, refused[i].msg))
            fail_msg("`stex %s`: exit %d, stderr '%s'; expected exit 2 and '%s'",
                     refused[i].args, r.code, r.err, refused[i].msg);
        cli_free(&r);
    }
    static const struct { const char *args, *schedule; int seed; } ran[] = {
        {"run decaer --size 4x4 --seed 10 --json", "shuffled", 10},
        {"run decaer --size 4x4 --json --schedule shuffled --seed 7", "shuffled", 7},
        {"run decaer --size 4x4 --json", "in-order", 0},
        {"run decaer --size 4x4 --json --schedule reversed", "reversed", 0},
    };
    for (size_t i = 0; i < sizeof ran / sizeof ran[0]; i++) {
        cli_result r = run_stex("%s", ran[i].args);
        CLI_EXPECT(r, 0, NULL);
        json_t *j = json_loads(r.out, 0, NULL);
        if (!j)
            fail_msg("`stex %s`: not JSON: %s", ran[i].args, r.out);
        assert_string_equal(json_string_value(json_object_get(j, "schedule")), ran[i].schedule);
        assert_int_equal(json_integer_value(json_object_get(j, "seed")), ran[i].seed);
        json_decref(j);
        cli_free(&r);
    }
}

/* Options after the values, for the commands that take values. */
static void test_options_anywhere(void **state)
{
    (void)state;
    cli_result r = run_stex("layout rgba8unorm 8x8 --json --grid 0");
    CLI_EXPECT(r, 0, NULL);
    json_t *j = json_loads(r.out, 0, NULL);
    assert_non_null(j);
    assert_int_equal(json_array_size(json_object_get(j, "grid")), 0);
    json_decref(j);
    cli_free(&r);
    r = run_stex("run decaer --size 4x4 --json");
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("race difundir-pingpong --runs 2 --size 8x8 --json");
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run decaer -- --size"); /* after "--", "--size" is a value */
    CLI_EXPECT(r, 2, "unexpected argument '--size'");
    cli_free(&r);
}

/* "did you mean": a mistyped kernel, format, option or run-file member is
 * answered with the nearest name (at most 2 edits away, 1 for a short
 * word), and a word near nothing with none. */
static void test_did_you_mean(void **state)
{
    (void)state;
    char run[512];
    path_in(run, sizeof run, "typo.json");
    FILE *f = fopen(run, "w");
    assert_non_null(f);
    fputs("{\"shaderModules\": {\"m\": {\"code\": \"@compute @workgroup_size(1) fn main() {}\"}},\n"
          " \"textures\": {\"t\": {\"size\": [1, 1], \"format\": \"rgba8unrom\","
          " \"usage\": [\"STORAGE_BINDING\"]}},\n"
          " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\","
          " \"entryPiont\": \"main\"}}}}\n", f);
    fclose(f);
    static const struct { const char *args, *msg; } cases[] = {
        {"run blurr", "unknown kernel 'blurr' (did you mean 'blur'?)"},
        {"race difundri --size 8x8", "unknown kernel 'difundri' (did you mean 'difundir'?)"},
        {"store rgba8unrom 1", "unknown format 'rgba8unrom' (did you mean 'rgba8unorm'?)"},
        {"layout r32flaot 4x4", "(did you mean 'r32float'?)"},
        {"validate --format bgra8unorn",
         "unknown format 'bgra8unorn' (did you mean 'bgra8unorm'?)"},
        {"run decaer --profle nvidia", "unknown option '--profle' (did you mean '--profile'?)"},
        {"run decaer --sizee=4x4", "unknown option '--sizee=4x4' (did you mean '--size'?)"},
        {"check --jsno x.wgsl", "unknown option '--jsno' (did you mean '--json'?)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r = run_stex("%s", cases[i].args);
        if (r.code != 2 || !strstr(r.err, cases[i].msg))
            fail_msg("`stex %s`: exit %d, stderr '%s'; expected exit 2 and '%s'", cases[i].args,
                     r.code, r.err, cases[i].msg);
        cli_free(&r);
    }
    /* a run file: the texture's format first (the pipeline is read later) */
    cli_result r = run_stex("run '%s'", run);
    CLI_EXPECT(r, 2, "unknown GPUTextureFormat \"rgba8unrom\" (did you mean \"rgba8unorm\"?");
    cli_free(&r);
    f = fopen(run, "w");
    fputs("{\"shaderModules\": {\"m\": {\"code\": \"@compute @workgroup_size(1) fn main() {}\"}},\n"
          " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\","
          " \"entryPiont\": \"main\"}}}}\n", f);
    fclose(f);
    r = run_stex("run '%s'", run);
    CLI_EXPECT(r, 2, "unknown member 'entryPiont' (did you mean 'entryPoint'? expected module, "
                     "entryPoint, constants)");
    cli_free(&r);
    remove(run);
    /* nothing near: no suggestion */
    r = run_stex("run zzzzzzzz");
    CLI_EXPECT(r, 2, "unknown kernel 'zzzzzzzz'; the kernels are:");
    cli_free(&r);
    r = run_stex("run decaer --qqqqqq");
    CLI_EXPECT(r, 2, NULL);
    assert_null(strstr(r.err, "did you mean"));
    cli_free(&r);
}

/* stdout on a full disk: every subcommand must notice and exit non-zero. */
static void test_stdout_full(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    char png[600];
    snprintf(png, sizeof png, "%s/full.png", cli_dir);
    const char *cases[] = {
        "store rgba8unorm 1 1 1 1", "store --json r32float 1", "formats", "formats --json",
        "validate --format r32float", "validate --format rgba8unorm --access read-write",
        "layout rgba8unorm 4x4", "run --list", "run decaer --size 4x4",
        "race difundir-pingpong --size 8x8 --runs 2", "help", "--version", "store --help",
        "help compare",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[2048], err[600];
        snprintf(err, sizeof err, "%s/.full-err", cli_dir);
        snprintf(cmd, sizeof cmd, "'%s' %s >/dev/full 2>'%s' </dev/null", stex_bin(), cases[i],
                 err);
        int st = system(cmd);
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        char *text = cli_slurp_text(err);
        if (code != 2 || !strstr(text, "cannot write the standard output"))
            fail_msg("`stex %s > /dev/full`: exit %d, stderr '%s'; expected 2 and a message",
                     cases[i], code, text);
        free(text);
        remove(err);
    }
    /* demo writes its picture to a file and its report to stdout */
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' demo --runs 2 --png '%s' >/dev/full 2>/dev/null", stex_bin(),
             png);
    int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
    remove(png);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_getopt_table),     cmocka_unit_test(test_help_text),
        cmocka_unit_test(test_parse),            cmocka_unit_test(test_decimal_numbers),
        cmocka_unit_test(test_every_help),       cmocka_unit_test(test_version),
        cmocka_unit_test(test_numbers_and_seed), cmocka_unit_test(test_options_anywhere),
        cmocka_unit_test(test_stdout_full),      cmocka_unit_test(test_did_you_mean),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
