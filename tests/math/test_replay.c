/* Replays the WGSL expression results measured on real devices (tests/data/
 * wgslexpr-lavapipe.tsv.gz, wgslexpr-nvidia.tsv.gz: the storage rows of the
 * conformance files, columns op, type, inputs, output) through the matching
 * profile, one (op, type) group at a time.
 *
 * Every group must replay bit-exactly: since the nvidia profile carries the
 * driver's sequences for atan, atan2, asin, acos, tanh and the inverse
 * hyperbolics (math/nvidia_lib.c), no group is modelled only approximately.  oob_read / oob_write / arrayLength rows replay
 * stex_math_oob against the harness's buffer (word w holds 0xca000000 | w,
 * the binding starts at word 0x40; function/private arrays hold
 * 0xca000000 + k).
 *
 * The summary printed at the end (rows bit-exact / rows per group) is the
 * table of docs/profiles.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "stex/math.h"

#include "hex_list.h"

typedef struct group {
    char op[32], sig[48];
    unsigned rows, exact, shown;
    long max_ulp;
} group;

#define MAX_GROUPS 256

static long ulp_distance(uint32_t a, uint32_t b)
{
    /* f32 bit patterns mapped to a monotonic integer line */
    long ia = (a & 0x80000000u) ? -(long)(a & 0x7fffffffu) : (long)a;
    long ib = (b & 0x80000000u) ? -(long)(b & 0x7fffffffu) : (long)b;
    return ia > ib ? ia - ib : ib - ia;
}

static int is_finite_bits(uint32_t u)
{
    return (u & 0x7f800000u) != 0x7f800000u;
}

/* The out-of-bounds rows: returns the output the profile predicts. */
static void oob_expect(const stex_profile *p, const char *op, const char *type,
                       uint32_t index, char *buf, size_t size)
{
    int function = !strncmp(type, "function", 8) || !strncmp(type, "private", 7);
    int runtime = !function && !strncmp(type, "array<u32>", 10);
    stex_array_kind kind = function ? STEX_ARRAY_FUNCTION
                         : runtime ? STEX_ARRAY_RUNTIME : STEX_ARRAY_FIXED;
    uint32_t count = runtime ? 16 : 4, base = function ? 0xca000000u : 0xca000040u, at;
    stex_oob_action a = stex_math_oob(p, kind, count, 4, index, &at);
    if (!strcmp(op, "oob_read"))
        snprintf(buf, size, "%08x", a == STEX_OOB_ZERO ? 0u : base + at);
    else if (a == STEX_OOB_ZERO)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%u=deadbeef", at);
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

static void replay(const char *profile_name, stex_profile_id id)
{
    const char *dir = getenv("STEX_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/wgslexpr-%s.tsv.gz", dir ? dir : "tests/data", profile_name);
    gzFile f = gzopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    const stex_profile *p = stex_profile_get(id);
    static group groups[MAX_GROUPS];
    int ng = 0;
    unsigned failures = 0;
    char line[4096];

    while (gzgets(f, line, sizeof line)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = 0;
        char *op = strtok(line, "\t"), *sig = strtok(NULL, "\t");
        char *inputs = strtok(NULL, "\t"), *output = strtok(NULL, "\t");
        assert_non_null(output);
        group *g = group_of(groups, &ng, op, sig);
        g->rows++;

        uint32_t in[8], want[8], got[8] = {0};
        int nin = parse_hex_list(inputs, in, 8);
        char expect[64];
        int ok;
        long ulp = 0;

        if (!strncmp(op, "oob_", 4)) {
            oob_expect(p, op, sig, in[0], expect, sizeof expect);
            ok = !strcmp(expect, output);
        } else if (!strcmp(op, "arrayLength")) {
            unsigned elem = strstr(sig, "vec4") ? 16 : 4;
            snprintf(expect, sizeof expect, "%08x", in[0] / elem);
            ok = !strcmp(expect, output);
        } else {
            stex_math_fn fn;
            if (!stex_math_fn_find(op, sig, &fn))
                fail_msg("[%s] %s %s: no overload in stex/math.def", profile_name, op, sig);
            const stex_math_fn_info *info = stex_math_fn_get(fn);
            int nout = parse_hex_list(output, want, 8);
            assert_int_equal(nin, (int)info->in_words);
            assert_int_equal(nout, (int)info->out_words);
            assert_int_equal(stex_math_eval(p, fn, in, got), STEX_OK);
            ok = !memcmp(got, want, (size_t)nout * 4);
            int f32_out = strstr(sig, "->f32") || strstr(sig, "->vec");
            for (int i = 0; f32_out && i < nout; i++)
                if (is_finite_bits(want[i]) && is_finite_bits(got[i]) &&
                    ulp_distance(got[i], want[i]) > ulp)
                    ulp = ulp_distance(got[i], want[i]);
                else if (want[i] != got[i] && (!is_finite_bits(want[i]) || !is_finite_bits(got[i])))
                    ulp = ulp > 0x7fffffffL ? ulp : 0x7fffffffL; /* NaN/inf vs other */
            snprintf(expect, sizeof expect, "%08x%s%08x%s", got[0], nout > 1 ? "," : "",
                     nout > 1 ? got[1] : 0u, nout > 2 ? ",..." : "");
        }
        if (ok) {
            g->exact++;
            continue;
        }
        if (ulp > g->max_ulp)
            g->max_ulp = ulp;
        const char *show_env = getenv("STEX_REPLAY_SHOW");
        unsigned show = show_env ? (unsigned)atoi(show_env) : 6u; /* mismatches printed per group */
        if (g->shown++ < show && ++failures)
            fprintf(stderr, "[%s] %s %s (%s): device %s, stex %s\n", profile_name, op, sig,
                    inputs, output, expect);
    }
    gzclose(f);

    int bad = 0;
    printf("[%s] group rows-bit-exact/rows max-ulp\n", profile_name);
    for (int i = 0; i < ng; i++) {
        group *g = &groups[i];
        printf("  %-20s %-22s %6u/%-6u %s%ld\n", g->op, g->sig, g->exact, g->rows,
               g->exact == g->rows ? "" : "ulp ", g->exact == g->rows ? 0 : g->max_ulp);
        if (g->exact != g->rows) {
            fprintf(stderr, "[%s] %s %s: %u of %u rows differ (every group must be bit-exact)\n",
                    profile_name, g->op, g->sig, g->rows - g->exact, g->rows);
            bad = 1;
        }
    }
    assert_false(bad);
}

static void test_lavapipe(void **state)
{
    (void)state;
    replay("lavapipe", STEX_PROFILE_LAVAPIPE);
}

static void test_nvidia(void **state)
{
    (void)state;
    replay("nvidia", STEX_PROFILE_NVIDIA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lavapipe),
        cmocka_unit_test(test_nvidia),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
