/* The sampler's fast paths against its general path: table decoders
 * (src/resource/sample_codec.c) against the formats' decoders, and the
 * engine's entry stex__sample_level_2d (address tables, the specialised
 * linear clamp-to-edge filter, SSE2 blend) against stex_view_sample_level
 * with the tables turned off (every texel through the decoder, the tiled
 * address, the general filter).  Bit for bit, under every profile and
 * filtering precision, on random texels that include inf, NaN payloads,
 * -0 and subnormals, at texel centres, random, edge and non-finite
 * coordinates. */
#include <math.h>

#include "rtest.h"
#include "resource/sample_codec.h"

static uint64_t rng_state = 0x5eed1234u;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static const stex_format formats[] = {
    STEX_FORMAT_RGBA16FLOAT, STEX_FORMAT_RG16FLOAT,  STEX_FORMAT_R16FLOAT,
    STEX_FORMAT_RGBA8UNORM,  STEX_FORMAT_RGBA8SNORM, STEX_FORMAT_R8SNORM,
    STEX_FORMAT_BGRA8UNORM,  STEX_FORMAT_RG8UNORM,   STEX_FORMAT_RGBA16UNORM,
    STEX_FORMAT_RGBA16SNORM, STEX_FORMAT_R32FLOAT,   STEX_FORMAT_RGB10A2UNORM,
};

/* f16 codes a filter must not lose: inf, quiet and signalling NaN payloads,
 * -0, subnormals, the largest finite. */
static const uint16_t special16[] = {0x7c00, 0xfc00, 0x7e01, 0x7c01, 0xfd55, 0x8000,
                                     0x0000, 0x0001, 0x83ff, 0x7bff, 0xfbff, 0x3c00};

static void fill(uint8_t *data, size_t n, const stex_format_info *fi)
{
    for (size_t i = 0; i < n; i++)
        data[i] = (uint8_t)rnd();
    if (fi->type == STEX_CHANNEL_FLOAT && fi->bits[0] == 16)
        for (size_t i = 0; i + 1 < n; i += 2)
            if (rnd() % 3 == 0) {
                uint16_t h = special16[rnd() % (sizeof special16 / sizeof *special16)];
                data[i] = (uint8_t)h;
                data[i + 1] = (uint8_t)(h >> 8);
            }
}

static void test_codec_tables(void **state)
{
    (void)state;
    for (int pid = 0; pid < STEX_PROFILE_COUNT; pid++) {
        const stex_profile *p = stex_profile_get((stex_profile_id)pid);
        for (size_t k = 0; k < sizeof formats / sizeof *formats; k++) {
            const stex_format_info *fi = stex_format_get(formats[k]);
            stex_decode_fn dec = stex_decoder(formats[k]);
            if (!dec)
                fail_msg("%s: no decoder", fi->name);
            const sample_codec *c = sample_codec_get(p, formats[k], dec);
            assert_non_null(c);
            for (int i = 0; i < 20000; i++) {
                uint8_t t[16] = {0};
                fill(t, fi->bytes, fi);
                stex_vec4 a, b;
                dec(p, t, &a);
                sample_codec_decode(c, dec, p, t, &b);
                for (int ch = 0; ch < 4; ch++)
                    if (a.u[ch] != b.u[ch])
                        fail_msg("%s %s codec kind %d: texel %02x%02x%02x%02x%02x%02x%02x%02x "
                                 "channel %d: decoder 0x%08x, table 0x%08x",
                                 stex_profile_name((stex_profile_id)pid), fi->name, (int)c->kind,
                                 t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], ch, a.u[ch],
                                 b.u[ch]);
            }
        }
    }
    /* the hot formats do get tables */
    const stex_profile *lp = stex_profile_get(STEX_PROFILE_LAVAPIPE);
    assert_int_equal(sample_codec_get(lp, STEX_FORMAT_RGBA16FLOAT,
                                      stex_decoder(STEX_FORMAT_RGBA16FLOAT))->kind,
                     SAMPLE_CODEC_U16);
    assert_int_equal(sample_codec_get(lp, STEX_FORMAT_RGBA8UNORM,
                                      stex_decoder(STEX_FORMAT_RGBA8UNORM))->kind,
                     SAMPLE_CODEC_U8);
}

static float coord(uint32_t i, uint32_t n)
{
    switch (rnd() % 8) {
    case 0: case 1: case 2: return ((float)(rnd() % n) + 0.5f) / (float)n; /* texel centre */
    case 3: return (float)((int)(rnd() % 4096) - 1024) / 2048.0f;        /* [-0.5, 1.5) */
    case 4: return (float)(rnd() % (4 * n)) / (float)(4 * n);            /* quarter texels */
    case 5: {
        static const float odd[] = {0.0f, -0.0f, 1.0f, INFINITY, -INFINITY, NAN, 1e20f, -1e20f,
                                    1e-40f, 0.99999994f};
        return odd[i % (sizeof odd / sizeof *odd)];
    }
    default: return (float)rnd() / 4294967296.0f;
    }
}

