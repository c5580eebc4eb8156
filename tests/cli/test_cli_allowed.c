/* stex run --record-allowed and stex compare --tolerance allowed end to end:
 * the recorded inputs are the values that produced the golden's bytes (the
 * last store of each texel), another profile's readback passes `allowed`
 * where it differs only as the spec permits, a texel two codes off fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"
#include "stex/stex.h"

/* Every texel of the golden is the spec encoding of its recorded value
 * (spec profile: the value decides the bytes, so a stale or misplaced value
 * shows); returns how many texels were recorded as stored. */
static size_t check_recorded(const char *golden, const char *what)
{
    char ip[600];
    snprintf(ip, sizeof ip, "%s.inputs", golden);
    stex_image g;
    stex_inputs in;
    if (stex_read_bin(golden, &g, NULL) != STEX_OK)
        fail_msg("%s: cannot read %s: %s", what, golden, stex_last_error());
    if (stex_read_inputs(ip, &in) != STEX_OK)
        fail_msg("%s: cannot read %s: %s", what, ip, stex_last_error());
    assert_int_equal(in.width, g.width);
    assert_int_equal(in.height, g.height);
    assert_int_equal(in.depth, g.depth);
    const stex_format_info *fi = stex_format_get(g.format);
    assert_int_equal(in.scalar, fi->scalar);
    size_t stored = 0;
    for (uint32_t y = 0; y < g.height; y++)
        for (uint32_t x = 0; x < g.width; x++) {
            size_t i = (size_t)y * g.width + x;
            if (!in.stored[i])
                continue;
            stored++;
            uint8_t enc[16];
            assert_int_equal(stex_encode_texel(stex_profile_get(STEX_PROFILE_SPEC), g.format,
                                               &in.values[i], enc), STEX_OK);
            const uint8_t *b = stex_image_texel(&g, x, y, 0);
            if (memcmp(enc, b, fi->bytes))
                fail_msg("%s (%s): texel (%u, %u) holds %02x%02x%02x%02x.. but its recorded "
                         "value (%g, %g, %g, %g) encodes to %02x%02x%02x%02x..", what,
                         fi->name, x, y, b[0], b[1], b[2], b[3], in.values[i].f[0],
                         in.values[i].f[1], in.values[i].f[2], in.values[i].f[3], enc[0], enc[1],
                         enc[2], enc[3]);
        }
    stex_image_free(&g);
    stex_inputs_free(&in);
    return stored;
}

/* generar's golden, recorded; the nvidia readback differs in its ties only. */
static void test_generar_nvidia(void **state)
{
    (void)state;
    char gp[512], np[512];
    path_in(gp, sizeof gp, "g.bin");
    path_in(np, sizeof np, "n.bin");
    cli_result r = run_stex("run generar --size 32x32 --out '%s' --record-allowed --json", gp);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "g.bin.inputs")); /* listed among the files written */
    cli_free(&r);
    assert_int_equal(check_recorded(gp, "generar"), 32 * 32); /* generar stores every texel */
    r = run_stex("compare '%s' '%s' --tolerance allowed", gp, gp);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);

    r = run_stex("run generar --size 32x32 --profile nvidia --out '%s'", np);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    /* not byte-identical (nvidia rounds the 0.5 ties down), so allowed has work to do */
    r = run_stex("compare '%s' '%s' --json", gp, np);
    CLI_EXPECT(r, 1, NULL);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    if (!j)
        fail_msg("not JSON: %s", r.out);
    json_int_t differing = json_integer_value(json_object_get(j, "differing"));
    assert_true(differing > 0);
    json_decref(j);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --tolerance allowed --json", gp, np);
    CLI_EXPECT(r, 0, NULL);
    j = json_loads(r.out, 0, &je);
    if (!j)
        fail_msg("not JSON: %s", r.out);
    assert_int_equal(json_integer_value(json_object_get(j, "mismatches")), 0);
    assert_int_equal(json_integer_value(json_object_get(j, "differing")), differing);
    json_decref(j);
    cli_free(&r);

    /* one channel of one texel two codes away: no profile may store that */
    size_t n;
    uint8_t *bytes = slurp(np, &n);
    const uint32_t bpr = 256, x = 21, y = 9;
    uint8_t *c = bytes + y * bpr + x * 4 + 2;
    *c = *c >= 2 ? *c - 2 : *c + 2;
    spit(np, bytes, n);
    free(bytes);
    /* a GPU's readback has no sidecar (this one's would no longer match) */
    char side[600];
    snprintf(side, sizeof side, "%s.json", np);
    remove(side);
    r = run_stex("compare '%s' '%s' --tolerance allowed", gp, np);
    CLI_EXPECT(r, 1, NULL);
    if (!strstr(r.out, "(21, 9, 0)"))
        fail_msg("the changed texel (21, 9) is not listed: %s", r.out);
    cli_free(&r);
}

