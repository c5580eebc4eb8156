/* The sampling builtins against lavapipe and an NVIDIA H200:
 * data/lavapipe-sampling.tsv.gz and data/nvidia-sampling.tsv.gz
 * (tools/measure_sampling.mjs, the command in the file's first line) holds
 * textures, samplers and calls measured through Dawn on lavapipe, with the
 * result bits.  stex_view_sample under the lavapipe profile must return the
 * same bits for every configuration listed in REPRODUCED; the others are
 * counted and printed (docs/profiles.md says which and why). */
#include <zlib.h>

#include "rtest.h"

#define MAX_TEX 16
#define MAX_CFG 256

typedef struct tex_rec {
    char name[32];
    stex_texture *t;
    uint32_t mips;
    char dim[8];
} tex_rec;

typedef struct cfg_rec {
    int id;
    stex_texture_view *view;
    stex_sampler *sampler;
    stex_sample_args args; /* fn, offset, component */
    bool array, scalar;
    uint32_t rows, match;
} cfg_rec;

static uint32_t hexword(const char *s) { return (uint32_t)strtoul(s, NULL, 16); }
static float fbits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static int field(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max && p;) {
        f[n++] = p;
        p = strchr(p, '\t');
        if (p)
            *p++ = 0;
    }
    return n;
}

/* "addressModeU":"repeat" ... from the sampler's JSON (flat, written by the script). */
static int enum_of(const char *json, const char *key, const char *const *names, int dflt)
{
    char k[48];
    snprintf(k, sizeof k, "\"%s\":\"", key);
    const char *p = strstr(json, k);
    if (!p)
        return dflt;
    p += strlen(k);
    for (int i = 0; names[i]; i++)
        if (!strncmp(p, names[i], strlen(names[i])) && p[strlen(names[i])] == '"')
            return i;
    fail_msg("unknown value for %s in %s", key, json);
    return dflt;
}

static float number_of(const char *json, const char *key, float dflt)
{
    char k[48];
    snprintf(k, sizeof k, "\"%s\":", key);
    const char *p = strstr(json, k);
    return p ? strtof(p + strlen(k), NULL) : dflt;
}

static stex_sampler *make_sampler(stex_device *d, const char *json)
{
    static const char *const addr[] = {"clamp-to-edge", "repeat", "mirror-repeat", NULL};
    static const char *const filt[] = {"nearest", "linear", NULL};
    static const char *const cmp[] = {"undefined", "never", "less", "equal", "less-equal",
                                      "greater", "not-equal", "greater-equal", "always", NULL};
    stex_sampler_desc sd = {
        .address_mode_u = enum_of(json, "addressModeU", addr, 0),
        .address_mode_v = enum_of(json, "addressModeV", addr, 0),
        .address_mode_w = enum_of(json, "addressModeW", addr, 0),
        .mag_filter = enum_of(json, "magFilter", filt, 0),
        .min_filter = enum_of(json, "minFilter", filt, 0),
        .mipmap_filter = enum_of(json, "mipmapFilter", filt, 0),
        .lod_min_clamp = number_of(json, "lodMinClamp", 0),
        .lod_max_clamp = number_of(json, "lodMaxClamp", 32),
        .compare = enum_of(json, "compare", cmp, 0)};
    stex_sampler *s = NULL;
    if (stex_sampler_create(d, &sd, &s))
        fail_msg("sampler %s: %s", json, stex_last_error());
    return s;
}

/* fn, offset, gather component and array index of a WGSL call as the script writes it */
static void parse_call(const char *call, cfg_rec *c)
{
    stex_sample_args *a = &c->args;
    memset(a, 0, sizeof *a);
    a->fn = !strncmp(call, "textureSampleLevel", 18) ? STEX_SAMPLE_LEVEL
          : !strncmp(call, "textureSampleGrad", 17) ? STEX_SAMPLE_GRAD
          : !strncmp(call, "textureSampleCompareLevel", 25) ? STEX_SAMPLE_COMPARE_LEVEL
          : !strncmp(call, "textureGatherCompare", 20) ? STEX_SAMPLE_GATHER_COMPARE
          : !strncmp(call, "textureGather", 13) ? STEX_SAMPLE_GATHER
          : STEX_SAMPLE_BASE_CLAMP_TO_EDGE;
    if (a->fn == STEX_SAMPLE_GATHER && call[14] >= '0' && call[14] <= '3')
        a->component = (uint32_t)(call[14] - '0');
    c->array = strstr(call, "i32(c.w)") != NULL;
    const char *v = strstr(call, ", vec2(") ? strstr(call, ", vec2(") : strstr(call, ", vec3(");
    if (v)
        sscanf(v + 7, "%d, %d, %d", &a->offset[0], &a->offset[1], &a->offset[2]);
}

