/* Replays the f16 results measured on a device (tests/data/f16expr-<profile>.tsv.gz, written
 * by tools/f16expr.mjs: columns op, signature, source, inputs, output) through the matching
 * profile, one (op, signature) group at a time.  Every row must replay bit-exactly.
 *
 * lavapipe's file is required.  nvidia's is replayed when present (the profile's f16 choices
 * are unmeasured until it is; docs/profiles.md).  The summary printed (rows bit-exact / rows
 * per group) is the f16 table of docs/profiles.md. */
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
    long max_ulp; /* over rows whose expected and actual f16 results are both finite */
} group;

/* lavapipe's f16 builtins that stex reproduces only approximately (one exp2
 * row that the others inherit; asin and acos's f16 polynomial).  The counts
 * are those of today (a regression fails; an improvement prints a note):
 * rows bit-exact, largest f16 ulp distance. */
typedef struct model {
    const char *op, *sig;
    unsigned min_exact;
    long max_ulp;
} model;

static const model MODELS[] = {
#include "f16_models.h"
};

static const model *find_model(const char *profile, const char *op, const char *sig)
{
    if (strcmp(profile, "lavapipe"))
        return NULL;
    for (size_t i = 0; i < sizeof MODELS / sizeof MODELS[0]; i++)
        if (!strcmp(MODELS[i].op, op) && !strcmp(MODELS[i].sig, sig))
            return &MODELS[i];
    return NULL;
}

static int h_finite(uint32_t h)
{
    return (h & 0x7c00u) != 0x7c00u;
}

static long h_ulp(uint32_t a, uint32_t b)
{
    long ia = (a & 0x8000u) ? -(long)(a & 0x7fffu) : (long)a;
    long ib = (b & 0x8000u) ? -(long)(b & 0x7fffu) : (long)b;
    return ia > ib ? ia - ib : ib - ia;
}

enum { MAX_GROUPS = 128 };

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

/* Returns the number of rows replayed (0: no file and !required). */
static unsigned replay(const char *profile_name, stex_profile_id id, int required)
{
    const char *dir = getenv("STEX_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/f16expr-%s.tsv.gz", dir ? dir : "tests/data", profile_name);
    gzFile f = gzopen(path, "rb");
    if (!f) {
        if (required)
            fail_msg("cannot open %s", path);
        printf("[%s] %s absent: not replayed\n", profile_name, path);
        return 0;
    }
    const stex_profile *p = stex_profile_get(id);
    static group groups[MAX_GROUPS];
    int ng = 0;
    unsigned total = 0;
    char line[512];
    while (gzgets(f, line, sizeof line)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = 0;
        char *op = strtok(line, "\t"), *sig = strtok(NULL, "\t");
        char *source = strtok(NULL, "\t"), *inputs = strtok(NULL, "\t");
        char *output = strtok(NULL, "\t");
        assert_non_null(output);
        assert_string_equal(source, "storage");
        group *g = group_of(groups, &ng, op, sig);
        g->rows++;
        total++;
        if (!strcmp(sig, "bool->f16")) { /* WGSL: true is 1.0, false 0.0 (not a math.def row) */
            g->exact += strtoul(output, NULL, 16) == (strtoul(inputs, NULL, 16) ? 0x3c00u : 0u);
            continue;
        }
        stex_math_fn fn;
        if (!stex_math_fn_find(op, sig, &fn))
            fail_msg("[%s] %s %s: no overload in stex/math.def", profile_name, op, sig);
        const stex_math_fn_info *info = stex_math_fn_get(fn);
        uint32_t in[8], want[8], got[8] = {0};
        assert_int_equal(parse_hex_list(inputs, in, 8), (int)info->in_words);
        assert_int_equal(parse_hex_list(output, want, 8), (int)info->out_words);
        assert_int_equal(stex_math_eval(p, fn, in, got), STEX_OK);
        if (!memcmp(got, want, info->out_words * sizeof got[0])) {
            g->exact++;
            continue;
        }
        long ulp = h_finite(got[0]) && h_finite(want[0]) ? h_ulp(got[0], want[0]) : 0x10000L;
        if (strstr(sig, "->f16") && ulp > g->max_ulp)
            g->max_ulp = ulp;
        const char *show_env = getenv("STEX_REPLAY_SHOW");
        if (!find_model(profile_name, op, sig) &&
            g->shown++ < (show_env ? (unsigned)atoi(show_env) : 6u))
            fprintf(stderr, "[%s] %s %s (%s): device %s, stex %x,%x\n", profile_name, op, sig,
                    inputs, output, got[0], got[1]);
    }
    gzclose(f);
    int bad = 0;
    printf("[%s] f16 group rows-bit-exact/rows max-ulp\n", profile_name);
    for (int i = 0; i < ng; i++) {
        const group *g = &groups[i];
        const model *m = find_model(profile_name, g->op, g->sig);
        printf("  %-12s %-20s %6u/%-6u %ld%s\n", g->op, g->sig, g->exact, g->rows,
               g->max_ulp, m ? "  (model)" : "");
        if (!m) {
            bad |= g->exact != g->rows;
        } else if (g->exact < m->min_exact || g->max_ulp > m->max_ulp) {
            fprintf(stderr, "[%s] %s %s regressed: %u bit-exact (recorded %u), max ulp %ld "
                    "(recorded %ld)\n", profile_name, g->op, g->sig, g->exact, m->min_exact,
                    g->max_ulp, m->max_ulp);
            bad = 1;
        } else if (g->exact > m->min_exact) {
            printf("    improved: update f16_models.h to %u\n", g->exact);
        }
    }
    assert_false(bad);
    return total;
}

static void test_lavapipe(void **state)
{
    (void)state;
    /* the file holds every group tools/f16expr.mjs measures: 1.6 million rows */
    assert_true(replay("lavapipe", STEX_PROFILE_LAVAPIPE, 1) > 1000000);
}

static void test_nvidia(void **state)
{
    (void)state;
    replay("nvidia", STEX_PROFILE_NVIDIA, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lavapipe),
        cmocka_unit_test(test_nvidia),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