/* A kernel stored over several dispatches (decaer, iterations 3; difundir,
 * racy, shuffled): the recorded value is the last one, the one in the
 * golden; r32float stores the value's bits, so any other store shows. */
static void test_last_store(void **state)
{
    (void)state;
    static const struct { const char *args, *file; } cases[] = {
        {"run decaer --size 24x16 --iterations 3", "decaer.bin"},
        {"run difundir --size 24x16 --iterations 4 --schedule shuffled --seed 11", "difundir.bin"},
        {"run blur --size 20x12", "blur.bin"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char gp[512];
        path_in(gp, sizeof gp, cases[i].file);
        cli_result r = run_stex("%s --record-allowed --out '%s'", cases[i].args, gp);
        if (r.code != 0)
            fail_msg("%s: exit %d, stderr %s", cases[i].args, r.code, r.err);
        cli_free(&r);
        size_t stored = check_recorded(gp, cases[i].args);
        if (!stored)
            fail_msg("%s: nothing recorded", cases[i].args);
        r = run_stex("compare '%s' '%s' --tolerance allowed", gp, gp);
        CLI_EXPECT(r, 0, NULL);
        cli_free(&r);
    }
}

/* histogram (rgba16float; the stored values are computed from integer
 * counts, the same under every profile) under lavapipe and nvidia, which
 * round f16 toward zero, against the spec golden: the bytes differ, the
 * differences are all permitted. */
static void test_f16_profiles(void **state)
{
    (void)state;
    char gp[512], ap[512];
    path_in(gp, sizeof gp, "hist-spec.bin");
    path_in(ap, sizeof ap, "hist-other.bin");
    cli_result r = run_stex("run histogram --size 32x32 --record-allowed --out '%s'", gp);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_int_equal(check_recorded(gp, "histogram"), 32 * 32);
    const char *profs[] = {"lavapipe", "nvidia"};
    for (size_t i = 0; i < 2; i++) {
        /* one file for both readbacks: --force, as it holds another profile's */
        r = run_stex("run histogram --size 32x32 --profile %s --out '%s' --force", profs[i], ap);
        CLI_EXPECT(r, 0, NULL);
        cli_free(&r);
        r = run_stex("compare '%s' '%s'", gp, ap);
        if (r.code != 1)
            fail_msg("histogram under %s: byte-identical to spec (exit %d), the test needs "
                     "differences", profs[i], r.code);
        cli_free(&r);
        r = run_stex("compare '%s' '%s' --tolerance allowed", gp, ap);
        if (r.code != 0)
            fail_msg("histogram under %s against the spec golden: exit %d\n%s%s", profs[i],
                     r.code, r.out, r.err);
        cli_free(&r);
    }
}

static void test_refusals(void **state)
{
    (void)state;
    char gp[512], pp[512];
    path_in(gp, sizeof gp, "t2.bin");
    path_in(pp, sizeof pp, "only.png");
    static const struct { const char *fmt; int code; const char *msg; } cases[] = {
        /* several threads could store one texel in an order the recorder cannot see */
        {"run generar --size 8x8 --threads 2 --record-allowed --out '%s'", 2, "one thread"},
        {"run generar --size 8x8 --record-allowed --out '%s'", 2, ".bin output"},
        {"run box3x3-buffer --size 8x8 --record-allowed --out '%s'", 2, "buffer"},
    };
    const char *target[] = {gp, pp, gp};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r = run_stex(cases[i].fmt, target[i]);
        if (r.code != cases[i].code || !strstr(r.err, cases[i].msg))
            fail_msg("case %zu (%s): exit %d, stderr '%s'; expected %d and '%s'", i,
                     cases[i].fmt, r.code, r.err, cases[i].code, cases[i].msg);
        cli_free(&r);
        if (i < 2 && access(target[i], F_OK) == 0)
            fail_msg("case %zu: %s written despite the refusal", i, target[i]);
    }
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generar_nvidia),
        cmocka_unit_test(test_last_store),
        cmocka_unit_test(test_f16_profiles),
        cmocka_unit_test(test_refusals),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
