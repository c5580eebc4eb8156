/* Sampled reads: textureLoad with a level, textureSampleLevel with nearest /
 * linear filters, the three address modes, level selection, against values
 * derived by hand from the WebGPU/Vulkan sampling rules; and lavapipe's
 * texel-centre samples of every rgba16float code (conformance data). */
#include <math.h>

#include "rtest.h"

static stex_texture *tex2d(stex_device *dev, stex_format f, uint32_t w, uint32_t h, uint32_t layers,
                           uint32_t mips)
{
    stex_texture_desc td = {.size = {w, h, layers}, .format = f, .mip_level_count = mips,
                            .usage = STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_COPY_DST};
    stex_texture *t;
    RTEST_CHECK_OK(stex_texture_create(dev, &td, &t));
    return t;
}

static void write_level(stex_texture *t, uint32_t mip, uint32_t layer, const void *data, uint32_t w, uint32_t h,
                        uint32_t bpp)
{
    stex_copy_texture dst = {.texture = t, .mip_level = mip, .origin = {0, 0, layer}};
    stex_copy_layout l = {.bytes_per_row = w * bpp, .rows_per_image = h};
    RTEST_CHECK_OK(stex_queue_write_texture(&dst, data, (size_t)w * h * bpp, &l, (stex_extent3d){w, h, 1}));
}

static stex_sampler *sampler(stex_device *dev, stex_address_mode m, stex_filter_mode f,
                             stex_filter_precision prec)
{
    stex_sampler_desc sd = {.address_mode_u = m, .address_mode_v = m, .address_mode_w = m, .mag_filter = f,
                            .min_filter = f, .mipmap_filter = f, .precision = prec};
    stex_sampler *s;
    RTEST_CHECK_OK(stex_sampler_create(dev, &sd, &s));
    return s;
}

/* r32float 4x2, texel (x, y) = x + 10 y. */
typedef struct sample_case {
    stex_address_mode mode;
    stex_filter_mode filter;
    float u, v;
    float expect;
    const char *why;
} sample_case;

static const sample_case cases[] = {
    {STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_NEAREST, 2.5f / 4, 1.5f / 2, 12, "texel centre (2,1)"},
    {STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_NEAREST, 0.99f / 4, 0.2f, 0, "floor(u*W) = 0"},
    {STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_NEAREST, -0.3f, 0.7f, 10, "clamped to x = 0"},
    {STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_NEAREST, 1.3f, 1.3f, 13, "clamped to (3,1)"},
    {STEX_ADDRESS_REPEAT, STEX_FILTER_NEAREST, -0.1f, 0.25f, 3, "floor(-0.4) = -1 wraps to 3"},
    {STEX_ADDRESS_REPEAT, STEX_FILTER_NEAREST, 1.1f, 1.75f, 10, "x 4 -> 0, y 3 -> 1"},
    {STEX_ADDRESS_MIRROR_REPEAT, STEX_FILTER_NEAREST, -0.1f, 0.25f, 0, "-1 mirrors to 0"},
    {STEX_ADDRESS_MIRROR_REPEAT, STEX_FILTER_NEAREST, 1.1f, 1.25f, 13, "x 4 mirrors to 3, y 2 to 1"},
    {STEX_ADDRESS_MIRROR_REPEAT, STEX_FILTER_NEAREST, 1.9f, 0.25f, 0, "x 7 mirrors to 0"},
    {STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_LINEAR, 1.75f / 4, 0.5f / 2, 1.25f, "3/4 of x=1, 1/4 of x=2"},
    {STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_LINEAR, 1.75f / 4, 0.5f, 6.25f, "half way between rows: +5"},
    {STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_LINEAR, 0.0f, 0.25f, 0, "left edge: both taps clamp to x = 0"},
    {STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_LINEAR, 1.0f, 0.75f, 13, "right edge: both taps clamp to x = 3"},
    {STEX_ADDRESS_REPEAT, STEX_FILTER_LINEAR, 0.0f, 0.25f, 1.5f, "left edge: half x=3, half x=0"},
    {STEX_ADDRESS_REPEAT, STEX_FILTER_LINEAR, 0.5f, 0.0f, 6.5f, "top edge: half of y=1 (wrapped), half y=0; x 1.5"},
    {STEX_ADDRESS_MIRROR_REPEAT, STEX_FILTER_LINEAR, 0.0f, 0.25f, 0, "left edge: x=-1 mirrors to 0"},
    {STEX_ADDRESS_MIRROR_REPEAT, STEX_FILTER_LINEAR, -0.25f, 0.25f, 0.5f, "c = -1.5: taps x=-2 -> 1 and x=-1 -> 0, half each"},
};

