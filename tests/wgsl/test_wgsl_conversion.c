/* The store and pack rows of tests/data/lavapipe-vectors.tsv (measured on
 * lavapipe through Dawn by the peer harness's conversion test) replayed
 * through the WGSL interpreter: the harness's own store shader, for every
 * format it measured, and its pack shader, for every pack builtin, run under
 * profile `lavapipe` with the inputs laid out as the harness lays them out
 * (texel i = (v[i], v[i+1], v[i+2], v[i+3]), indices mod the row's width).
 * Every stored texel's bytes and every packed word must equal the row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

#define MAX_ROWS 2048

/* the rows of one (op, name) group, in file order */
typedef struct group {
    char op[8], name[32];
    uint32_t n;
    uint32_t in[MAX_ROWS][4];
    char out[MAX_ROWS][40]; /* hex: texel bytes in memory order, or a u32 */
} group;

/* Reads every store/pack group; calls fn once per group. */
static int for_each_group(void (*fn)(const group *g, int *bad), int *bad)
{
    const char *dir = getenv("STEX_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/lavapipe-vectors.tsv", dir ? dir : "tests/data");
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s (STEX_TEST_DATA)", path);
    static group g;
    static char line[512];
    int groups = 0;
    g.n = 0;
    for (;;) {
        char op[16] = "", name[64] = "", in[128] = "", out[64] = "";
        bool eof = !fgets(line, sizeof line, f);
        if (!eof && (line[0] == '#' ||
                     sscanf(line, "%15[^\t]\t%63[^\t]\t%127[^\t]\t%63[^\t]", op, name, in, out) != 4 ||
                     (strcmp(op, "store") && strcmp(op, "pack"))))
            continue;
        if (g.n && (eof || strcmp(op, g.op) || strcmp(name, g.name))) {
            fn(&g, bad);
            groups++;
            g.n = 0;
        }
        if (eof)
            break;
        if (!g.n) {
            snprintf(g.op, sizeof g.op, "%s", op);
            snprintf(g.name, sizeof g.name, "%s", name);
        }
        assert_true(g.n < MAX_ROWS);
        uint32_t *v = g.in[g.n];
        int k = sscanf(in, "%x %x %x %x", &v[0], &v[1], &v[2], &v[3]);
        assert_true(k == 4 || (k == 2 && !strncmp(name, "pack2x16", 8)));
        snprintf(g.out[g.n], sizeof g.out[0], "%s", out);
        g.n++;
    }
    fclose(f);
    return groups;
}

/* The rows as the harness fed them: input word 4i + c = v[(i + c) mod n],
 * where v is the rows' first channels.  Checks that the file says the same. */
static void harness_inputs(const group *g, uint32_t *words)
{
    for (uint32_t i = 0; i < g->n; i++)
        for (uint32_t c = 0; c < 4; c++)
            words[i * 4 + c] = g->in[(i + c) % g->n][0];
    for (uint32_t i = 0; i < g->n; i++)
        for (uint32_t c = 0; c < 2; c++)
            assert_int_equal(g->in[i][c], words[i * 4 + c]);
}

static stex_device *lavapipe_device(stex_adapter **a)
{
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.profile = STEX_PROFILE_LAVAPIPE;
    assert_int_equal(stex_adapter_create(&ad, a), STEX_OK);
    stex_device_desc dd = {.required_features = stex_adapter_features(*a) &
                                                stex_tier_feature(STEX_TIER_BGRA8UNORM_STORAGE)};
    stex_device *d;
    assert_int_equal(stex_device_create(*a, &dd, &d), STEX_OK);
    return d;
}

/* compiles src and makes its pipeline, failing the test with the diagnostics */
static stex_pipeline *pipeline(stex_device *d, const char *src, stex_wgsl_module **m)
{
    *m = fixture_module(src, "conversion.wgsl");
    stex_pipeline *p;
    stex_wgsl_options o = {.subgroup_width = 8};
    if (stex_wgsl_pipeline_create(d, *m, "main", &o, &p))
        fail_msg("%s", stex_last_error());
    return p;
}

static stex_buffer *input_buffer(stex_device *d, const group *g)
{
    stex_buffer *b;
    stex_buffer_desc bd = {.size = (uint64_t)g->n * 16, .usage = STEX_BUFFER_USAGE_STORAGE};
    assert_int_equal(stex_buffer_create(d, &bd, &b), STEX_OK);
    harness_inputs(g, (uint32_t *)(void *)stex_buffer_data(b));
    return b;
}

static void hex(const uint8_t *bytes, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", bytes[i]);
}

