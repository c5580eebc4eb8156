/* Goldens you can trust (issue 12), through the built stex binary: failed
 * writes that keep what was there, companions that belong together, sizes
 * checked before anything is allocated, inputs that cannot block, strict
 * readers and messages that name the real problem. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"

static void copy_file(const char *from, const char *to)
{
    size_t n;
    uint8_t *p = slurp(from, &n);
    assert_non_null(p);
    spit(to, p, n);
    free(p);
}

/* `PREFIX stex ARGS SUFFIX` in /bin/sh: PREFIX sets limits and execs, SUFFIX
 * redirects stdin. */
static cli_result run_stex_sh(const char *prefix, const char *suffix, const char *args)
{
    char cmd[9000], out[512], err[512];
    snprintf(out, sizeof out, "%s/.stdout", cli_dir);
    snprintf(err, sizeof err, "%s/.stderr", cli_dir);
    snprintf(cmd, sizeof cmd, "/bin/sh -c \"%s '%s' %s %s\" >'%s' 2>'%s'", prefix,
             stex_bin(), args, suffix, out, err);
    int st = system(cmd);
    cli_result r = {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), cli_slurp_text(out),
                    cli_slurp_text(err)};
    remove(out);
    remove(err);
    return r;
}

/* `stex ARGS` under a shell's `ulimit -f BLOCKS` (512-byte blocks), SIGXFSZ
 * ignored so that writes fail with EFBIG instead of killing stex. */