static void test_filters_and_modes(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    stex_texture *t = tex2d(dev, STEX_FORMAT_R32FLOAT, 4, 2, 1, 1);
    float data[8];
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 4; x++)
            data[y * 4 + x] = (float)(x + 10 * y);
    write_level(t, 0, 0, data, 4, 2, 4);
    stex_texture_view *v;
    RTEST_CHECK_OK(stex_texture_create_view(t, NULL, &v));
    const stex_filter_precision precs[] = {STEX_FILTER_PRECISION_SPEC, STEX_FILTER_PRECISION_LAVAPIPE};
    for (int p = 0; p < 2; p++)
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            const sample_case *c = &cases[i];
            stex_sampler *s = sampler(dev, c->mode, c->filter, precs[p]);
            stex_vec4 out;
            stex_view_sample_level(v, s, NULL, c->u, c->v, 0, 0.0f, &out);
            if (out.f[0] != c->expect || out.f[3] != 1.0f)
                fail_msg("r32float 4x2 %s %s (%s precision) at (%g, %g): %.9g, expected %.9g (%s)",
                         c->filter ? "linear" : "nearest",
                         c->mode == STEX_ADDRESS_REPEAT ? "repeat" : c->mode ? "mirror-repeat" : "clamp-to-edge",
                         p ? "lavapipe" : "spec", (double)c->u, (double)c->v, (double)out.f[0], (double)c->expect,
                         c->why);
            stex_sampler_destroy(s);
        }
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    rtest_release(dev);
}

/* unorm8 in the lavapipe precision: 8-bit weights, integer lerp. */
static void test_unorm8_precision(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_LAVAPIPE);
    stex_texture *t = tex2d(dev, STEX_FORMAT_RGBA8UNORM, 2, 1, 1, 1);
    const uint8_t data[8] = {0, 0, 0, 0, 255, 255, 255, 255};
    write_level(t, 0, 0, data, 2, 1, 4);
    stex_texture_view *v;
    RTEST_CHECK_OK(stex_texture_create_view(t, NULL, &v));
    stex_sampler *lp = sampler(dev, STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_LINEAR, STEX_FILTER_PRECISION_AUTO);
    stex_sampler *sp = sampler(dev, STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_LINEAR, STEX_FILTER_PRECISION_SPEC);
    stex_vec4 a, b;
    /* u = 0.5: half way.  llvmpipe: coordinate 0.5*2*256 - 128 = 128, weight
     * 128 (prescaled: used as is), 0 + ((128 * 255 + 128) >> 8) = 128, then
     * decoded as 128 * f32(1/255) */
    stex_view_sample_level(v, lp, NULL, 0.5f, 0.5f, 0, 0, &a);
    stex_view_sample_level(v, sp, NULL, 0.5f, 0.5f, 0, 0, &b);
    assert_true(a.f[0] == 128.0f * (1.0f / 255.0f));
    assert_true(b.f[0] == 0.5f);
    /* u = 0.3: 0.3*2*256 = 153.6 -> 154 - 128 = 26 -> (26 * 255 + 128) >> 8 = 26 */
    stex_view_sample_level(v, lp, NULL, 0.3f, 0.5f, 0, 0, &a);
    assert_true(a.f[0] == 26.0f * (1.0f / 255.0f));
    /* u = 0.2520: 0.252*512 = 129.02 -> 129 - 128 = 1 -> (255 + 128) >> 8 = 1 (rounded, not floored) */
    stex_view_sample_level(v, lp, NULL, 0.252f, 0.5f, 0, 0, &a);
    assert_true(a.f[0] == 1.0f / 255.0f);
    /* texel centres return the texel itself in both precisions */
    stex_view_sample_level(v, lp, NULL, 0.75f, 0.5f, 0, 0, &a);
    assert_true(a.f[0] == 1.0f);
    stex_sampler_destroy(lp);
    stex_sampler_destroy(sp);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    rtest_release(dev);
}

/* Level of detail: clamped to [lodMinClamp, lodMaxClamp]; nearest mip =
 * ceil(lod + 0.5) - 1; linear mip blends floor(lod) and the next level;
 * lod <= 0 uses magFilter, above minFilter. */
