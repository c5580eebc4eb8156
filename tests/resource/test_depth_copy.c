/* Copies of depth-or-stencil textures against the spec's "Depth-stencil
 * formats" table (written out here: which aspect may be a copy source or
 * destination, and its footprint) and its rules: buffer copies name one
 * aspect, offsets are multiples of 4, a copy covers the whole level,
 * copyTextureToTexture names every aspect.  depth32float-stencil8 needs
 * its feature. */
#include "rtest.h"

#define TU (STEX_USAGE_COPY_SRC | STEX_USAGE_COPY_DST | STEX_USAGE_TEXTURE_BINDING)
#define BU (STEX_BUFFER_USAGE_COPY_SRC | STEX_BUFFER_USAGE_COPY_DST)
#define ALL STEX_ASPECT_ALL
#define DEPTH STEX_ASPECT_DEPTH_ONLY
#define STENCIL STEX_ASPECT_STENCIL_ONLY

/* a spec-profile device with the features a case needs */
static stex_device *device_with(uint32_t features)
{
    return rtest_device_with(STEX_PROFILE_SPEC, features);
}

static stex_texture *make(stex_device *d, const char *format, stex_extent3d size, uint32_t mips)
{
    stex_texture_desc td = {.dimension = STEX_TEXTURE_DIMENSION_2D, .size = size,
                            .format = stex_format_from_name(format), .mip_level_count = mips,
                            .usage = TU};
    stex_texture *t;
    RTEST_CHECK_OK(stex_texture_create(d, &td, &t));
    return t;
}

static void test_d32s8_needs_feature(void **state)
{
    (void)state;
    stex_texture_desc td = {.dimension = STEX_TEXTURE_DIMENSION_2D, .size = {4, 4, 1},
                            .format = STEX_FORMAT_DEPTH32FLOAT_STENCIL8, .usage = TU};
    stex_texture *t = NULL;
    stex_device *d = device_with(0);
    assert_int_equal(stex_texture_create(d, &td, &t), STEX_TYPE_ERROR);
    assert_non_null(strstr(stex_last_error(), "requires feature depth32float-stencil8"));
    rtest_release(d);
    d = device_with(STEX_FEATURE_DEPTH32FLOAT_STENCIL8);
    RTEST_CHECK_OK(stex_texture_create(d, &td, &t));
    stex_texture_destroy(t);
    td.dimension = STEX_TEXTURE_DIMENSION_3D;
    assert_int_equal(stex_texture_create(d, &td, &t), STEX_VALIDATION_ERROR);
    rtest_release(d);
}

/* The spec's table: may (format, aspect) be copied to / from a buffer, and
 * how many bytes a texel gives.  "all" names the one aspect of a
 * single-aspect format and two of a combined one (never valid here). */
static const struct {
    const char *format;
    stex_texture_aspect aspect;
    bool src, dst;
    uint32_t bytes;
} table[] = {
    {"stencil8", ALL, true, true, 1},           {"stencil8", STENCIL, true, true, 1},
    {"stencil8", DEPTH, false, false, 0},        {"depth16unorm", ALL, true, true, 2},
    {"depth16unorm", DEPTH, true, true, 2},      {"depth16unorm", STENCIL, false, false, 0},
    {"depth24plus", ALL, false, false, 0},       {"depth24plus", DEPTH, false, false, 0},
    {"depth24plus-stencil8", ALL, false, false, 0},
    {"depth24plus-stencil8", DEPTH, false, false, 0},
    {"depth24plus-stencil8", STENCIL, true, true, 1},
    {"depth32float", ALL, true, false, 4},       {"depth32float", DEPTH, true, false, 4},
    {"depth32float-stencil8", ALL, false, false, 0},
    {"depth32float-stencil8", DEPTH, true, false, 4},
    {"depth32float-stencil8", STENCIL, true, true, 1},
};

