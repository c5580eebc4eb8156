/* stex run end to end, through the built binary: outputs on disk checked
 * against the library's own run of the kernel, .npy headers, PNGs read by
 * libpng, JSON summaries parsed by jansson, and every kind of bad input. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>
#include <png.h>

#include "cli_exec.h"
#include "stex/stex.h"

static void test_help_and_list(void **state)
{
    (void)state;
    const char *cmds[] = {"run", "race", "compare", "demo"};
    for (int i = 0; i < 4; i++) {
        cli_result r = run_stex("%s --help", cmds[i]);
        CLI_EXPECT(r, 0, NULL);
        assert_non_null(strstr(r.out, "examples:"));
        assert_non_null(strstr(r.out, cmds[i]));
        cli_free(&r);
    }
    cli_result r = run_stex("run --list");
    CLI_EXPECT(r, 0, NULL);
    for (size_t i = 0; i < stex_kernel_count(); i++)
        assert_non_null(strstr(r.out, stex_kernel_at(i)->name));
    cli_free(&r);
    r = run_stex("run --list --json");
    CLI_EXPECT(r, 0, NULL);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    assert_true(json_is_array(j));
    assert_int_equal(json_array_size(j), stex_kernel_count());
    json_decref(j);
    cli_free(&r);
}

/* The library's own run of the same kernel: tightly packed rows. */
static uint8_t *library_output(const char *kernel, uint32_t w, uint32_t h, stex_schedule s,
                               uint64_t seed, size_t *n)
{
    stex_kernel_setup setup = {.width = w, .height = h};
    stex_dispatch_options o = {.schedule = s, .seed = seed, .threads = 1};
    stex_kernel_instance *ki;
    assert_int_equal(stex_kernel_run(stex_kernel_find(kernel), &setup, &o, &ki), STEX_OK);
    uint8_t *bytes;
    assert_int_equal(stex_kernel_instance_read_output(ki, &bytes, n), STEX_OK);
    stex_kernel_instance_destroy(ki);
    return bytes;
}

/* Width, height and channels of a PNG, as libpng reads them. */
static void png_size(const char *path, uint32_t *w, uint32_t *h, int *ch)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        fclose(f);
        fail_msg("libpng cannot read %s", path);
        return;
    }
    png_init_io(png, f);
    png_read_info(png, info);
    *w = png_get_image_width(png, info);
    *h = png_get_image_height(png, info);
    *ch = png_get_channels(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
}