static void test_levels(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    stex_texture *t = tex2d(dev, STEX_FORMAT_R32FLOAT, 8, 8, 2, 3);
    for (uint32_t layer = 0; layer < 2; layer++)
        for (uint32_t m = 0; m < 3; m++) {
            uint32_t n = 8 >> m;
            float data[64];
            for (uint32_t i = 0; i < n * n; i++)
                data[i] = (float)(100 * m + 1000 * layer) + (float)(i % n);
            write_level(t, m, layer, data, n, n, 4);
        }
    stex_view_desc vd = {.dimension = STEX_VIEW_DIMENSION_2D_ARRAY};
    stex_texture_view *v;
    RTEST_CHECK_OK(stex_texture_create_view(t, &vd, &v));
    struct {
        stex_filter_mode mag, min, mip;
        float lod_max;
        float u, level;
        int64_t layer;
        float expect;
        const char *why;
    } c[] = {
        {STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, 0, 0.1f, 0.4f, 0, 0, "lod 0.4 -> level 0"},
        {STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, 0, 0.1f, 0.6f, 0, 100, "lod 0.6 -> level 1"},
        {STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, 0, 0.1f, 1.5f, 0, 100, "lod 1.5 -> level 1 (ties down)"},
        {STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, 0, 0.1f, 1.6f, 1, 1200, "lod 1.6 -> level 2, layer 1"},
        {STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, 0, 0.1f, 9.0f, 0, 200, "lod clamps to the last level"},
        {STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, 1.0f, 0.1f, 9.0f, 0, 100, "lodMaxClamp 1"},
        {STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, STEX_FILTER_LINEAR, 0, 0.1f, 0.25f, 0, 25, "3/4 level 0 + 1/4 level 1"},
        {STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, STEX_FILTER_NEAREST, 0, 0.1f, 0.0f, 7, 1000, "layer clamps to 1"},
        {STEX_FILTER_NEAREST, STEX_FILTER_LINEAR, STEX_FILTER_NEAREST, 0, 0.25f, 0.0f, 0, 2, "lod 0: magFilter nearest"},
        {STEX_FILTER_NEAREST, STEX_FILTER_LINEAR, STEX_FILTER_NEAREST, 0, 0.25f, 0.4f, 0, 1.5f, "lod 0.4: minFilter linear"},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        stex_sampler_desc sd = {.mag_filter = c[i].mag, .min_filter = c[i].min, .mipmap_filter = c[i].mip,
                                .lod_max_clamp = c[i].lod_max};
        stex_sampler *s;
        RTEST_CHECK_OK(stex_sampler_create(dev, &sd, &s));
        stex_vec4 out;
        stex_view_sample_level(v, s, NULL, c[i].u, 0.5f, c[i].layer, c[i].level, &out);
        if (out.f[0] != c[i].expect)
            fail_msg("8x8x2 r32float, 3 levels, u %g level %g layer %lld: %g, expected %g (%s)", (double)c[i].u,
                     (double)c[i].level, (long long)c[i].layer, (double)out.f[0], (double)c[i].expect, c[i].why);
        stex_sampler_destroy(s);
    }
    /* textureLoad with a level */
    stex_vec4 out;
    assert_true(stex_view_load_level(v, NULL, 1, 0, 1, 2, &out));
    assert_true(out.f[0] == 1201.0f);
    const int64_t bad[][4] = {{0, 0, 0, 3}, {0, 0, 0, -1}, {2, 0, 0, 2}, {0, 0, 2, 0}, {-1, 0, 0, 0}, {0, 8, 0, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        out.f[0] = 5;
        assert_false(stex_view_load_level(v, NULL, bad[i][0], bad[i][1], bad[i][2], bad[i][3], &out));
        assert_true(out.u[0] == 0 && out.u[3] == 0);
    }
    /* sampler validation */
    stex_sampler *s = NULL;
    stex_sampler_desc neg = {.lod_min_clamp = -1, .lod_max_clamp = 4};
    assert_int_equal(stex_sampler_create(dev, &neg, &s), STEX_VALIDATION_ERROR);
    assert_true(strstr(stex_last_error(), "lodMinClamp"));
    stex_sampler_desc inv = {.lod_min_clamp = 3, .lod_max_clamp = 2};
    assert_int_equal(stex_sampler_create(dev, &inv, &s), STEX_VALIDATION_ERROR);
    assert_true(strstr(stex_last_error(), "lodMaxClamp 2 must be >= lodMinClamp 3"));
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    rtest_release(dev);
}

static uint16_t f16_bits(uint32_t v) { return (uint16_t)v; }

/* conformance/lavapipe: a 256x256 rgba16float texture holding every f16 code
 * (texel v = code v in r), sampled with a linear sampler at each texel
 * centre.  Where a zero-weight neighbour is inf or NaN, lavapipe returns a
 * NaN (its lerp is w*(t1-t0)+t0): 2558 codes, all reproduced here. */
static void test_lavapipe_centres(void **state)
{
    (void)state;
    static uint32_t expect[65536];
    static char seen[65536];
    FILE *f = fopen(rtest_data("lavapipe-vectors.tsv"), "r");
    if (!f)
        fail_msg("cannot open %s", rtest_data("lavapipe-vectors.tsv"));
    char line[512];
    size_t n_sample = 0;
    while (fgets(line, sizeof line, f)) {
        char op[32], fmt[32];
        unsigned in, out;
        if (sscanf(line, "%31s %31s %x %x", op, fmt, &in, &out) != 4 || strcmp(fmt, "rgba16float") || in > 65535)
            continue;
        if (!strcmp(op, "sample-linear")) {
            expect[in] = out; /* overrides the load value */
            seen[in] = 2;
            n_sample++;
        } else if (!strcmp(op, "load-storage") && seen[in] != 2) {
            expect[in] = out;
            seen[in] = 1;
        }
    }
    fclose(f);
    assert_int_equal(n_sample, 2558);
    stex_device *dev = rtest_device(STEX_PROFILE_LAVAPIPE);
    stex_texture *t = tex2d(dev, STEX_FORMAT_RGBA16FLOAT, 256, 256, 1, 1);
    uint16_t *data = malloc(65536 * 8);
    for (uint32_t v = 0; v < 65536; v++)
        for (uint32_t c = 0; c < 4; c++)
            data[v * 4 + c] = f16_bits((v + c * 16384) & 0xffff); /* as peer/tests/load.mjs lays it out */
    write_level(t, 0, 0, data, 256, 256, 8);
    free(data);
    stex_texture_view *v;
    RTEST_CHECK_OK(stex_texture_create_view(t, NULL, &v));
    stex_sampler *lp = sampler(dev, STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_LINEAR, STEX_FILTER_PRECISION_AUTO);
    stex_sampler *sp = sampler(dev, STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_LINEAR, STEX_FILTER_PRECISION_SPEC);
    size_t bad = 0, spec_exact = 0;
    for (uint32_t code = 0; code < 65536; code++) {
        if (!seen[code])
            fail_msg("rgba16float code %04x missing from the conformance data", code);
        uint32_t x = code % 256, y = code / 256;
        float u = ((float)x + 0.5f) / 256.0f, vv = ((float)y + 0.5f) / 256.0f;
        stex_vec4 out;
        stex_view_sample_level(v, lp, NULL, u, vv, 0, 0, &out);
        if (out.u[0] != expect[code] && bad++ < 10)
            print_message("rgba16float code %04x at (%u,%u): sample %08x, lavapipe %08x\n", code, x, y, out.u[0],
                          expect[code]);
        /* the spec precision returns the texel itself wherever the neighbours are finite */
        if (seen[code] == 1) {
            stex_view_sample_level(v, sp, NULL, u, vv, 0, 0, &out);
            stex_vec4 load;
            assert_true(stex_view_load_level(v, NULL, x, y, 0, 0, &load));
            if (out.u[0] == load.u[0] || (isnan(out.f[0]) && isnan(load.f[0])))
                spec_exact++;
        }
    }
    if (bad)
        fail_msg("%zu of 65536 rgba16float texel-centre samples differ from lavapipe", bad);
    assert_true(spec_exact > 60000);
    stex_sampler_destroy(lp);
    stex_sampler_destroy(sp);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    rtest_release(dev);
}

/* The blur lesson at the sampler level (no dispatch): the kernel's f32
 * arithmetic around stex_view_sample_level, rgba16float stores through the
 * lavapipe profile, compared with lavapipe's output bytes.  The kernel
 * itself lives in src/kernels; this checks that the sampler gives it what
 * lavapipe's sampler gave. */
static uint32_t mulberry_state;
static double mulberry32(void)
{
    mulberry_state += 0x6d2b79f5u;
    uint32_t t = mulberry_state;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return (double)(t ^ (t >> 14)) / 4294967296.0;
}

static void blur_pass(stex_texture_view *src, stex_sampler *smp, stex_texture_view *dst, const stex_profile *p,
                      float dx, float dy)
{
    static const float w[5] = {0.227027f, 0.194594f, 0.121621f, 0.054054f, 0.016216f};
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            float u = ((float)x + 0.5f) / 64.0f, v = ((float)y + 0.5f) / 64.0f;
            float px = dx * 1.0f / 64.0f, py = dy * 1.0f / 64.0f;
            stex_vec4 s, a, b;
            stex_view_sample_level(src, smp, p, u, v, 0, 0, &s);
            float sum[4];
            for (int c = 0; c < 4; c++)
                sum[c] = s.f[c] * w[0];
            for (int i = 1; i < 5; i++) {
                float ox = px * (float)i, oy = py * (float)i;
                stex_view_sample_level(src, smp, p, u + ox, v + oy, 0, 0, &a);
                stex_view_sample_level(src, smp, p, u - ox, v - oy, 0, 0, &b);
                for (int c = 0; c < 4; c++) {
                    float t1 = a.f[c] * w[i];
                    sum[c] = sum[c] + t1;
                    float t2 = b.f[c] * w[i];
                    sum[c] = sum[c] + t2;
                }
            }
            stex_vec4 out = {.f = {sum[0], sum[1], sum[2], sum[3]}};
            assert_true(stex_view_store(dst, p, x, y, 0, &out));
        }
}

