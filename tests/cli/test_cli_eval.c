/* stex eval: each profile's result of a WGSL expression, the --bits batch
 * mode (a group replayed from stdin) and its errors (exit 2, naming the
 * rule or the line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cli_run.h"

typedef struct eval_case {
    const char *args[10];
    int status;
    const char *in_out, *in_err;
} eval_case;

static const eval_case CASES[] = {
    /* decaer's product: nvidia flushes the subnormal input */
    {{"eval", "a * b", "0x00000001", "0.98"}, 0, "nvidia    0x00000000 (0)", NULL},
    {{"eval", "--profile", "spec", "a * b", "0x00000001", "0.98"}, 0, "spec      0x00000001", NULL},
    /* contraction: (1+2^-12)^2 - (1+2^-11) */
    {{"eval", "--profile", "nvidia", "a*b+c", "0x3f800800", "0x3f800800", "0xbf801000"}, 0,
     "0x33800000", NULL},
    {{"eval", "--type", "i32,i32->i32", "a / b", "-7", "0"}, 0, "0xfffffff9 (-7)", NULL},
    {{"eval", "--json", "--profile", "lavapipe", "ldexp(a, b)", "0x1p-149f", "255"}, 0,
     "\"bits\": [\"74000000\"]", NULL},
    {{"eval", "foo(a)", "1"}, 2, NULL, "give its signature with --type"},
    /* any WGSL expression, with its signature, through the front end and interpreter */
    {{"eval", "--type", "f32,f32,f32->f32", "max(a, b) * c - 1.0", "1.5", "2", "0x00000001"}, 0,
     "nvidia    0xbf800000 (-1)", NULL},
    {{"eval", "--type", "vec2<f32>,f32->vec2<f32>", "a * b + vec2(1.0, 2.0)", "0.5", "0.25", "3"},
     0, "spec      0x40200000 (2.5), 0x40300000 (2.75)", NULL},
    {{"eval", "--type", "u32,u32->u32", "(a / b) + 0u", "7", "0"}, 0, "0x00000007 (7)", NULL},
    {{"eval", "--type", "i32,i32->bool", "a < b", "-3", "2"}, 0, "0x00000001 (true)", NULL},
    {{"eval", "--type", "f32->f32", "a +", "1"}, 2, NULL,
     "'a +' is not a WGSL expression: expression:1:4: error: expected an expression, found end "
     "of file [syntax]"},
    /* exactly one expression: nothing rides along into the generated shader
     * (this one closed the call and ran a loop until the step limit) */
    {{"eval", "--type", "i32->i32", "a); loop {} _ = (a", "1"}, 2, NULL,
     "the argument must be exactly one WGSL expression: 'a' is one, then '); loop {} _ = (a' "
     "follows it"},
    {{"eval", "--type", "i32->i32", "a; }\n@compute @workgroup_size(1) fn x() { loop {} ", "1"},
     2, NULL, "the argument must be exactly one WGSL expression"},
    {{"eval", "--type", "i32->i32", "abs(a) // c", "-1"}, 2, NULL, "then '// c' follows it"},
    {{"eval", "--type", "i32->i32", " abs(a) ", "-1"}, 0, "0x00000001 (1)", NULL},
    {{"eval", "--type", "f32->f33", "a", "1"}, 2, NULL, "a signature is 1 to 4 argument types"},
    {{"eval", "--const", "--type", "f32->f32", "a + a * a", "1"}, 2, NULL, "only for the expressions"},
    {{"eval", "a + b", "1"}, 2, NULL, "takes 2 argument value(s), got 1"},
    {{"eval", "--type", "u32,u32->u32", "a + b", "-1", "2"}, 2, NULL, "not a u32 literal"},
    {{"eval", "--const", "a + b", "1", "2"}, 0, "const    0x40400000 (3)", NULL},
    {{"eval", "--const", "a * b", "0x1p127f", "2"}, 0, "error: 'a * b' cannot be represented", NULL},
    {{"eval", "--const", "--type", "i32,i32->i32", "a / b", "1", "0"}, 0,
     "error: integer division by zero is invalid", NULL},
    {{"eval", "--const", "--type", "u32,u32->u32", "a << b", "1", "32"}, 0,
     "error: shift left value must be less than the bit width", NULL},
    {{"eval", "--const", "--json", "a + b", "1", "2"}, 2, NULL, "neither --json nor --profile"},
    /* a const-expression's value is its front end's: WGSL's exact fma, and
     * Dawn's (the lavapipe profile) rounding the product first, as measured
     * through Dawn (tests/data/wgslexpr-const-lavapipe.tsv.gz) */
    {{"eval", "--const", "fma(a, b, c)", "0x3f800800", "0x3f800800", "0xbf800000"}, 0,
     "const    0x3a000400", NULL},
    {{"eval", "--const", "--profile", "lavapipe", "fma(a, b, c)", "0x3f800800", "0x3f800800",
      "0xbf800000"}, 0, "const    0x3a000000", NULL},
    {{"eval", "--const", "--profile", "all", "a + b", "1", "2"}, 2, NULL, "--profile all"},
    /* errors point into the user's text - its line and column, the argument
     * quoted with a caret - never the shader stex wraps around it (was:
     * "expression:6:13: ... let r = a + b;") */
    {{"eval", "--type", "f32,u32->f32", "a + b", "1", "2"}, 2, NULL,
     "expression:1:3: error: '+' cannot take f32 and u32 [type-mismatch]\n  a + b\n    ^\n"},
    {{"eval", "--type", "f32->u32", "a * 2.0", "1"}, 2, NULL,
     "expression:1:3: error: the expression has type f32, the signature's result u32"},
    {{"eval", "--type", "f32->f32", "a +\n  bogus", "1"}, 2, NULL,
     "expression:2:3: error: unknown identifier 'bogus' [identifier]\n    bogus\n    ^\n"},
};

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const eval_case *c = &CASES[i];
        cli_result r = cli_run(c->args);
        /* nothing of the wrapper shader stex generates reaches the user */
        if (r.status != c->status || (c->in_out && !strstr(r.out, c->in_out)) ||
            (c->in_err && !strstr(r.err, c->in_err)) || strstr(r.err, "let r") ||
            strstr(r.err, "io["))
            fail_msg("stex %s '%s' ...: exit %d (want %d)\nstdout: %s\nstderr: %s", c->args[0],
                     c->args[1], r.status, c->status, r.out, r.err);
        cli_free(&r);
    }
}