static void test_run_outputs(void **state)
{
    (void)state;
    static const struct { const char *kernel; uint32_t w, h; unsigned bpp; const char *descr;
                          unsigned ch; } cases[] = {
        {"decaer", 20, 9, 4, "<f4", 1},
        {"generar", 33, 17, 4, "|u1", 4},
        {"difundir-pingpong", 16, 16, 4, "<f4", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char bin[512], npy[512], pngp[512], side[520];
        snprintf(bin, sizeof bin, "%s/o.bin", cli_dir);
        snprintf(npy, sizeof npy, "%s/o.npy", cli_dir);
        snprintf(pngp, sizeof pngp, "%s/o.png", cli_dir);
        snprintf(side, sizeof side, "%s.json", bin);
        uint32_t w = cases[i].w, h = cases[i].h;
        cli_result r = run_stex("run %s --size %ux%u --schedule shuffled --seed 5 --threads 1 "
                               "--out '%s' --out '%s' --out '%s' --json",
                               cases[i].kernel, w, h, bin, npy, pngp);
        CLI_EXPECT(r, 0, NULL);
        json_error_t je;
        json_t *j = json_loads(r.out, 0, &je);
        if (!j)
            fail_msg("stdout is not JSON: %s", r.out);
        assert_string_equal(json_string_value(json_object_get(j, "kernel")), cases[i].kernel);
        assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "size"), 0)), w);
        assert_string_equal(json_string_value(json_object_get(j, "schedule")), "shuffled");
        assert_int_equal(json_integer_value(json_object_get(j, "seed")), 5);
        assert_int_equal(json_integer_value(json_object_get(j, "threads")), 1);
        assert_true(json_is_number(json_object_get(j, "dispatch_ms")));
        assert_true(json_is_null(json_object_get(j, "races")));
        assert_true(json_array_size(json_object_get(j, "files")) >= 3);
        json_decref(j);
        cli_free(&r);

        /* step_ms: each dispatch's time, which add up to dispatch_ms */
        r = run_stex("run %s --size %ux%u --iterations 3 --json", cases[i].kernel, w, h);
        CLI_EXPECT(r, 0, NULL);
        if (!(j = json_loads(r.out, 0, &je)))
            fail_msg("stdout is not JSON: %s", r.out);
        json_t *steps = json_object_get(j, "step_ms");
        assert_true(json_is_array(steps));
        assert_true(json_array_size(steps) >= 3);
        double sum = 0;
        for (size_t k = 0; k < json_array_size(steps); k++)
            sum += json_number_value(json_array_get(steps, k));
        assert_true(fabs(sum - json_number_value(json_object_get(j, "dispatch_ms"))) <
                    0.001 * (double)json_array_size(steps) + 1e-9);
        json_decref(j);
        cli_free(&r);

        size_t n, ln;
        uint8_t *lib = library_output(cases[i].kernel, w, h, STEX_SCHEDULE_SHUFFLED, 5, &ln);
        unsigned bpp = cases[i].bpp;
        uint32_t bpr = (w * bpp + 255) / 256 * 256;
        /* .bin: the copy layout of the same texels */
        uint8_t *file = slurp(bin, &n);
        assert_int_equal(n, (size_t)bpr * h);
        for (uint32_t y = 0; y < h; y++)
            if (memcmp(file + (size_t)y * bpr, lib + (size_t)y * w * bpp, (size_t)w * bpp))
                fail_msg("%s: row %u of the .bin differs from the library's readback",
                         cases[i].kernel, y);
        free(file);
        /* .npy: header then the same texels */
        file = slurp(npy, &n);
        assert_memory_equal(file, "\x93NUMPY\x01\x00", 8);
        size_t hlen = file[8] | (size_t)file[9] << 8;
        char want[160];
        int wn = snprintf(want, sizeof want,
                          "{'descr': '%s', 'fortran_order': False, 'shape': (1, %u, %u, %u), }",
                          cases[i].descr, h, w, cases[i].ch);
        assert_memory_equal(file + 10, want, (size_t)wn);
        assert_int_equal(n - 10 - hlen, ln);
        assert_memory_equal(file + 10 + hlen, lib, ln);
        free(file);
        free(lib);
        /* .png: libpng reads it at the right size */
        uint32_t pw, ph;
        int pch;
        png_size(pngp, &pw, &ph, &pch);
        assert_int_equal(pw, w);
        assert_int_equal(ph, h);
        assert_int_equal(pch, cases[i].ch == 1 ? 1 : 4);
        remove(bin), remove(side), remove(npy), remove(pngp);
    }
}

/* --in feeds a file back as the kernel's input: decaer of decaer's output is
 * two decaer steps. */
static void test_run_input(void **state)
{
    (void)state;
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/in.npy", cli_dir);
    snprintf(b, sizeof b, "%s/twice.npy", cli_dir);
    cli_result r = run_stex("run decaer --size 8x8 --out '%s'", a);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run decaer --in '%s' --out '%s'", a, b);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_kernel_setup setup = {.width = 8, .height = 8, .iterations = 2};
    stex_kernel_instance *ki;
    assert_int_equal(stex_kernel_run(stex_kernel_find("decaer"), &setup, NULL, &ki), STEX_OK);
    uint8_t *want;
    size_t wn;
    assert_int_equal(stex_kernel_instance_read_output(ki, &want, &wn), STEX_OK);
    stex_kernel_instance_destroy(ki);
    stex_image img;
    assert_int_equal(stex_read_npy(b, STEX_FORMAT_R32FLOAT, &img), STEX_OK);
    for (uint32_t y = 0; y < 8; y++)
        assert_memory_equal(stex_image_texel(&img, 0, y, 0), want + y * 32, 32);
    stex_image_free(&img);
    free(want);
    remove(a), remove(b);
}

static void test_run_race_check(void **state)
{
    (void)state;
    cli_result r = run_stex("run difundir --size 16x16 --race-check --json");
    CLI_EXPECT(r, 0, NULL);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    assert_non_null(j);
    json_t *races = json_object_get(j, "races");
    assert_true(json_is_object(races));
    assert_true(json_integer_value(json_object_get(races, "read_write")) > 0);
    json_decref(j);
    cli_free(&r);
    r = run_stex("run difundir-pingpong --size 16x16 --race-check --json");
    CLI_EXPECT(r, 0, NULL);
    j = json_loads(r.out, 0, &je);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "races"), "total")), 0);
    json_decref(j);
    cli_free(&r);
}

/* --oob-load: difundir-pingpong reads the four neighbours of every texel, so
 * only the border texels read outside the texture.  WGSL lets an
 * out-of-bounds load return any in-bounds texel: with random-texel the
 * interior must stay bit-identical to the zero policy, and the border change. */
