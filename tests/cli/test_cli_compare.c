/* stex compare end to end: a golden against itself, one flipped texel, the
 * allowed tolerance against another device's rounding, and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>

#include <cmocka.h>
#include <jansson.h>

#include "../io/compare_pairs.h"
#include "cli_exec.h"
#include "stex/stex.h"

static char golden[512];

static void test_self_and_flip(void **state)
{
    (void)state;
    char bin[512], npy[512], flip[512], diff[512];
    path_in(bin, sizeof bin, "flip.bin");
    path_in(npy, sizeof npy, "g.npy");
    path_in(flip, sizeof flip, "flip.bin");
    path_in(diff, sizeof diff, "diff.png");
    cli_result r = run_stex("compare '%s' '%s'", golden, golden);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "equal"));
    cli_free(&r);
    /* the same texels as .npy compare equal to the .bin */
    r = run_stex("run generar --size 24x10 --out '%s'", npy);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s'", golden, npy);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    /* one texel flipped in a raw copy (no sidecar: takes the golden's layout) */
    size_t n;
    uint8_t *bytes = slurp(golden, &n);
    uint32_t bpr = 256; /* 24 rgba8unorm texels fit one 256-byte row */
    bytes[7 * bpr + 13 * 4 + 1] ^= 0x04;
    spit(flip, bytes, n);
    free(bytes);
    r = run_stex("compare '%s' '%s' --json --diff '%s'", golden, flip, diff);
    CLI_EXPECT(r, 1, NULL);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    if (!j)
        fail_msg("not JSON: %s", r.out);
    assert_true(json_is_false(json_object_get(j, "equal")));
    assert_int_equal(json_integer_value(json_object_get(j, "mismatches")), 1);
    assert_int_equal(json_integer_value(json_object_get(j, "max_diff")), 4);
    json_t *m = json_array_get(json_object_get(j, "first_mismatches"), 0);
    assert_int_equal(json_integer_value(json_object_get(m, "x")), 13);
    assert_int_equal(json_integer_value(json_object_get(m, "y")), 7);
    json_decref(j);
    cli_free(&r);
    stex_image d;
    assert_int_equal(stex_read_png(diff, &d), STEX_OK);
    /* a small texture: 256 / 24 = 10 pixels a texel; the legend below, 9
     * rows of 11 pixels and 4 above and below them (docs/file-formats.md) */
    assert_true(d.width >= 24 * 10);
    assert_int_equal(d.height, 10 * 10 + 4 + 9 * 11 + 4);
    const uint8_t *equal_swatch = stex_image_texel(&d, 8, 100 + 4 + 4, 0),
                  *red_swatch = stex_image_texel(&d, 8, 100 + 4 + 3 * 11 + 4, 0);
    assert_memory_equal(equal_swatch, stex_image_texel(&d, 0, 0, 0), 3);
    assert_true(red_swatch[0] == 255 && red_swatch[1] == 0 && red_swatch[2] == 0);
    const uint8_t *red = stex_image_texel(&d, 13 * 10 + 9, 7 * 10, 0),
                  *grey = stex_image_texel(&d, 0, 0, 0);
    assert_true(red[0] == 255 && red[2] == 0);
    assert_true(grey[0] == grey[1] && grey[1] == grey[2] && grey[0] < 100);
    stex_image_free(&d);
    /* within ulp:4, not within ulp:3 */
    r = run_stex("compare '%s' '%s' --tolerance ulp:4", golden, flip);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --tolerance ulp:3", golden, flip);
    CLI_EXPECT(r, 1, NULL);
    assert_non_null(strstr(r.out, "(13, 7, 0)"));
    cli_free(&r);
    /* explicit raw layout */
    r = run_stex("compare '%s' '%s' --format rgba8unorm --size 24x10 --bytes-per-row 256", flip,
                 flip);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    remove(npy), remove(flip), remove(diff);
}

/* Ties rounded the nvidia way pass `allowed` against a spec golden; a value
 * two codes away does not. */