static stex_texture_view *make_view(tex_rec *t, const char *dim)
{
    static const struct { const char *n; stex_view_dimension d; } dims[] = {
        {"2d", STEX_VIEW_DIMENSION_2D}, {"2d-array", STEX_VIEW_DIMENSION_2D_ARRAY},
        {"3d", STEX_VIEW_DIMENSION_3D}, {"cube", STEX_VIEW_DIMENSION_CUBE},
        {"cube-array", STEX_VIEW_DIMENSION_CUBE_ARRAY}};
    stex_view_desc vd = {0};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        if (!strcmp(dims[i].n, dim))
            vd.dimension = dims[i].d;
    stex_texture_view *v = NULL;
    if (stex_texture_create_view(t->t, &vd, &v))
        fail_msg("view %s of %s: %s", dim, t->name, stex_last_error());
    return v;
}

/* The configurations stex does not reproduce bit for bit, with the number
 * of their 64 cases it does (docs/profiles.md): cube-array filtering (93),
 * a depth cube compared at a corner (115), a cube gather at a corner
 * (123), and the level of detail llvmpipe derives from gradients (128, 129:
 * its log2 is an approximation stex does not model).  Every other
 * configuration must match in every case. */
static const struct { int id; uint32_t at_least; } PARTIAL[] = {
    {93, 51}, {115, 62}, {123, 63}, {128, 57}, {129, 62}};

/* NVIDIA H200 (data/nvidia-sampling.tsv.gz, the same script through Dawn on
 * the H200): the nvidia profile samples as spec does until its filtering
 * is modelled, so no configuration is required to match; the number that
 * match today (NVIDIA_MATCHED) may not fall. */
#define NVIDIA_MATCHED 4285

typedef struct measured {
    const char *file, *device;
    stex_profile_id profile;
    bool exact; /* every configuration but PARTIAL's must match */
} measured;

static bool reproduced(const measured *m, const cfg_rec *c)
{
    if (!m->exact)
        return false;
    for (size_t i = 0; i < sizeof PARTIAL / sizeof PARTIAL[0]; i++)
        if (PARTIAL[i].id == c->id)
            return false;
    return true;
}