static uint8_t *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    uint8_t *b = malloc(*n);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *n, f), *n);
    fclose(f);
    return b;
}

static void test_run_oob_load(void **state)
{
    (void)state;
    char dir[] = "/tmp/stex-oob-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *policy[] = {"zero", "random-texel"};
    uint8_t *bin[2];
    size_t n[2];
    for (int i = 0; i < 2; i++) {
        cli_result r = run_stex("run difundir-pingpong --size 32x32 --threads 1 --seed 7 "
                                "--oob-load %s --out %s/%s.bin --json", policy[i], dir, policy[i]);
        CLI_EXPECT(r, 0, NULL);
        assert_non_null(strstr(r.out, policy[i]));
        cli_free(&r);
        char path[64];
        snprintf(path, sizeof path, "%s/%s.bin", dir, policy[i]);
        bin[i] = read_file(path, &n[i]);
        remove(path);
        snprintf(path, sizeof path, "%s/%s.bin.json", dir, policy[i]);
        remove(path);
    }
    rmdir(dir);
    assert_int_equal(n[0], 256 * 32); /* r32float, 32 texels = 128 bytes, rows padded to 256 */
    assert_int_equal(n[1], n[0]);
    unsigned border_diff = 0;
    for (uint32_t y = 0; y < 32; y++)
        for (uint32_t x = 0; x < 32; x++) {
            bool border = x == 0 || y == 0 || x == 31 || y == 31;
            int same = !memcmp(bin[0] + y * 256 + x * 4, bin[1] + y * 256 + x * 4, 4);
            if (!border && !same)
                fail_msg("interior texel (%u, %u) changed with --oob-load random-texel", x, y);
            border_diff += border && !same;
        }
    assert_true(border_diff > 0);
    free(bin[0]);
    free(bin[1]);
}

/* Bad input: a clear message naming what was wrong, exit 2, no file left. */
static void test_run_errors(void **state)
{
    (void)state;
    char trunc[512], ro[512];
    snprintf(trunc, sizeof trunc, "%s/trunc.npy", cli_dir);
    snprintf(ro, sizeof ro, "%s/ro", cli_dir);
    spit(trunc, "\x93NUMPY\x01\x00\x40\x00{'descr': '<f4'", 25);
    mkdir(ro, 0500);
    /* root may write anywhere but in /proc */
    const char *ro_out = geteuid() == 0 ? "/proc/stex-out.bin" : NULL;
    char ro_path[600];
    snprintf(ro_path, sizeof ro_path, "%s/x.bin", ro);
    if (!ro_out)
        ro_out = ro_path;
    static const struct { const char *args; const char *msg; } cases[] = {
        {"run nosuchkernel", "unknown kernel 'nosuchkernel'"},
        {"run", "missing KERNEL"},
        {"run decaer --size 0x4", "--size"},
        {"run decaer --size 9000x4", "maxTextureDimension2D"},
        {"run decaer --size 4x4x2", "2d"},
        {"run decaer --size 12q", "--size"},
        {"run decaer --seed abc", "--seed"},
        {"run decaer --seed -1", "--seed"},
        {"run decaer --threads 0", "--threads"},
        {"run decaer --schedule sideways", "in-order, reversed, shuffled"},
        {"run decaer --profile amd", "spec"},
        {"run decaer --visibility later", "immediate, snapshot"},
        {"run decaer --out x.tiff", ".bin, .npy, .png"},
        {"run decaer --in /nonexistent/in.npy", "/nonexistent/in.npy"},
        {"run generar --in /nonexistent/in.png", "takes no input"},
        {"run decaer --bogus", "--bogus"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r = run_stex("%s", cases[i].args);
        if (r.code != 2 || !strstr(r.err, cases[i].msg))
            fail_msg("`stex %s`: exit %d, stderr '%s'; expected exit 2 and '%s'", cases[i].args,
                     r.code, r.err, cases[i].msg);
        cli_free(&r);
    }
    cli_result r = run_stex("run decaer --in '%s'", trunc);
    CLI_EXPECT(r, 2, "trunc.npy");
    cli_free(&r);
    r = run_stex("run decaer --size 8x8 --out '%s'", ro_out);
    CLI_EXPECT(r, 2, ro_out);
    cli_free(&r);
    assert_int_equal(scratch_count(ro), 0);
    rmdir(ro);
    remove(trunc);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_list), cmocka_unit_test(test_run_outputs),
        cmocka_unit_test(test_run_input),     cmocka_unit_test(test_run_race_check),
        cmocka_unit_test(test_run_errors),    cmocka_unit_test(test_run_oob_load),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