static void test_allowed(void **state)
{
    (void)state;
    const uint32_t w = 32, h = 8;
    stex_format f = STEX_FORMAT_RGBA8UNORM;
    stex_image g, a;
    stex_inputs in;
    assert_int_equal(stex_image_init(&g, f, w, h, 1), STEX_OK);
    assert_int_equal(stex_image_init(&a, f, w, h, 1), STEX_OK);
    assert_int_equal(stex_inputs_init(&in, STEX_SCALAR_F32, w, h, 1), STEX_OK);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t k = (y * w + x) % 255;
            stex_vec4 v = {.f = {(float)((k + 0.5) / 255.0), 0.5f, 1.5f, -0.3f}};
            stex_inputs_set(&in, x, y, 0, &v);
            stex_encode_texel(stex_profile_get(STEX_PROFILE_SPEC), f, &v,
                              stex_image_texel(&g, x, y, 0));
            stex_encode_texel(stex_profile_get(STEX_PROFILE_NVIDIA), f, &v,
                              stex_image_texel(&a, x, y, 0));
        }
    char gp[512], ip[520], ap[512];
    path_in(gp, sizeof gp, "tie.bin");
    snprintf(ip, sizeof ip, "%s.inputs", gp);
    path_in(ap, sizeof ap, "tie-nvidia.bin");
    stex_io_meta with_inputs = {.inputs = &in}; /* tie.bin.inputs, its hash in the sidecar */
    assert_int_equal(stex_write_bin(gp, &g, &with_inputs), STEX_OK);
    assert_int_equal(access(ip, F_OK), 0);
    assert_int_equal(stex_write_bin(ap, &a, NULL), STEX_OK);
    cli_result r = run_stex("compare '%s' '%s'", gp, ap);
    CLI_EXPECT(r, 1, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --tolerance allowed", gp, ap);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_image_texel(&a, 5, 3, 0)[1] += 2;
    assert_int_equal(stex_write_bin(ap, &a, NULL), STEX_OK);
    r = run_stex("compare '%s' '%s' --tolerance allowed", gp, ap);
    CLI_EXPECT(r, 1, NULL);
    assert_non_null(strstr(r.out, "(5, 3, 0)"));
    cli_free(&r);
    /* allowed without recorded inputs: a usage error naming the file */
    remove(ip);
    r = run_stex("compare '%s' '%s' --tolerance allowed", gp, ap);
    CLI_EXPECT(r, 2, "tie.bin.inputs");
    cli_free(&r);
    stex_image_free(&g);
    stex_image_free(&a);
    stex_inputs_free(&in);
}

/* stex run --record-allowed writes the inputs beside the golden; a run under
 * another profile then passes `allowed` against it. */
static void test_record_allowed(void **state)
{
    (void)state;
    char gp[512], np[512], ip[520];
    path_in(gp, sizeof gp, "rec.bin");
    path_in(np, sizeof np, "rec-nvidia.bin");
    snprintf(ip, sizeof ip, "%s.inputs", gp);
    cli_result r = run_stex("run generar --size 40x12 --record-allowed --out '%s'", gp);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_inputs in;
    assert_int_equal(stex_read_inputs(ip, &in), STEX_OK);
    assert_int_equal(in.width, 40);
    for (size_t i = 0; i < 40 * 12; i++)
        assert_int_equal(in.stored[i], 1); /* generar stores every texel */
    stex_inputs_free(&in);
    r = run_stex("run generar --size 40x12 --profile nvidia --out '%s'", np);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --tolerance allowed", gp, np);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    char side[600];
    snprintf(side, sizeof side, "%s.json", np);
    remove(np), remove(side), remove(ip);
    snprintf(side, sizeof side, "%s.json", gp);
    remove(gp), remove(side);
}


/* --json mismatches carry the decoded channel values beside the bytes;
 * NaN and infinities as strings (JSON numbers cannot hold them). */