static void test_buffer_copy_table(void **state)
{
    (void)state;
    stex_device *d = device_with(STEX_FEATURE_DEPTH32FLOAT_STENCIL8);
    stex_buffer *b;
    RTEST_CHECK_OK(stex_buffer_create(d, &(stex_buffer_desc){.size = 4096, .usage = BU}, &b));
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        stex_texture *t = make(d, table[i].format, (stex_extent3d){8, 4, 1}, 1);
        stex_copy_texture ct = {.texture = t, .aspect = table[i].aspect};
        stex_copy_layout l = {0, 256, 0};
        stex_extent3d whole = {8, 4, 1};
        stex_status s2b = stex_check_copy_texture_to_buffer(&ct, b, &l, whole);
        if ((s2b == STEX_OK) != table[i].src)
            fail_msg("%s %s as copy source: %s", table[i].format,
                     stex_texture_aspect_name(table[i].aspect), s2b ? stex_last_error() : "accepted");
        stex_status b2t = stex_check_copy_buffer_to_texture(b, &l, &ct, whole);
        if ((b2t == STEX_OK) != table[i].dst)
            fail_msg("%s %s as copy destination: %s", table[i].format,
                     stex_texture_aspect_name(table[i].aspect), b2t ? stex_last_error() : "accepted");
        if (table[i].src) {
            /* the footprint: required bytes are 256 * 3 + 8 texels * bytes */
            uint64_t need = 256 * 3 + 8 * table[i].bytes;
            stex_buffer *exact, *short4;
            RTEST_CHECK_OK(stex_buffer_create(d, &(stex_buffer_desc){.size = need, .usage = BU},
                                              &exact));
            RTEST_CHECK_OK(stex_buffer_create(d, &(stex_buffer_desc){.size = need - 4, .usage = BU},
                                              &short4));
            RTEST_CHECK_OK(stex_check_copy_texture_to_buffer(&ct, exact, &l, whole));
            assert_int_equal(stex_check_copy_texture_to_buffer(&ct, short4, &l, whole),
                             STEX_VALIDATION_ERROR);
            assert_non_null(strstr(stex_last_error(), "too small"));
            stex_buffer_destroy(exact);
            stex_buffer_destroy(short4);
        }
        if (table[i].dst) { /* writeTexture: the data's exact size, tight rows */
            uint8_t data[4 * 8 * 4] = {0};
            stex_copy_layout tight = {0, 8 * table[i].bytes, 0};
            size_t need = 4 * 8 * table[i].bytes;
            RTEST_CHECK_OK(stex_queue_write_texture(&ct, data, need, &tight, whole));
            assert_int_equal(stex_queue_write_texture(&ct, data, need - 1, &tight, whole),
                             STEX_VALIDATION_ERROR);
            assert_non_null(strstr(stex_last_error(), "too small"));
        }
        stex_texture_destroy(t);
    }
    stex_buffer_destroy(b);
    rtest_release(d);
}

/* depth32float-stencil8: the stencil aspect moves alone, the depth aspect
 * reads back the floats given, and a stencil write leaves depth alone. */
static void test_d32s8_aspects_move_their_bytes(void **state)
{
    (void)state;
    stex_device *d = device_with(STEX_FEATURE_DEPTH32FLOAT_STENCIL8);
    stex_texture *t = make(d, "depth32float-stencil8", (stex_extent3d){4, 2, 1}, 1);
    uint8_t texels[8][8];
    float depth[8];
    for (int i = 0; i < 8; i++) {
        depth[i] = 0.125f * (float)i + 0.01f;
        assert_true(stex_depth_encode(STEX_FORMAT_DEPTH32FLOAT_STENCIL8, depth[i], texels[i]));
        texels[i][4] = (uint8_t)(200 + i);
    }
    RTEST_CHECK_OK(stex_texture_set_texels(t, 0, 0, texels, sizeof texels));
    stex_buffer *b;
    RTEST_CHECK_OK(stex_buffer_create(d, &(stex_buffer_desc){.size = 1024, .usage = BU}, &b));
    stex_copy_texture dep = {.texture = t, .aspect = DEPTH};
    stex_copy_texture sten = {.texture = t, .aspect = STENCIL};
    stex_copy_layout l = {0, 256, 0};
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&dep, b, &l, (stex_extent3d){4, 2, 1}));
    for (int y = 0; y < 2; y++)
        assert_memory_equal(stex_buffer_data(b) + 256 * y, &depth[4 * y], 16);
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&sten, b, &l, (stex_extent3d){4, 2, 1}));
    for (int i = 0; i < 8; i++)
        assert_int_equal(stex_buffer_data(b)[256 * (i / 4) + i % 4], 200 + i);
    /* write new stencil values through writeTexture (offset 1 is fine there) */
    uint8_t s[1 + 8];
    for (int i = 0; i < 8; i++)
        s[1 + i] = (uint8_t)(17 * i);
    RTEST_CHECK_OK(stex_queue_write_texture(&sten, s, sizeof s, &(stex_copy_layout){1, 4, 0},
                                            (stex_extent3d){4, 2, 1}));
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&sten, b, &l, (stex_extent3d){4, 2, 1}));
    for (int i = 0; i < 8; i++)
        assert_int_equal(stex_buffer_data(b)[256 * (i / 4) + i % 4], 17 * i);
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&dep, b, &l, (stex_extent3d){4, 2, 1}));
    for (int y = 0; y < 2; y++)
        assert_memory_equal(stex_buffer_data(b) + 256 * y, &depth[4 * y], 16);
    stex_buffer_destroy(b);
    stex_texture_destroy(t);
    rtest_release(d);
}