static cli_result run_stex_limited(int blocks, const char *fmt, ...)
{
    char args[4096], prefix[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(prefix, sizeof prefix, "ulimit -f %d; trap '' XFSZ; exec", blocks);
    return run_stex_sh(prefix, "</dev/null", args);
}

/* Item 2: `stex run --out` (every type) and `stex race --png` failing on a
 * file-size limit leave the old golden, its sidecar and inputs as they were,
 * and no file of their own. */
static void test_failed_write_keeps_golden(void **state)
{
    (void)state;
    char g[512], gs[600], gi[600], keep[512], keeps[600], keepi[600];
    path_in(g, sizeof g, "golden.bin");
    snprintf(gs, sizeof gs, "%s.json", g);
    snprintf(gi, sizeof gi, "%s.inputs", g);
    path_in(keep, sizeof keep, "keep.bin");
    snprintf(keeps, sizeof keeps, "%s.json", keep);
    snprintf(keepi, sizeof keepi, "%s.inputs", keep);
    cli_result r = run_stex("run generar --size 32x32 --out '%s' --record-allowed", g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    copy_file(g, keep);
    copy_file(gs, keeps);
    copy_file(gi, keepi);
    int files = scratch_count(cli_dir);
    r = run_stex_limited(2, "run generar --size 256x256 --out '%s'", g);
    CLI_EXPECT(r, 2, "File too large");
    if (!strstr(r.err, g))
        fail_msg("the message does not name the file: %s", r.err);
    cli_free(&r);
    assert_true(same_file(g, keep));
    assert_true(same_file(gs, keeps));
    assert_true(same_file(gi, keepi));
    assert_int_equal(scratch_count(cli_dir), files);

    /* the other writers: .npy, .png, --record-allowed's .inputs, race pictures */
    const char *names[] = {"old.npy", "old.png", "old.bin", "race.png"};
    for (int i = 0; i < 4; i++) {
        char p[512];
        path_in(p, sizeof p, names[i]);
        spit(p, "OLD", 3);
        files = scratch_count(cli_dir);
        if (i == 3)
            r = run_stex_limited(8, "race difundir --size 128x128 --runs 2 --png '%s'", p);
        else if (i == 2) /* the .bin fits, its 20-byte-a-texel inputs do not */
            r = run_stex_limited(48, "run generar --size 64x64 --out '%s' --record-allowed", p);
        else
            r = run_stex_limited(2, "run generar --size 128x128 --out '%s'", p);
        if (r.code != 2 || !strstr(r.err, "File too large"))
            fail_msg("%s: exit %d, stderr %s", names[i], r.code, r.err);
        cli_free(&r);
        size_t n;
        uint8_t *back = slurp(p, &n);
        if (n != 3 || memcmp(back, "OLD", 3))
            fail_msg("%s: the failed write changed or removed the old file", names[i]);
        free(back);
        assert_int_equal(scratch_count(cli_dir), files);
        remove(p);
    }
    /* an empty directory named like the output stays */
    char d[512];
    path_in(d, sizeof d, "dir.bin");
    assert_int_equal(mkdir(d, 0700), 0);
    r = run_stex("run generar --size 8x8 --out '%s'", d);
    CLI_EXPECT(r, 2, "directory");
    cli_free(&r);
    struct stat sb;
    assert_int_equal(stat(d, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    rmdir(d);
    remove(keep), remove(keeps), remove(keepi), remove(g), remove(gs), remove(gi);
}

/* Item 3: a golden and its companions belong together. */
static void test_companions(void **state)
{
    (void)state;
    char x[512], xs[600], xi[600], y[512], ys[600], rb[512], saved[512];
    path_in(x, sizeof x, "x.bin");
    snprintf(xs, sizeof xs, "%s.json", x);
    snprintf(xi, sizeof xi, "%s.inputs", x);
    path_in(y, sizeof y, "y.bin");
    snprintf(ys, sizeof ys, "%s.json", y);
    path_in(rb, sizeof rb, "readback.bin");
    path_in(saved, sizeof saved, "saved.inputs");

    /* X.bin recorded, then made again by another kernel without recording:
     * the old X.bin.inputs must not stay to judge the new golden */
    cli_result r = run_stex("run decaer --size 32x32 --out '%s' --record-allowed", x);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    copy_file(xi, saved);
    r = run_stex("run difundir --size 32x32 --threads 1 --out '%s'", x);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_int_equal(access(xi, F_OK), -1);
    copy_file(x, rb); /* a correct readback, raw */
    r = run_stex("compare '%s' '%s' --tolerance allowed", x, rb);
    CLI_EXPECT(r, 2, ".inputs");
    cli_free(&r);
    /* the stale file put back by hand is refused, naming it */
    copy_file(saved, xi);
    r = run_stex("compare '%s' '%s' --tolerance allowed", x, rb);
    CLI_EXPECT(r, 2, "without --record-allowed");
    if (!strstr(r.err, xi))
        fail_msg("the message does not name the inputs file: %s", r.err);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --tolerance allowed --inputs '%s'", x, rb, saved);
    CLI_EXPECT(r, 2, "saved.inputs");
    cli_free(&r);

    /* inputs of another recorded golden of the same size: refused by hash */
    r = run_stex("run decaer --size 32x32 --out '%s' --record-allowed", y);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run difundir --size 32x32 --threads 1 --out '%s' --record-allowed", x);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    char yi[600];
    snprintf(yi, sizeof yi, "%s.inputs", y);
    r = run_stex("compare '%s' '%s' --tolerance allowed --inputs '%s'", x, rb, yi);
    CLI_EXPECT(r, 2, "does not belong");
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --tolerance allowed", x, rb);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);

    /* two runs writing one --out left the data of one (generar, rgba8unorm)
     * and the sidecar of the other (decaer, r32float): refused, not judged */
    r = run_stex("run generar --size 32x32 --out '%s'", y);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    copy_file(y, x);
    r = run_stex("compare '%s' '%s'", x, y);
    CLI_EXPECT(r, 2, "does not belong to its sidecar");
    if (!strstr(r.err, x))
        fail_msg("the message does not name the data file: %s", r.err);
    cli_free(&r);
    remove(x), remove(xs), remove(xi), remove(y), remove(ys), remove(yi), remove(rb), remove(saved);
}

/* Item 3: two runs writing the same --out at once leave one run's pair. */
static void test_concurrent_runs(void **state)
{
    (void)state;
    char x[512];
    path_in(x, sizeof x, "c.bin");
    for (int round = 0; round < 4; round++) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd,
                 "'%s' run generar --size 64x64 --out '%s' >/dev/null & "
                 "'%s' run decaer --size 128x32 --out '%s' >/dev/null & wait",
                 stex_bin(), x, stex_bin(), x);
        assert_int_equal(system(cmd), 0);
        cli_result r = run_stex("compare '%s' '%s'", x, x);
        CLI_EXPECT(r, 0, NULL);
        cli_free(&r);
    }
    char s[600];
    snprintf(s, sizeof s, "%s.json", x);
    remove(x), remove(s);
}

/* Item 4: several --out files are written all or nothing. */
static void test_outs_all_or_nothing(void **state)
{
    (void)state;
    char a[512], b[512], bs[600], keep[700];
    path_in(a, sizeof a, "a.npy");
    path_in(b, sizeof b, "b.bin");
    snprintf(bs, sizeof bs, "%s.json", b);
    snprintf(keep, sizeof keep, "%s/keep", bs);
    spit(a, "OLD", 3);
    assert_int_equal(mkdir(bs, 0700), 0);
    spit(keep, "x", 1);
    cli_result r = run_stex("run generar --size 8x8 --out '%s' --out '%s'", a, b);
    CLI_EXPECT(r, 2, "directory");
    cli_free(&r);
    size_t n;
    uint8_t *back = slurp(a, &n);
    assert_int_equal(n, 3);
    assert_memory_equal(back, "OLD", 3);
    free(back);
    assert_int_equal(access(b, F_OK), -1);
    remove(keep), rmdir(bs), remove(a);
    /* a file-size limit (8 KiB) that the .bin (64 x 32 x 4 bytes) fits and
     * the .npy (the same and a header) does not */
    r = run_stex_limited(16, "run generar --size 64x32 --out '%s' --out '%s'", b, a);
    CLI_EXPECT(r, 2, "File too large");
    cli_free(&r);
    assert_int_equal(access(b, F_OK), -1);
    assert_int_equal(access(bs, F_OK), -1);
    assert_int_equal(access(a, F_OK), -1);
}

/* Item 1: sizes from user numbers are checked before they size anything. */
static void test_overflowing_sizes(void **state)
{
    (void)state;
    cli_result r = run_stex("layout rgba8unorm 8x8 --workgroup 1073741824x1073741824 --grid 0");
    CLI_EXPECT(r, 2, "--workgroup");
    cli_free(&r);
    r = run_stex("layout rgba8unorm 8x8 --workgroup 300x1 --grid 0");
    CLI_EXPECT(r, 2, "maxComputeWorkgroupSizeX");
    cli_free(&r);
    r = run_stex("layout rgba8unorm 8x8 --workgroup 16x16 --grid 0");
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    /* a raw .bin whose pitches multiply past 2^64 (2^31 x 2^31 x 4 wraps to 0) */
    char raw[512];
    path_in(raw, sizeof raw, "raw.bin");
    spit(raw, "0123", 4);
    r = run_stex("compare '%s' '%s' --format r8unorm --size 1x1x4 --bytes-per-row 2147483648 "
                 "--rows-per-image 2147483648", raw, raw);
    CLI_EXPECT(r, 2, "more than the 1073741824 bytes");
    cli_free(&r);
    remove(raw);
}

/* Item 9: limits checked before the work, and running out of memory named. */
static void test_limits_first(void **state)
{
    (void)state;
    /* box3x3-buffer at 8192x8192 needs 256 MiB storage buffers: refused at
     * once, before the 0.8 GB of textures and buffers are allocated */
    cli_result r = run_stex("run box3x3-buffer --size 8192x8192");
    CLI_EXPECT(r, 2, "(4 per texel), over maxStorageBufferBindingSize");
    cli_free(&r);
    r = run_stex("race box3x3-buffer --size 8192x8192 --runs 2");
    CLI_EXPECT(r, 2, "maxStorageBufferBindingSize");
    cli_free(&r);
    r = run_stex("run decaer --size 8193x1");
    CLI_EXPECT(r, 2, "maxTextureDimension2D");
    cli_free(&r);
#if !defined(__SANITIZE_ADDRESS__)
    /* (AddressSanitizer cannot start under a small address-space limit) */
    char cmd[2048], err[512];
    snprintf(err, sizeof err, "%s/.oom", cli_dir);
    snprintf(cmd, sizeof cmd,
             "/bin/sh -c \"ulimit -v 300000; exec '%s' run decaer --size 4096x4096 "
             "--race-check\" >/dev/null 2>'%s'", stex_bin(), err);
    int st = system(cmd);
    char *text = cli_slurp_text(err);
    if (!WIFEXITED(st) || WEXITSTATUS(st) == 0 || !strstr(text, "stex run: out of memory"))
        fail_msg("under a 300 MB limit: status %d, stderr '%s'", st, text);
    free(text);
    remove(err);
#endif
}

static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return ~c;
}

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* A PNG's signature, IHDR (w x h, 8-bit RGBA) and an empty IDAT: enough for
 * a reader to learn the size. */
static void png_header_only(const char *path, uint32_t w, uint32_t h)
{
    uint8_t b[64] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
    put_be32(b + 16, w);
    put_be32(b + 20, h);
    b[24] = 8, b[25] = 6; /* depth, RGBA; compression, filter, interlace 0 */
    put_be32(b + 29, crc32_of(b + 12, 17));
    memcpy(b + 37, "IDAT", 4); /* length 0 at b + 33 */
    put_be32(b + 41, crc32_of(b + 37, 4));
    spit(path, b, 45);
}

/* Item 10: messages that say the real problem. */
static void test_messages(void **state)
{
    (void)state;
    char png[512];
    path_in(png, sizeof png, "huge.png");
    png_header_only(png, 70000, 3);
    cli_result r = run_stex("run blur --in '%s'", png);
    CLI_EXPECT(r, 2, "70000x3 pixels");
    cli_free(&r);
    remove(png);

    r = run_stex("validate --format r32float --features all,shader-f16");
    CLI_EXPECT(r, 2, "stands alone");
    if (strstr(r.err, "unknown feature 'all'"))
        fail_msg("'all' called unknown: %s", r.err);
    cli_free(&r);

    char bin[512], side[600];
    path_in(bin, sizeof bin, "m.bin");
    snprintf(side, sizeof side, "%s.json", bin);
    spit(bin, "", 0);
    spit(side, "[1, 2]", 6);
    r = run_stex("compare '%s' '%s'", bin, bin);
    CLI_EXPECT(r, 2, "must be a JSON object");
    if (strstr(r.err, "line -1"))
        fail_msg("%s", r.err);
    cli_free(&r);
    const char *big = "{\"format\": \"r8unorm\", \"size\": [1, 1, 1], \"bytesPerRow\": "
                      "4294967296, \"rowsPerImage\": 1}";
    spit(side, big, strlen(big));
    r = run_stex("compare '%s' '%s'", bin, bin);
    CLI_EXPECT(r, 2, "from 0 to 4294967295");
    if (strstr(r.err, "non-negative"))
        fail_msg("4294967296 called negative: %s", r.err);
    cli_free(&r);
    remove(bin), remove(side);
}

/* Item 8: a FIFO as --in, .npy or sidecar is refused before anything blocks
 * (`timeout` ends a stex that would wait for a writer forever). */
static void test_fifo_inputs(void **state)
{
    (void)state;
    char f[512], args[1200], g[512], gs[600];
    path_in(f, sizeof f, "fifo.png");
    path_in(g, sizeof g, "g.bin");
    snprintf(gs, sizeof gs, "%s.json", g);
    assert_int_equal(mkfifo(f, 0600), 0);
    snprintf(args, sizeof args, "run blur --in '%s'", f);
    cli_result r = run_stex_sh("exec timeout 10", "</dev/null", args);
    CLI_EXPECT(r, 2, "not a regular file (a FIFO)");
    cli_free(&r);
    remove(f);
    path_in(f, sizeof f, "fifo.npy");
    assert_int_equal(mkfifo(f, 0600), 0);
    r = run_stex("run generar --size 4x4 --out '%s'", g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    snprintf(args, sizeof args, "compare '%s' '%s'", g, f);
    r = run_stex_sh("exec timeout 10", "</dev/null", args);
    CLI_EXPECT(r, 2, "FIFO");
    cli_free(&r);
    remove(gs);
    assert_int_equal(mkfifo(gs, 0600), 0);
    snprintf(args, sizeof args, "compare '%s' '%s'", g, g);
    r = run_stex_sh("exec timeout 10", "</dev/null", args);
    CLI_EXPECT(r, 2, "FIFO");
    cli_free(&r);
    remove(f), remove(g), remove(gs);
}

/* Item 7: `stex store --bits` reads batch lines whole, refuses a NUL, and
 * numbers its lines right. */
static void test_store_batch_lines(void **state)
{
    (void)state;
    char in[512], redirect[600];
    path_in(in, sizeof in, "patterns.txt");
    snprintf(redirect, sizeof redirect, "<'%s'", in);
    /* one line of 8 patterns, the two halves 600 spaces apart: one bad record */
    char line[800];
    snprintf(line, sizeof line, "0x3f000000 0 0 0%600s0 0 0 0\n", "");
    spit(in, line, strlen(line));
    cli_result r = run_stex_sh("exec", redirect, "store --bits rgba8unorm");
    CLI_EXPECT(r, 2, "stdin line 1: expected 4 hex bit patterns, got more than 4");
    assert_string_equal(r.out, "");
    cli_free(&r);
    /* a long line of one vector (leading spaces) is one record; errors after it count it as one line */
    snprintf(line, sizeof line, "%600s0x3f000000 0 0 0\n1 2 3 zz\n", "");
    spit(in, line, strlen(line));
    r = run_stex_sh("exec", redirect, "store --bits rgba8unorm");
    CLI_EXPECT(r, 2, "stdin line 2: 'zz'");
    assert_string_equal(r.out, "80000000\n");
    cli_free(&r);
    spit(in, "0 0 0 0\n0 0\0 0 0\n", 17);
    r = run_stex_sh("exec", redirect, "store --bits rgba8unorm");
    CLI_EXPECT(r, 2, "stdin line 2: holds a NUL byte");
    cli_free(&r);
    remove(in);
}

/* Width and height of a PNG, from its IHDR. */
static void png_dims(const char *path, uint32_t *w, uint32_t *h)
{
    size_t n;
    uint8_t *p = slurp(path, &n);
    assert_true(p && n > 24);
    *w = (uint32_t)p[16] << 24 | (uint32_t)p[17] << 16 | (uint32_t)p[18] << 8 | p[19];
    *h = (uint32_t)p[20] << 24 | (uint32_t)p[21] << 16 | (uint32_t)p[22] << 8 | p[23];
    free(p);
}

/* Item 14: compare on raw readbacks - --bytes-per-row honoured, format and
 * size from the golden, unpadded rows when said so, decoded values in the
 * mismatch lines, a diff picture big enough to see a texel. */
static void test_compare_raw(void **state)
{
    (void)state;
    char g[512], gs[600], pad[512], tight[512], diff[512];
    path_in(g, sizeof g, "g20.bin");
    snprintf(gs, sizeof gs, "%s.json", g);
    path_in(pad, sizeof pad, "pad512.bin");
    path_in(tight, sizeof tight, "tight.bin");
    path_in(diff, sizeof diff, "diff.png");
    cli_result r = run_stex("run generar --size 20x6 --out '%s'", g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    size_t n;
    uint8_t *d = slurp(g, &n); /* rows of 80 bytes, 256 apart */
    assert_int_equal(n, 6 * 256);
    uint8_t padded[6 * 512] = {0}, packed[6 * 80];
    for (int y = 0; y < 6; y++) {
        memcpy(padded + y * 512, d + y * 256, 80);
        memcpy(packed + y * 80, d + y * 256, 80);
    }
    free(d);
    spit(pad, padded, sizeof padded);
    packed[5] = 0x40; /* texel (1, 0): green 0x80 -> 0x40 */
    spit(tight, packed, sizeof packed);
    r = run_stex("compare '%s' '%s' --bytes-per-row 512", g, pad);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --bytes-per-row 256", g, pad); /* the pitch is used */
    CLI_EXPECT(r, 2, "larger than the 1536 bytes");
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --unpadded --diff '%s'", g, tight, diff);
    CLI_EXPECT(r, 1, NULL);
    /* the bytes, then the channel that differs decoded: green 128/255 vs 64/255 */
    if (!strstr(r.out, "golden c780b1ff, actual c740b1ff") ||
        !strstr(r.out, "    g  0.501960814 (0x80)") || !strstr(r.out, "0.250980407 (0x40)"))
        fail_msg("no decoded values: %s", r.out);
    cli_free(&r);
    uint32_t w, h;
    png_dims(diff, &w, &h);
    assert_true(w >= 20 * 12); /* 256 / 20 = 12 pixels a texel; wider for the legend */
    assert_int_equal(h, 6 * 12 + 4 + 9 * 11 + 4); /* the legend's 9 rows below */
    r = run_stex("compare '%s' '%s' --bytes-per-row 80", g, tight); /* the same, said so */
    CLI_EXPECT(r, 1, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --bytes-per-row 81", g, tight);
    CLI_EXPECT(r, 2, "nor one unpadded row");
    cli_free(&r);
    remove(g), remove(gs), remove(pad), remove(tight), remove(diff);
}

/* Item 16 (in part): --print-wgsl prints every pass's WGSL. */
static void test_print_wgsl(void **state)
{
    (void)state;
    cli_result r = run_stex("run decaer --print-wgsl");
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "@compute"));
    assert_non_null(strstr(r.out, "texture_storage_2d<r32float, read_write>"));
    cli_free(&r);
    r = run_stex("run histogram --print-wgsl");
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "// pass 2 of 2"));
    cli_free(&r);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failed_write_keeps_golden),
        cmocka_unit_test(test_companions),
        cmocka_unit_test(test_concurrent_runs),
        cmocka_unit_test(test_outs_all_or_nothing),
        cmocka_unit_test(test_overflowing_sizes),
        cmocka_unit_test(test_limits_first),
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_fifo_inputs),
        cmocka_unit_test(test_store_batch_lines),
        cmocka_unit_test(test_compare_raw),
        cmocka_unit_test(test_print_wgsl),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