static void test_json_values(void **state)
{
    (void)state;
    char g[512], a[512];
    path_in(g, sizeof g, "special.bin");
    path_in(a, sizeof a, "special-actual.bin");
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_R32FLOAT, 4, 1, 1), STEX_OK);
    const float gv[4] = {1.5f, INFINITY, NAN, -2.0f}, av[4] = {1.5f, 2.0f, 3.0f, -INFINITY};
    memcpy(img.data, gv, sizeof gv);
    assert_int_equal(stex_write_bin(g, &img, NULL), STEX_OK);
    memcpy(img.data, av, sizeof av);
    assert_int_equal(stex_write_bin(a, &img, NULL), STEX_OK);
    stex_image_free(&img);
    cli_result r = run_stex("compare '%s' '%s' --json", g, a);
    CLI_EXPECT(r, 1, NULL);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    if (!j)
        fail_msg("stdout is not JSON: %s", r.out);
    json_t *m = json_object_get(j, "first_mismatches");
    assert_int_equal(json_array_size(m), 3);
    static const char *const want_g[3] = {"inf", "NaN", NULL},
                             *const want_a[3] = {NULL, NULL, "-inf"};
    static const double num_g[3] = {0, 0, -2}, num_a[3] = {2, 3, 0};
    for (size_t i = 0; i < 3; i++) {
        json_t *e = json_array_get(m, i);
        assert_int_equal(json_integer_value(json_object_get(e, "x")), (json_int_t)i + 1);
        json_t *gvals = json_object_get(e, "golden_values"), *avals = json_object_get(e, "actual_values");
        assert_int_equal(json_array_size(gvals), 1);
        assert_int_equal(json_array_size(avals), 1);
        if (want_g[i])
            assert_string_equal(json_string_value(json_array_get(gvals, 0)), want_g[i]);
        else
            assert_true(json_number_value(json_array_get(gvals, 0)) == num_g[i]);
        if (want_a[i])
            assert_string_equal(json_string_value(json_array_get(avals, 0)), want_a[i]);
        else
            assert_true(json_number_value(json_array_get(avals, 0)) == num_a[i]);
    }
    json_decref(j);
    cli_free(&r);
    /* an rgba8unorm pair: four normalised channels (128 and 127 of 255) */
    r = run_stex("run generar --size 2x2 --threads 1 --out '%s'", g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run generar --size 2x2 --threads 1 --profile nvidia --out '%s'", a);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --json", g, a);
    CLI_EXPECT(r, 1, NULL);
    j = json_loads(r.out, 0, &je);
    json_t *e = json_array_get(json_object_get(j, "first_mismatches"), 0);
    json_t *gvals = json_object_get(e, "golden_values");
    assert_int_equal(json_array_size(gvals), 4);
    assert_true(fabs(json_number_value(json_array_get(gvals, 1)) - 128.0 / 255) < 1e-6);
    assert_true(fabs(json_number_value(json_array_get(json_object_get(e, "actual_values"), 1)) -
                     127.0 / 255) < 1e-6);
    json_decref(j);
    cli_free(&r);
    remove(g), remove(a);
}

/* The golden's rows, re-laid at another pitch: what a readback copied
 * with another bytesPerRow (or row by row, unpadded) holds.  `last_full`:
 * the last row padded too. */
static void write_pitched(const char *path, uint32_t pitch, bool last_full)
{
    size_t n;
    uint8_t *bytes = slurp(golden, &n);
    const uint32_t h = 10, row = 24 * 4;
    size_t size = (size_t)pitch * (h - 1) + (last_full ? pitch : row);
    uint8_t *out = calloc(size, 1);
    for (uint32_t y = 0; y < h; y++)
        memcpy(out + (size_t)y * pitch, bytes + (size_t)y * 256, row);
    spit(path, out, size);
    free(out);
    free(bytes);
}

/* A readback that is not in the golden's 256-byte pitch is refused with a
 * hint naming what its size matches and the option that reads it. */