/* An expression of the table evaluated by the math layer directly, and the
 * same arithmetic written differently so that it goes through the WGSL
 * front end and interpreter: the two executors agree under every profile,
 * on the subnormal, NaN and contraction cases where profiles differ. */
static void test_table_and_wgsl_agree(void **state)
{
    (void)state;
    static const struct { const char *table, *wgsl, *type, *v[3]; } P[] = {
        {"a * b", "(a) * (b)", "f32,f32->f32", {"0x00000001", "0.98", NULL}},
        {"a * b", "(a) * (b)", "f32,f32->f32", {"0x7fc00000", "2", NULL}},
        {"a / b", "(a) / (b)", "f32,f32->f32", {"1", "3", NULL}},
        {"a * b + c", "(a) * (b) + (c)", "f32,f32,f32->f32", {"0x3f800800", "0x3f800800", "0xbf801000"}},
        {"sqrt(a)", "sqrt((a))", "f32->f32", {"2", NULL, NULL}},
        {"exp2(a)", "exp2((a))", "f32->f32", {"0.3", NULL, NULL}},
    };
    for (size_t i = 0; i < sizeof P / sizeof P[0]; i++) {
        const char *ta[8] = {"eval", "--type", P[i].type, P[i].table, P[i].v[0], P[i].v[1], P[i].v[2]};
        const char *wa[8] = {"eval", "--type", P[i].type, P[i].wgsl, P[i].v[0], P[i].v[1], P[i].v[2]};
        cli_result t = cli_run(ta), w = cli_run(wa);
        if (t.status || w.status || strcmp(t.out, w.out))
            fail_msg("%s vs %s: exit %d / %d\ntable:\n%s\nWGSL:\n%s%s", P[i].table, P[i].wgsl,
                     t.status, w.status, t.out, w.out, w.err);
        cli_free(&t);
        cli_free(&w);
    }
}

/* --bits: one output line per input line, in the conformance files' notation */
static void test_bits(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "printf '80800000,00000000\\nbf800000,3f800000\\n' | '%s' eval --bits --profile nvidia "
             "'a %% b'", getenv("STEX_BIN"));
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char out[256] = {0};
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    assert_int_equal(pclose(f), 0);
    assert_string_equal(out, "ffffffff\n80000000\n");

    snprintf(cmd, sizeof cmd, "printf '3f800000\\nzz\\n' | '%s' eval --bits --profile spec "
             "'sin(a)' 2>&1 >/dev/null", getenv("STEX_BIN"));
    f = popen(cmd, "r");
    n = fread(out, 1, sizeof out - 1, f);
    out[n] = 0;
    int st = pclose(f);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 2);
    assert_non_null(strstr(out, "line 2"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_bits),
        cmocka_unit_test(test_table_and_wgsl_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