static uint32_t replay(const measured *m)
{
    const char *dir = getenv("STEX_TEST_DATA");
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", m->file);
    gzFile f = gzopen(path, "rb");
    assert_non_null(f);
    stex_device *d = rtest_device(m->profile);
    static tex_rec tex[MAX_TEX];
    static cfg_rec cfg[MAX_CFG];
    int ntex = 0, ncfg = 0;
    static char line[1 << 16];
    uint32_t total = 0, matched = 0;
    while (gzgets(f, line, sizeof line)) {
        line[strcspn(line, "\r\n")] = 0;
        char *fl[24];
        int n = field(line, fl, 24);
        if (line[0] == 'T' && n == 10) { /* T name format dim w h d mips mip hex */
            tex_rec *t = NULL;
            for (int i = 0; i < ntex; i++)
                if (!strcmp(tex[i].name, fl[1]))
                    t = &tex[i];
            if (!t) {
                assert_true(ntex < MAX_TEX);
                t = &tex[ntex++];
                snprintf(t->name, sizeof t->name, "%s", fl[1]);
                snprintf(t->dim, sizeof t->dim, "%s", fl[3]);
                t->mips = (uint32_t)atoi(fl[7]);
                stex_texture_desc td = {
                    .dimension = !strcmp(fl[3], "3d") ? STEX_TEXTURE_DIMENSION_3D
                                                      : STEX_TEXTURE_DIMENSION_2D,
                    .size = {(uint32_t)atoi(fl[4]), (uint32_t)atoi(fl[5]), (uint32_t)atoi(fl[6])},
                    .format = stex_format_from_name(fl[2]), .mip_level_count = t->mips,
                    .usage = STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_COPY_DST};
                if (stex_texture_create(d, &td, &t->t))
                    fail_msg("texture %s: %s", t->name, stex_last_error());
            }
            size_t len = strlen(fl[9]) / 2;
            uint8_t *bytes = malloc(len + 1);
            for (size_t i = 0; i < len; i++) {
                char h[3] = {fl[9][2 * i], fl[9][2 * i + 1], 0};
                bytes[i] = (uint8_t)strtoul(h, NULL, 16);
            }
            assert_int_equal(stex_texture_set_texels(t->t, (uint32_t)atoi(fl[8]), 0, bytes, len),
                             STEX_OK);
            free(bytes);
        } else if (line[0] == 'C' && n == 6) { /* C id texture view call sampler */
            assert_true(ncfg < MAX_CFG);
            cfg_rec *c = &cfg[ncfg++];
            memset(c, 0, sizeof *c);
            c->id = atoi(fl[1]);
            tex_rec *t = NULL;
            for (int i = 0; i < ntex; i++)
                if (!strcmp(tex[i].name, fl[2]))
                    t = &tex[i];
            assert_non_null(t);
            c->view = make_view(t, fl[3]);
            c->sampler = make_sampler(d, fl[5]);
            parse_call(fl[4], c);
            c->scalar = stex_format_get(stex_view_format(c->view))->kind == STEX_KIND_DEPTH &&
                        c->args.fn != STEX_SAMPLE_GATHER && c->args.fn != STEX_SAMPLE_GATHER_COMPARE;
        } else if (line[0] == 'R' && n == 19) { /* R id case in0..in11 out0..out3 */
            cfg_rec *c = NULL;
            for (int i = 0; i < ncfg; i++)
                if (cfg[i].id == atoi(fl[1]))
                    c = &cfg[i];
            assert_non_null(c);
            stex_sample_args a = c->args;
            uint32_t in[12];
            for (int k = 0; k < 12; k++)
                in[k] = hexword(fl[3 + k]);
            for (int k = 0; k < 3; k++) {
                a.coord[k] = fbits(in[k]);
                a.ddx[k] = fbits(in[6 + k]);
                a.ddy[k] = fbits(in[9 + k]);
            }
            a.array_index = c->array ? (int64_t)fbits(in[3]) : 0;
            a.level = fbits(in[4]);
            a.depth_ref = fbits(in[5]);
            stex_vec4 got;
            stex_view_sample(c->view, c->sampler, NULL, &a, &got);
            if (c->scalar)
                got.u[1] = got.u[2] = got.u[3] = 0;
            bool same = true;
            for (int k = 0; k < 4; k++)
                same &= got.u[k] == hexword(fl[15 + k]);
            c->rows++;
            c->match += same;
            total++;
            matched += same;
            if (!same && getenv("STEX_SAMPLING_DEBUG") && atoi(getenv("STEX_SAMPLING_DEBUG")) == c->id)
                printf("cfg %d: c %g %g %g %g lv %g ref %g g %g %g %g / %g %g %g: got %08x %08x "
                       "%08x %08x want %s %s %s %s\n", c->id, a.coord[0], a.coord[1],
                       a.coord[2], fbits(in[3]), a.level, a.depth_ref, a.ddx[0], a.ddx[1],
                       a.ddx[2], a.ddy[0], a.ddy[1], a.ddy[2], got.u[0], got.u[1], got.u[2],
                       got.u[3], fl[15], fl[16], fl[17], fl[18]);
            if (!same && reproduced(m, c))
                fail_msg("configuration %d case %s: got %08x %08x %08x %08x, %s %s %s %s %s",
                         c->id, fl[2], got.u[0], got.u[1], got.u[2], got.u[3], m->device,
                         fl[15], fl[16], fl[17], fl[18]);
        }
    }
    gzclose(f);
    assert_true(total > 8000);
    printf("%s sampling: %u of %u cases reproduced bit for bit\n", m->device, matched, total);
    for (int i = 0; i < ncfg; i++) {
        if (cfg[i].match != cfg[i].rows && m->exact)
            printf("  configuration %d: %u of %u\n", cfg[i].id, cfg[i].match, cfg[i].rows);
        assert_int_equal(cfg[i].rows, 64);
        for (size_t k = 0; m->exact && k < sizeof PARTIAL / sizeof PARTIAL[0]; k++)
            if (PARTIAL[k].id == cfg[i].id && cfg[i].match < PARTIAL[k].at_least)
                fail_msg("configuration %d: %u of 64 reproduced, was %u", cfg[i].id,
                         cfg[i].match, PARTIAL[k].at_least);
    }
    assert_int_equal(ncfg, 132);
    for (int i = 0; i < ncfg; i++) {
        stex_texture_view_destroy(cfg[i].view);
        stex_sampler_destroy(cfg[i].sampler);
    }
    for (int i = 0; i < ntex; i++)
        stex_texture_destroy(tex[i].t);
    rtest_release(d);
    return matched;
}

static void test_lavapipe_sampling(void **state)
{
    (void)state;
    replay(&(measured){"lavapipe-sampling.tsv.gz", "lavapipe", STEX_PROFILE_LAVAPIPE, true});
}

static void test_nvidia_sampling(void **state)
{
    (void)state;
    uint32_t matched =
        replay(&(measured){"nvidia-sampling.tsv.gz", "nvidia", STEX_PROFILE_NVIDIA, false});
    assert_true(matched >= NVIDIA_MATCHED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_lavapipe_sampling),
                                       cmocka_unit_test(test_nvidia_sampling)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