static void test_pitch_hints(void **state)
{
    (void)state;
    char p[512];
    path_in(p, sizeof p, "pitched.bin");
    static const struct {
        uint32_t pitch;
        bool last_full;
        const char *hint, *option;
    } cases[] = {
        {96, true, "unpadded rows (bytesPerRow 96 = 24 x 4 bytes)", "--unpadded"},
        {512, true, "rows of 512 bytes", "--bytes-per-row 512"},
        {512, false, "rows of 512 bytes", "--bytes-per-row 512"},
        {768, true, "rows of 768 bytes", "--bytes-per-row 768"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_pitched(p, cases[i].pitch, cases[i].last_full);
        cli_result r = run_stex("compare '%s' '%s'", golden, p);
        if (r.code != 2 || !strstr(r.err, cases[i].hint) || !strstr(r.err, "hint") ||
            !strstr(r.err, cases[i].option))
            fail_msg("pitch %u: exit %d, stderr '%s'", cases[i].pitch, r.code, r.err);
        cli_free(&r);
        /* the option the hint names reads it, and the texels are the golden's */
        r = run_stex("compare '%s' '%s' %s", golden, p, cases[i].option);
        CLI_EXPECT(r, 0, NULL);
        cli_free(&r);
    }
    /* a padded readback read with --unpadded: the hint points back */
    write_pitched(p, 256, true);
    cli_result r = run_stex("compare '%s' '%s' --unpadded", golden, p);
    CLI_EXPECT(r, 2, "--bytes-per-row 256");
    cli_free(&r);
    /* 8 bytes a texel where the golden has 4: another format */
    uint8_t *wide = calloc(24 * 8 * 10, 1);
    spit(p, wide, 24 * 8 * 10);
    free(wide);
    r = run_stex("compare '%s' '%s'", golden, p);
    CLI_EXPECT(r, 2, "texels of 8 bytes,\n  not rgba8unorm's 4: give the readback's format with --format");
    cli_free(&r);
    remove(p);
}

/* The golden's texels with bytes 0 and 2 swapped: a bgra8unorm readback of
 * an rgba8unorm golden (a canvas, a swap chain). */
static uint8_t *bgra_copy(size_t *n)
{
    uint8_t *bytes = slurp(golden, n);
    for (uint32_t y = 0; y < 10; y++)
        for (uint32_t x = 0; x < 24; x++) {
            uint8_t *t = bytes + y * 256 + x * 4, b = t[0];
            t[0] = t[2], t[2] = b;
        }
    return bytes;
}

static void test_bgra(void **state)
{
    (void)state;
    char p[512], side_bin[512];
    path_in(p, sizeof p, "canvas.bin");
    path_in(side_bin, sizeof side_bin, "canvas-side.bin");
    size_t n;
    uint8_t *bytes = bgra_copy(&n);
    spit(p, bytes, n);
    /* read as the golden's rgba8unorm, R and B are swapped: a mismatch */
    cli_result r = run_stex("compare '%s' '%s'", golden, p);
    CLI_EXPECT(r, 1, NULL);
    cli_free(&r);
    /* its format given: compared with R and B put back, and said so */
    r = run_stex("compare '%s' '%s' --format bgra8unorm", golden, p);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "bgra8unorm"));
    assert_non_null(strstr(r.out, "B and R bytes swapped"));
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --swizzle bgra", golden, p);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "--swizzle bgra"));
    cli_free(&r);
    /* a bgra8unorm .bin with its sidecar needs no option at all */
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_BGRA8UNORM, 24, 10, 1), STEX_OK);
    memcpy(img.data, bytes, img.size);
    assert_int_equal(stex_write_bin(side_bin, &img, NULL), STEX_OK);
    stex_image_free(&img);
    r = run_stex("compare '%s' '%s' --json", golden, side_bin);
    CLI_EXPECT(r, 0, NULL);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    if (!j)
        fail_msg("not JSON: %s", r.out);
    assert_true(json_is_true(json_object_get(j, "equal")));
    assert_string_equal(json_string_value(json_object_get(j, "swizzle")), "bgra");
    assert_string_equal(json_string_value(json_object_get(j, "actual_format")), "bgra8unorm");
    json_decref(j);
    cli_free(&r);
    /* R of texel (5, 3) three codes up: in a bgra readback, byte 2 */
    uint8_t *t = bytes + 3 * 256 + 5 * 4;
    uint8_t want_r = t[2];
    t[2] = (uint8_t)(t[2] + 3);
    spit(p, bytes, n);
    r = run_stex("compare '%s' '%s' --format bgra8unorm --json", golden, p);
    CLI_EXPECT(r, 1, NULL);
    j = json_loads(r.out, 0, &je);
    json_t *m = json_array_get(json_object_get(j, "first_mismatches"), 0);
    assert_int_equal(json_integer_value(json_object_get(m, "x")), 5);
    json_t *ch = json_object_get(m, "channels");
    assert_int_equal(json_array_size(ch), 1);
    json_t *c0 = json_array_get(ch, 0);
    assert_string_equal(json_string_value(json_object_get(c0, "channel")), "r");
    assert_int_equal(json_integer_value(json_object_get(c0, "diff")), 3);
    char bits[8];
    snprintf(bits, sizeof bits, "0x%02x", want_r);
    assert_string_equal(json_string_value(json_object_get(c0, "golden_bits")), bits);
    json_decref(j);
    cli_free(&r);
    /* B and R swap only where four 8-bit channels are */
    char fg[512];
    path_in(fg, sizeof fg, "f32.bin");
    stex_image g, a;
    assert_true(make_f32_pair(&g, &a));
    assert_int_equal(stex_write_bin(fg, &g, NULL), STEX_OK);
    r = run_stex("compare '%s' '%s' --swizzle bgra", fg, fg);
    CLI_EXPECT(r, 2, "four 8-bit channels");
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --swizzle argb", golden, p);
    CLI_EXPECT(r, 2, "bgra, rgba");
    cli_free(&r);
    stex_image_free(&g);
    stex_image_free(&a);
    free(bytes);
    char s1[600], s2[600];
    snprintf(s1, sizeof s1, "%s.json", side_bin);
    snprintf(s2, sizeof s2, "%s.json", fg);
    remove(p), remove(side_bin), remove(s1), remove(fg), remove(s2);
}