/* The whole-level rule, the offset rule of 4, copyTextureToTexture's
 * every-aspect rule. */
static void test_rules(void **state)
{
    (void)state;
    stex_device *d = device_with(STEX_FEATURE_DEPTH32FLOAT_STENCIL8);
    stex_buffer *b;
    RTEST_CHECK_OK(stex_buffer_create(d, &(stex_buffer_desc){.size = 4096, .usage = BU}, &b));
    stex_texture *s8 = make(d, "stencil8", (stex_extent3d){8, 4, 1}, 2);
    stex_copy_texture c = {.texture = s8};
    stex_copy_layout l = {0, 256, 0};
    assert_int_equal(stex_check_copy_buffer_to_texture(b, &l, &c, (stex_extent3d){4, 4, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "must cover the whole subresource: copySize 4x4 is "
                                               "not the mip level's 8x4"));
    c.mip_level = 1; /* level 1 is 4x2: whole */
    RTEST_CHECK_OK(stex_check_copy_buffer_to_texture(b, &l, &c, (stex_extent3d){4, 2, 1}));
    c.mip_level = 0;
    /* a 1-byte footprint, yet buffer offsets of depth-or-stencil copies are multiples of 4 */
    l.offset = 2;
    assert_int_equal(stex_check_copy_buffer_to_texture(b, &l, &c, (stex_extent3d){8, 4, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "offset 2 is not a multiple of 4"));
    l.offset = 4;
    RTEST_CHECK_OK(stex_check_copy_buffer_to_texture(b, &l, &c, (stex_extent3d){8, 4, 1}));

    stex_texture *a = make(d, "depth24plus-stencil8", (stex_extent3d){8, 4, 1}, 1);
    stex_texture *a2 = make(d, "depth24plus-stencil8", (stex_extent3d){8, 4, 1}, 1);
    uint32_t words[32];
    for (int i = 0; i < 32; i++)
        words[i] = 0x01020304u * (uint32_t)(i + 1);
    RTEST_CHECK_OK(stex_texture_set_texels(a, 0, 0, words, sizeof words));
    stex_copy_texture from = {.texture = a}, to = {.texture = a2};
    RTEST_CHECK_OK(stex_copy_texture_to_texture(&from, &to, (stex_extent3d){8, 4, 1}));
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 8; x++)
            assert_memory_equal(stex_texture_memory(a2) + stex_texture_texel_offset(a2, 0, x, y, 0),
                                &words[y * 8 + x], 4);
    from.aspect = DEPTH;
    assert_int_equal(stex_check_copy_texture_to_texture(&from, &to, (stex_extent3d){8, 4, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "must name all of their aspects"));
    from.aspect = ALL;
    assert_int_equal(stex_check_copy_texture_to_texture(&from, &to, (stex_extent3d){4, 4, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "whole subresource"));
    /* depth-only names every aspect of depth32float */
    stex_texture *f = make(d, "depth32float", (stex_extent3d){8, 4, 1}, 1);
    stex_texture *f2 = make(d, "depth32float", (stex_extent3d){8, 4, 1}, 1);
    stex_copy_texture ff = {.texture = f, .aspect = DEPTH}, ft = {.texture = f2};
    RTEST_CHECK_OK(stex_check_copy_texture_to_texture(&ff, &ft, (stex_extent3d){8, 4, 1}));
    ff.aspect = STENCIL;
    assert_int_equal(stex_check_copy_texture_to_texture(&ff, &ft, (stex_extent3d){8, 4, 1}),
                     STEX_VALIDATION_ERROR);
    stex_texture_destroy(f);
    stex_texture_destroy(f2);
    stex_texture_destroy(a);
    stex_texture_destroy(a2);
    stex_texture_destroy(s8);
    stex_buffer_destroy(b);
    rtest_release(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_d32s8_needs_feature),
        cmocka_unit_test(test_buffer_copy_table),
        cmocka_unit_test(test_d32s8_aspects_move_their_bytes),
        cmocka_unit_test(test_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