static void test_fast_matches_general(void **state)
{
    (void)state;
    static const float levels[] = {0.0f, -0.0f, 0.0f, 0.7f, 1.5f, NAN, -2.0f, 0.0f};
    static const stex_filter_precision precs[] = {STEX_FILTER_PRECISION_AUTO,
                                                  STEX_FILTER_PRECISION_SPEC,
                                                  STEX_FILTER_PRECISION_LAVAPIPE};
    static const uint32_t sizes[][3] = {{16, 8, 1}, {13, 7, 3}, {64, 64, 2}};
    size_t checked = 0;
    for (int pid = 0; pid < STEX_PROFILE_COUNT; pid++) {
        stex_device *dev = rtest_device((stex_profile_id)pid);
        const stex_profile *prof = stex_profile_get((stex_profile_id)pid);
        for (size_t k = 0; k < sizeof formats / sizeof *formats; k++)
            for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
                const stex_format_info *fi = stex_format_get(formats[k]);
                uint32_t w = sizes[z][0], h = sizes[z][1], mips = sizes[z][2];
                stex_texture_desc td = {.size = {w, h, 1}, .format = formats[k],
                                        .mip_level_count = mips,
                                        .usage = STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_COPY_DST};
                stex_texture *t;
                RTEST_CHECK_OK(stex_texture_create(dev, &td, &t));
                for (uint32_t m = 0; m < mips; m++) {
                    uint32_t lw = w >> m ? w >> m : 1, lh = h >> m ? h >> m : 1;
                    size_t n = (size_t)lw * lh * fi->bytes;
                    uint8_t *data = malloc(n);
                    fill(data, n, fi);
                    stex_copy_texture dst = {.texture = t, .mip_level = m};
                    stex_copy_layout l = {.bytes_per_row = lw * fi->bytes, .rows_per_image = lh};
                    RTEST_CHECK_OK(stex_queue_write_texture(&dst, data, n, &l,
                                                            (stex_extent3d){lw, lh, 1}));
                    free(data);
                }
                stex_texture_view *v;
                RTEST_CHECK_OK(stex_texture_create_view(t, NULL, &v));
                /* the dispatch's address tables (dispatch/bind_group.c split_layout) */
                stex_view_access acc;
                stex_view_get_access(v, &acc);
                uint64_t *col = malloc(w * sizeof *col), *row = malloc(h * sizeof *row);
                uint64_t origin = stex_level_offset(&acc.layout, 0, 0, 0);
                for (uint32_t x = 0; x < w; x++)
                    col[x] = stex_level_offset(&acc.layout, x, 0, 0);
                for (uint32_t y = 0; y < h; y++)
                    row[y] = stex_level_offset(&acc.layout, 0, y, 0) - origin;
                for (int mode = 0; mode < 3; mode++)
                    for (int filt = 0; filt < 2; filt++)
                        for (size_t pr = 0; pr < 3; pr++) {
                            stex_sampler_desc sd = {
                                .address_mode_u = (stex_address_mode)mode,
                                .address_mode_v = (stex_address_mode)((mode + filt) % 3),
                                .mag_filter = (stex_filter_mode)filt,
                                .min_filter = (stex_filter_mode)filt,
                                .mipmap_filter = STEX_FILTER_LINEAR, .precision = precs[pr]};
                            if (filt && mode == 0)
                                sd.address_mode_v = STEX_ADDRESS_CLAMP_TO_EDGE;
                            stex_sampler *s;
                            RTEST_CHECK_OK(stex_sampler_create(dev, &sd, &s));
                            for (uint32_t i = 0; i < 300; i++) {
                                float u = coord(i, w), vv = coord(i / 3, h);
                                float lev = levels[i % (sizeof levels / sizeof *levels)];
                                stex_vec4 ref, fast, slow;
                                sample_codec_enable(false);
                                stex_view_sample_level(v, s, prof, u, vv, 0, lev, &ref);
                                sample_codec_enable(true);
                                stex__sample_level_2d(v, s, prof, u, vv, lev, acc.memory, col, row,
                                                      &fast);
                                stex_view_sample_level(v, s, prof, u, vv, 0, lev, &slow);
                                for (int c = 0; c < 4; c++)
                                    if (fast.u[c] != ref.u[c] || slow.u[c] != ref.u[c])
                                        fail_msg("%s %s %ux%u mode u %d v %d filter %d precision "
                                                 "%d: u %a v %a level %g channel %d: general "
                                                 "0x%08x, fast 0x%08x, tables 0x%08x",
                                                 stex_profile_name((stex_profile_id)pid),
                                                 fi->name, w, h, (int)sd.address_mode_u,
                                                 (int)sd.address_mode_v, filt, (int)precs[pr],
                                                 (double)u, (double)vv, (double)lev, c, ref.u[c],
                                                 fast.u[c], slow.u[c]);
                                checked++;
                            }
                            stex_sampler_destroy(s);
                        }
                free(col);
                free(row);
                stex_texture_view_destroy(v);
                stex_texture_destroy(t);
            }
        rtest_release(dev);
    }
    assert_true(checked > 100000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codec_tables),
        cmocka_unit_test(test_fast_matches_general),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