/* The line of `text` that holds `needle` (a static copy), or "". */
static const char *line_with(const char *text, const char *needle)
{
    static char line[256];
    const char *p = strstr(text, needle);
    line[0] = '\0';
    if (!p)
        return line;
    const char *a = p, *b = p;
    while (a > text && a[-1] != '\n')
        a--;
    while (*b && *b != '\n')
        b++;
    snprintf(line, sizeof line, "%.*s", (int)(b - a), a);
    return line;
}

/* The summary block and the channel-by-channel listing of F32_PAIRS under
 * ulp:3, as text and as JSON, against what the pairs' encodings give. */
static void test_summary(void **state)
{
    (void)state;
    char gp[512], ap[512];
    path_in(gp, sizeof gp, "pairs.bin");
    path_in(ap, sizeof ap, "pairs-actual.bin");
    stex_image g, a;
    assert_true(make_f32_pair(&g, &a));
    assert_int_equal(stex_write_bin(gp, &g, NULL), STEX_OK);
    assert_int_equal(stex_write_bin(ap, &a, NULL), STEX_OK);
    f32_expect e;
    f32_pairs_expect(3, &e);
    cli_result r = run_stex("compare '%s' '%s' --tolerance ulp:3", gp, ap);
    CLI_EXPECT(r, 1, NULL);
    char want[160];
    snprintf(want, sizeof want, "summary: %llu of %zu texels differ (%.3g%%): %llu accepted by "
             "ulp:3, %llu beyond", (unsigned long long)e.differing, F32_N,
             100.0 * (double)e.differing / F32_N, (unsigned long long)e.accepted,
             (unsigned long long)(e.differing - e.accepted));
    if (!strstr(r.out, want))
        fail_msg("no '%s' in:\n%s", want, r.out);
    /* the kinds without a distance are named, never "0 ULP" */
    for (const char *z = strstr(r.out, "0 ULP"); z; z = strstr(z + 1, "0 ULP"))
        if (z == r.out || z[-1] < '0' || z[-1] > '9')
            fail_msg("a distance of 0 ULP in:\n%s", r.out);
    assert_non_null(strstr(r.out, "r: 1 sign of zero"));
    assert_non_null(strstr(r.out, "r: 1 NaN payload"));
    assert_non_null(strstr(r.out, "r: 1 NaN against a number"));
    /* every line of the report fits 80 columns */
    for (const char *l = r.out; *l;) {
        const char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (len > 80)
            fail_msg("a line of %zu columns: %.*s", len, (int)len, l);
        l += len + (nl != NULL);
    }
    cli_free(&r);
    /* under exact, every differing texel is listed channel by channel */
    r = run_stex("compare '%s' '%s'", gp, ap);
    CLI_EXPECT(r, 1, NULL);
    const char *l = line_with(r.out, "(0x80000000)");
    if (!strstr(l, "    r  0 (0x00000000)") || !strstr(l, "-0 (0x80000000)") ||
        !strstr(l, "sign of zero"))
        fail_msg("the sign-of-zero line: '%s'", l);
    l = line_with(r.out, "(0x7fc00001)");
    if (!strstr(l, "NaN (0x7fc00000)") || !strstr(l, "NaN payload"))
        fail_msg("the NaN payload line: '%s'", l);
    l = line_with(r.out, "(0x3f8003e8)");
    if (!strstr(l, "1000 ULP"))
        fail_msg("the 1000 ULP line: '%s'", l);
    /* the bytes in memory order are still there: 1.0 is 00 00 80 3f */
    assert_non_null(strstr(r.out, "golden 0000803f, actual 0100803f"));
    cli_free(&r);
    /* --json carries the same summary */
    r = run_stex("compare '%s' '%s' --tolerance ulp:3 --json", gp, ap);
    CLI_EXPECT(r, 1, NULL);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    if (!j)
        fail_msg("not JSON: %s", r.out);
    assert_int_equal(json_integer_value(json_object_get(j, "tolerated")), e.accepted);
    json_t *sum = json_object_get(j, "summary");
    assert_true(fabs(json_number_value(json_object_get(sum, "differing_percent")) -
                     100.0 * e.differing / F32_N) < 1e-4);
    json_t *c = json_array_get(json_object_get(sum, "channels"), 0);
    assert_int_equal(json_array_size(json_object_get(sum, "channels")), 1);
    assert_string_equal(json_string_value(json_object_get(c, "channel")), "r");
    assert_int_equal(json_integer_value(json_object_get(c, "differing")), e.differing);
    assert_int_equal(json_integer_value(json_object_get(c, "max_diff")), e.max_ulp);
    /* printed to 9 significant digits, as the values are */
    assert_true(fabs(json_number_value(json_object_get(c, "max_abs")) - e.max_abs) <
                1e-8 * e.max_abs);
    assert_int_equal(json_integer_value(json_object_get(c, "sign_of_zero")), e.sign_of_zero);
    assert_int_equal(json_integer_value(json_object_get(c, "nan_payload")), e.nan_payload);
    assert_int_equal(json_integer_value(json_object_get(c, "nan_vs_number")), e.nan_vs_number);
    json_t *hist = json_object_get(sum, "histogram");
    size_t row = 0;
    for (unsigned k = 0; k < STEX_COMPARE_BUCKETS; k++) {
        if (!e.bucket[k])
            continue;
        json_t *b = json_array_get(hist, row++);
        json_t *lo = json_object_get(b, "min"), *hi = json_object_get(b, "max");
        if (k == STEX_COMPARE_NAN_BUCKET)
            assert_true(json_is_null(lo) && json_is_null(hi));
        else {
            assert_int_equal(json_integer_value(lo), k ? 1ull << (k - 1) : 0);
            assert_int_equal(json_integer_value(hi), k ? (1ull << k) - 1 : 0);
        }
        assert_int_equal(json_integer_value(json_object_get(b, "texels")), e.bucket[k]);
        assert_int_equal(json_integer_value(json_object_get(b, "beyond")), e.beyond[k]);
    }
    assert_int_equal(json_array_size(hist), row);
    json_decref(j);
    cli_free(&r);
    /* each listed channel's verdict, by name */
    r = run_stex("compare '%s' '%s' --json", gp, ap);
    CLI_EXPECT(r, 1, NULL);
    j = json_loads(r.out, 0, &je);
    json_t *list = json_object_get(j, "first_mismatches");
    static const char *const verdict[] = {
        [STEX_CHANNEL_DISTANCE] = "distance", [STEX_CHANNEL_SIGN_OF_ZERO] = "sign_of_zero",
        [STEX_CHANNEL_NAN_PAYLOAD] = "nan_payload", [STEX_CHANNEL_NAN_VS_NUMBER] = "nan_vs_number"};
    size_t listed = 0;
    for (size_t i = 0; i < F32_N; i++) {
        if (F32_PAIRS[i].verdict == STEX_CHANNEL_EQUAL)
            continue;
        json_t *m = json_array_get(list, listed++);
        assert_int_equal(json_integer_value(json_object_get(m, "x")), i);
        json_t *ch = json_array_get(json_object_get(m, "channels"), 0);
        assert_string_equal(json_string_value(json_object_get(ch, "verdict")),
                            verdict[F32_PAIRS[i].verdict]);
        char bits[16];
        snprintf(bits, sizeof bits, "0x%08x", F32_PAIRS[i].actual);
        assert_string_equal(json_string_value(json_object_get(ch, "actual_bits")), bits);
    }
    json_decref(j);
    cli_free(&r);
    stex_image_free(&g);
    stex_image_free(&a);
    /* 1999 of 2000 differing is not "100%" */
    assert_int_equal(stex_image_init(&g, STEX_FORMAT_R8UNORM, 2000, 1, 1), STEX_OK);
    assert_int_equal(stex_write_bin(gp, &g, NULL), STEX_OK);
    memset(g.data + 1, 1, 1999);
    assert_int_equal(stex_write_bin(ap, &g, NULL), STEX_OK);
    stex_image_free(&g);
    r = run_stex("compare '%s' '%s'", gp, ap);
    CLI_EXPECT(r, 1, NULL);
    assert_non_null(strstr(r.out, "summary: 1999 of 2000 texels differ (>99.9%)"));
    cli_free(&r);
    char s1[600], s2[600];
    snprintf(s1, sizeof s1, "%s.json", gp);
    snprintf(s2, sizeof s2, "%s.json", ap);
    remove(gp), remove(ap), remove(s1), remove(s2);
}