static void replay_store(const group *g, int *bad)
{
    stex_format fmt = stex_format_from_name(g->name);
    assert_int_not_equal(fmt, STEX_FORMAT_UNDEFINED);
    const stex_format_info *info = stex_format_get(fmt);
    const char *conv = info->scalar == STEX_SCALAR_F32   ? "bitcast<vec4<f32>>(v)"
                       : info->scalar == STEX_SCALAR_I32 ? "bitcast<vec4<i32>>(v)"
                                                         : "v";
    char src[1024];
    snprintf(src, sizeof src,
             "@group(0) @binding(0) var<storage, read> inp : array<vec4<u32>>;\n"
             "@group(0) @binding(1) var dst : texture_storage_2d<%s, write>;\n"
             "@compute @workgroup_size(64)\n"
             "fn main(@builtin(global_invocation_id) g : vec3<u32>) {\n"
             "  if (g.x >= arrayLength(&inp)) { return; }\n"
             "  let v = inp[g.x];\n"
             "  textureStore(dst, vec2<u32>(g.x, 0u), %s);\n"
             "}\n",
             g->name, conv);
    stex_adapter *a;
    stex_device *d = lavapipe_device(&a);
    stex_wgsl_module *m;
    stex_pipeline *p = pipeline(d, src, &m);
    stex_texture *t;
    stex_texture_desc td = {.size = {g->n, 1, 1}, .format = fmt,
                            .usage = STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC};
    assert_int_equal(stex_texture_create(d, &td, &t), STEX_OK);
    stex_texture_view *v;
    assert_int_equal(stex_texture_create_view(t, NULL, &v), STEX_OK);
    for (uint32_t i = 0; i < g->n; i++)
        memset(stex_view_texel(v, i, 0, 0), 0xa5, info->bytes); /* the harness's sentinel */
    stex_buffer *in = input_buffer(d, g);
    stex_bind_group_entry be[2] = {{.binding = 0, .buffer = in}, {.binding = 1, .view = v}};
    stex_bind_group *bg;
    assert_int_equal(stex_bind_group_create(p, be, 2, &bg), STEX_OK);
    assert_int_equal(stex_dispatch(p, bg, (g->n + 63) / 64, 1, 1, NULL), STEX_OK);
    int wrong = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        char got[40];
        hex(stex_view_texel(v, i, 0, 0), info->bytes, got);
        if (strcmp(got, g->out[i]) && wrong++ < 3)
            fprintf(stderr, "store %s texel %u: stex %s, lavapipe %s\n", g->name, i, got,
                    g->out[i]);
    }
    printf("  store %-12s %4u texels, %d differ\n", g->name, g->n, wrong);
    *bad += wrong;
    stex_bind_group_destroy(bg);
    stex_buffer_destroy(in);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

static void replay_pack(const group *g, int *bad)
{
    const char *arg = !strncmp(g->name, "pack2x16", 8) ? "bitcast<vec4<f32>>(inp[i]).xy"
                                                       : "bitcast<vec4<f32>>(inp[i])";
    char src[1024];
    snprintf(src, sizeof src,
             "@group(0) @binding(0) var<storage, read> inp : array<vec4<u32>>;\n"
             "@group(0) @binding(1) var<storage, read_write> outp : array<u32>;\n"
             "@compute @workgroup_size(64)\n"
             "fn main(@builtin(global_invocation_id) g : vec3<u32>) {\n"
             "  let i = g.x;\n"
             "  if (i >= arrayLength(&inp)) { return; }\n"
             "  outp[i] = %s(%s);\n"
             "}\n",
             g->name, arg);
    stex_adapter *a;
    stex_device *d = lavapipe_device(&a);
    stex_wgsl_module *m;
    stex_pipeline *p = pipeline(d, src, &m);
    stex_buffer *in = input_buffer(d, g), *out;
    stex_buffer_desc bd = {.size = (uint64_t)g->n * 4, .usage = STEX_BUFFER_USAGE_STORAGE};
    assert_int_equal(stex_buffer_create(d, &bd, &out), STEX_OK);
    stex_bind_group_entry be[2] = {{.binding = 0, .buffer = in}, {.binding = 1, .buffer = out}};
    stex_bind_group *bg;
    assert_int_equal(stex_bind_group_create(p, be, 2, &bg), STEX_OK);
    assert_int_equal(stex_dispatch(p, bg, (g->n + 63) / 64, 1, 1, NULL), STEX_OK);
    const uint32_t *w = (const uint32_t *)(const void *)stex_buffer_data(out);
    int wrong = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        char got[16];
        snprintf(got, sizeof got, "%08x", w[i]);
        if (strcmp(got, g->out[i]) && wrong++ < 3)
            fprintf(stderr, "%s input %u: stex %s, lavapipe %s\n", g->name, i, got, g->out[i]);
    }
    printf("  %-18s %4u inputs, %d differ\n", g->name, g->n, wrong);
    *bad += wrong;
    stex_bind_group_destroy(bg);
    stex_buffer_destroy(in);
    stex_buffer_destroy(out);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

static void replay(const group *g, int *bad)
{
    if (!strcmp(g->op, "store"))
        replay_store(g, bad);
    else
        replay_pack(g, bad);
}

static void test_store_and_pack_rows(void **state)
{
    (void)state;
    int bad = 0;
    int groups = for_each_group(replay, &bad);
    assert_int_equal(groups, 17 + 5); /* every format and pack builtin the harness measured */
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_and_pack_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