static void test_blur_through_sampler(void **state)
{
    (void)state;
    FILE *f = fopen(rtest_data("lavapipe-blur_output.hex"), "r");
    if (!f)
        fail_msg("cannot open %s", rtest_data("lavapipe-blur_output.hex"));
    static uint8_t expect[64 * 64 * 8];
    char line[2048];
    size_t n = 0;
    while (fgets(line, sizeof line, f) && n < sizeof expect) {
        if (line[0] == '#')
            continue;
        for (char *q = line; q[0] && q[1] && q[0] != '\n' && n < sizeof expect; q += 2) {
            unsigned byte;
            sscanf(q, "%2x", &byte);
            expect[n++] = (uint8_t)byte;
        }
    }
    fclose(f);
    assert_int_equal(n, sizeof expect);
    stex_device *dev = rtest_device(STEX_PROFILE_LAVAPIPE);
    const stex_profile *p = stex_device_profile(dev);
    stex_texture *s = tex2d(dev, STEX_FORMAT_RGBA8UNORM, 64, 64, 1, 1);
    static uint8_t src[64 * 64 * 4];
    mulberry_state = 0xb1a5;
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint8_t *t = src + (y * 64 + x) * 4;
            t[0] = (uint8_t)(x * 4);
            t[1] = (uint8_t)(y * 4);
            t[2] = ((x ^ y) & 8) ? 255 : 0;
            t[3] = (uint8_t)(mulberry32() * 256);
        }
    write_level(s, 0, 0, src, 64, 64, 4);
    stex_texture_desc td = {.size = {64, 64, 1}, .format = STEX_FORMAT_RGBA16FLOAT,
                            .usage = STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC};
    stex_texture *tmp, *dst;
    RTEST_CHECK_OK(stex_texture_create(dev, &td, &tmp));
    RTEST_CHECK_OK(stex_texture_create(dev, &td, &dst));
    stex_texture_view *vs, *vt, *vd;
    RTEST_CHECK_OK(stex_texture_create_view(s, NULL, &vs));
    RTEST_CHECK_OK(stex_texture_create_view(tmp, NULL, &vt));
    RTEST_CHECK_OK(stex_texture_create_view(dst, NULL, &vd));
    stex_sampler *smp = sampler(dev, STEX_ADDRESS_CLAMP_TO_EDGE, STEX_FILTER_LINEAR, STEX_FILTER_PRECISION_AUTO);
    blur_pass(vs, smp, vt, p, 1, 0);
    blur_pass(vt, smp, vd, p, 0, 1);
    size_t diff = 0;
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            const uint8_t *got = stex_view_texel(vd, x, y, 0), *want = expect + (y * 64 + x) * 8;
            if (memcmp(got, want, 8) && diff++ < 5)
                print_message("blur texel (%u,%u): %02x%02x.. expected %02x%02x..\n", x, y, got[0], got[1], want[0],
                              want[1]);
        }
    if (diff)
        fail_msg("%zu of 4096 blur texels differ from lavapipe's blur_output.hex", diff);
    stex_sampler_destroy(smp);
    stex_texture_view_destroy(vs);
    stex_texture_view_destroy(vt);
    stex_texture_view_destroy(vd);
    stex_texture_destroy(s);
    stex_texture_destroy(tmp);
    stex_texture_destroy(dst);
    rtest_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_filters_and_modes),
        cmocka_unit_test(test_unorm8_precision),
        cmocka_unit_test(test_levels),
        cmocka_unit_test(test_lavapipe_centres),
        cmocka_unit_test(test_blur_through_sampler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