/* An rgba16float texel listed channel by channel in the values textureLoad
 * returns, not in the bytes' little-endian order. */
static void test_channel_values(void **state)
{
    (void)state;
    char gp[512], ap[512];
    path_in(gp, sizeof gp, "half.bin");
    path_in(ap, sizeof ap, "half-actual.bin");
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_RGBA16FLOAT, 1, 1, 1), STEX_OK);
    /* (1.0, 0.5, -2.0, 1.0) in f16: 0x3c00, 0x3800, 0xc000, 0x3c00 */
    const uint8_t gb[8] = {0x00, 0x3c, 0x00, 0x38, 0x00, 0xc0, 0x00, 0x3c};
    memcpy(img.data, gb, 8);
    assert_int_equal(stex_write_bin(gp, &img, NULL), STEX_OK);
    img.data[2] = 0x01; /* g: 0x3801 = 0.5 + 2^-11, 1 ULP up */
    assert_int_equal(stex_write_bin(ap, &img, NULL), STEX_OK);
    stex_image_free(&img);
    cli_result r = run_stex("compare '%s' '%s'", gp, ap);
    CLI_EXPECT(r, 1, NULL);
    const char *l = line_with(r.out, "(0x3801)");
    char want[64];
    snprintf(want, sizeof want, "%.9g (0x3801)", 0.5 + 1.0 / 2048);
    if (strncmp(l, "    g  0.5 (0x3800)", 19) || !strstr(l, want) || !strstr(l, "1 ULP"))
        fail_msg("the g line: '%s'", l);
    /* the bytes in memory order beside them */
    assert_non_null(strstr(r.out, "golden 003c003800c0003c, actual 003c013800c0003c"));
    cli_free(&r);
    char s1[600], s2[600];
    snprintf(s1, sizeof s1, "%s.json", gp);
    snprintf(s2, sizeof s2, "%s.json", ap);
    remove(gp), remove(ap), remove(s1), remove(s2);
}

static void test_errors(void **state)
{
    (void)state;
    char small[512], trunc[512], noside[512];
    path_in(small, sizeof small, "small.bin");
    path_in(trunc, sizeof trunc, "trunc.bin");
    path_in(noside, sizeof noside, "noside.bin");
    cli_result r = run_stex("run generar --size 8x8 --out '%s'", small);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    size_t n;
    uint8_t *bytes = slurp(golden, &n);
    spit(noside, bytes, n);
    char side[600], tside[600];
    snprintf(side, sizeof side, "%s.json", golden);
    snprintf(tside, sizeof tside, "%s.json", trunc);
    spit(trunc, bytes, n / 2);
    free(bytes);
    bytes = slurp(side, &n);
    spit(tside, bytes, n);
    free(bytes);
    static const struct { const char *fmt; int code; const char *msg; } cases[] = {
        {"compare '%s' '%s'", 2, "24x10x1"},        /* GOLDEN vs small: sizes differ */
        {"compare '%s' '%s'", 2, "truncated"},      /* GOLDEN vs trunc */
        {"compare '%s' /nonexistent.bin", 2, "/nonexistent.bin"},
        {"compare '%s'", 2, "two files"},
        {"compare '%s' '%s' --tolerance ulp:x", 2, "exact, ulp:N"},
        {"compare '%s' '%s' --tolerance close", 2, "allowed"},
        {"compare '%s' '%s' --format rgba9unorm", 2, "rgba9unorm"},
        {"compare '%s' '%s' --bytes-per-row 100 --format r8unorm --size 4x4", 2, "256"},
        {"compare '%s' '%s' --size 4x4", 2, "--format"},
        {"compare '%s' '%s' --diff d.jpg", 2, ".png"},
        {"compare '%s' x.txt", 2, ".bin, .npy or .png"},
    };
    const char *second[] = {small, trunc, NULL, NULL, golden, golden, golden, golden, golden,
                            golden, NULL};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result rr = second[i] ? run_stex(cases[i].fmt, golden, second[i])
                                  : run_stex(cases[i].fmt, golden);
        if (rr.code != cases[i].code || !strstr(rr.err, cases[i].msg))
            fail_msg("case %zu (%s): exit %d, stderr '%s'; expected %d and '%s'", i, cases[i].fmt,
                     rr.code, rr.err, cases[i].code, cases[i].msg);
        cli_free(&rr);
    }
    /* a raw .bin as GOLDEN needs its layout */
    r = run_stex("compare '%s' '%s'", noside, golden);
    CLI_EXPECT(r, 2, "--format");
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --format rgba8unorm --size 24x10", noside, golden);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    char sside[600];
    snprintf(sside, sizeof sside, "%s.json", small);
    remove(small), remove(sside), remove(trunc), remove(tside), remove(noside);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    snprintf(golden, sizeof golden, "%s/golden.bin", cli_dir);
    cli_result r = run_stex("run generar --size 24x10 --out '%s'", golden);
    if (r.code != 0) {
        fprintf(stderr, "cannot make the golden: %s\n", r.err);
        return 1;
    }
    cli_free(&r);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_self_and_flip),
        cmocka_unit_test(test_allowed),
        cmocka_unit_test(test_record_allowed),
        cmocka_unit_test(test_json_values),
        cmocka_unit_test(test_pitch_hints),
        cmocka_unit_test(test_bgra),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_channel_values),
        cmocka_unit_test(test_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
