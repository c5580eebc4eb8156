/* Goldens you can trust (issue 12), at the library's level: a write that
 * fails leaves every existing target as it was and nothing of its own; a
 * golden's sidecar records the hashes of its data and inputs, and a reader
 * refuses companions that do not belong together; reading refuses FIFOs
 * without blocking. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "io_test.h"
#include "stex/io.h"

static char dir[256];

static void path_in(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

static bool file_is(const char *path, const char *text)
{
    size_t n;
    uint8_t *p = slurp(path, &n);
    bool same = p && n == strlen(text) && !memcmp(p, text, n);
    free(p);
    return same;
}

/* The writers under test, each in a child process with a 1 KiB file-size limit. */
typedef enum which { W_BIN, W_BIN_INPUTS, W_NPY, W_PNG, W_INPUTS, W_RGBA8, W_COUNT } which;

static stex_status write_one(which w, const char *path)
{
    stex_image img;
    stex_inputs in;
    if (stex_image_init(&img, STEX_FORMAT_RGBA32FLOAT, 64, 64, 1) ||
        stex_inputs_init(&in, STEX_SCALAR_F32, 64, 64, 1))
        return STEX_OUT_OF_MEMORY;
    uint64_t s = 7;
    for (size_t i = 0; i < img.size; i++) /* noise: PNG cannot compress it below the limit */
        img.data[i] = (uint8_t)rng_next(&s);
    for (size_t i = 0; i < img.size; i += 4)
        img.data[i + 3] &= 0x3f; /* finite floats */
    stex_io_meta meta = {.kernel = "test", .inputs = w == W_BIN_INPUTS ? &in : NULL};
    stex_status st;
    switch (w) {
    case W_BIN:
    case W_BIN_INPUTS:
        st = stex_write_bin(path, &img, &meta);
        break;
    case W_NPY:
        st = stex_write_npy(path, &img);
        break;
    case W_PNG:
        st = stex_write_png(path, &img);
        break;
    case W_INPUTS:
        st = stex_write_inputs(path, &in);
        break;
    default:
        st = stex_write_png_rgba8(path, img.data, 64, 64); /* race pictures */
        break;
    }
    stex_image_free(&img);
    stex_inputs_free(&in);
    return st;
}

/* Runs write_one in a child under RLIMIT_FSIZE (SIGXFSZ ignored, so the
 * write fails with EFBIG); returns the status it got, -1 if it crashed. */
static int write_limited(which w, const char *path, char *msg, size_t msg_n)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {1024, 1024};
        setrlimit(RLIMIT_FSIZE, &rl);
        stex_status st = write_one(w, path);
        const char *e = stex_last_error();
        ssize_t ignored = write(fds[1], e, strlen(e));
        (void)ignored;
        _exit((int)st);
    }
    close(fds[1]);
    ssize_t n = read(fds[0], msg, msg_n - 1);
    msg[n > 0 ? n : 0] = '\0';
    close(fds[0]);
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

/* Item 2: every writer, failing on a file-size limit, keeps the old target
 * (and the .bin's old sidecar and inputs) and leaves nothing of its own. */
static void test_failed_write_keeps_old(void **state)
{
    (void)state;
    static const char *names[W_COUNT] = {"g.bin", "h.bin", "g.npy", "g.png", "g.inputs", "r.png"};
    for (int w = 0; w < W_COUNT; w++) {
        char p[512], side[600], inp[600], msg[512];
        path_in(p, sizeof p, names[w]);
        snprintf(side, sizeof side, "%s.json", p);
        snprintf(inp, sizeof inp, "%s.inputs", p);
        bool bin = w == W_BIN || w == W_BIN_INPUTS;
        spit(p, "OLD", 3);
        if (bin) {
            spit(side, "OLD SIDECAR", 11);
            spit(inp, "OLD INPUTS", 10);
        }
        int before = scratch_count(dir);
        int st = write_limited((which)w, p, msg, sizeof msg);
        if (st != STEX_IO_ERROR)
            fail_msg("writer %s under a 1 KiB limit: status %d (%s)", names[w], st, msg);
        if (!strstr(msg, p) || !strstr(msg, "too large"))
            fail_msg("writer %s: the message names neither file nor cause: %s", names[w], msg);
        if (!file_is(p, "OLD"))
            fail_msg("writer %s: the failed write changed or removed the old file", names[w]);
        if (bin && (!file_is(side, "OLD SIDECAR") || !file_is(inp, "OLD INPUTS")))
            fail_msg("writer %s: the failed write changed the old sidecar or inputs", names[w]);
        if (scratch_count(dir) != before)
            fail_msg("writer %s: %d files before, %d after (a temporary left?)", names[w], before,
                     scratch_count(dir));
        remove(p);
        remove(side);
        remove(inp);
    }
    assert_int_equal(scratch_count(dir), 0);
}

/* Item 2: an empty directory named like the output is not removed. */
static void test_directory_target_kept(void **state)
{
    (void)state;
    char p[512], side[600];
    path_in(p, sizeof p, "d.bin");
    snprintf(side, sizeof side, "%s.json", p);
    assert_int_equal(mkdir(p, 0700), 0);
    assert_int_equal(write_one(W_BIN, p), STEX_IO_ERROR);
    assert_non_null(strstr(stex_last_error(), "directory"));
    struct stat sb;
    assert_int_equal(stat(p, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    assert_int_equal(access(side, F_OK), -1); /* nothing of its own left */
    assert_int_equal(scratch_count(dir), 1);
    rmdir(p);
}

/* Item 4: several files all or nothing - the second fails (its sidecar's
 * name is a directory), the first keeps its old content. */
static void test_all_or_nothing(void **state)
{
    (void)state;
    char a[512], b[512], bside[600], keep[700];
    path_in(a, sizeof a, "a.npy");
    path_in(b, sizeof b, "b.bin");
    snprintf(bside, sizeof bside, "%s.json", b);
    snprintf(keep, sizeof keep, "%s/keep", bside);
    spit(a, "OLD", 3);
    assert_int_equal(mkdir(bside, 0700), 0);
    spit(keep, "x", 1);
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_RGBA8UNORM, 4, 4, 1), STEX_OK);
    const char *paths[] = {a, b};
    assert_int_equal(stex_write_images(2, paths, &img, NULL), STEX_IO_ERROR);
    assert_non_null(strstr(stex_last_error(), bside));
    assert_true(file_is(a, "OLD"));
    assert_int_equal(access(b, F_OK), -1);
    assert_int_equal(scratch_count(dir), 2); /* a.npy and the directory */
    /* and when all can be written, all are */
    remove(keep);
    rmdir(bside);
    assert_int_equal(stex_write_images(2, paths, &img, NULL), STEX_OK);
    assert_false(file_is(a, "OLD"));
    assert_int_equal(access(b, F_OK), 0);
    assert_int_equal(access(bside, F_OK), 0);
    assert_int_equal(scratch_count(dir), 3);
    stex_image_free(&img);
    remove(a);
    remove(b);
    remove(bside);
}

/* Item 3: the sidecar records the data's hash; a data file from another
 * write (a sidecar of an r32float golden beside rgba8unorm bytes of the same
 * size) is refused, naming the file; a new X.bin removes a stale
 * X.bin.inputs and records the new one's hash. */
static void test_companions_belong(void **state)
{
    (void)state;
    char x[512], y[512], xs[600], ys[600], xi[600];
    path_in(x, sizeof x, "x.bin");
    path_in(y, sizeof y, "y.bin");
    snprintf(xs, sizeof xs, "%s.json", x);
    snprintf(ys, sizeof ys, "%s.json", y);
    snprintf(xi, sizeof xi, "%s.inputs", x);
    stex_image f32, u8;
    stex_inputs in;
    assert_int_equal(stex_image_init(&f32, STEX_FORMAT_R32FLOAT, 16, 4, 1), STEX_OK);
    assert_int_equal(stex_image_init(&u8, STEX_FORMAT_RGBA8UNORM, 16, 4, 1), STEX_OK);
    assert_int_equal(stex_inputs_init(&in, STEX_SCALAR_F32, 16, 4, 1), STEX_OK);
    f32.data[0] = 1;
    stex_io_meta with_inputs = {.inputs = &in};
    assert_int_equal(stex_write_bin(x, &f32, &with_inputs), STEX_OK);
    assert_int_equal(stex_write_bin(y, &u8, NULL), STEX_OK);
    stex_image back;
    stex_io_meta_read m;
    assert_int_equal(stex_read_bin(x, &back, &m), STEX_OK);
    assert_true(m.has_inputs_hash);
    stex_inputs rin;
    assert_int_equal(stex_read_inputs(xi, &rin), STEX_OK);
    assert_string_equal(m.inputs_sha256, rin.sha256);
    stex_inputs_free(&rin);
    stex_image_free(&back);

    /* y's data beside x's sidecar: what two runs writing one --out left */
    size_t n;
    uint8_t *ydata = slurp(y, &n);
    spit(x, ydata, n);
    free(ydata);
    assert_int_equal(stex_read_bin(x, &back, NULL), STEX_FILE_FORMAT_ERROR);
    assert_non_null(strstr(stex_last_error(), "does not belong to its sidecar"));
    assert_non_null(strstr(stex_last_error(), x));

    /* a new x.bin without inputs: the old x.bin.inputs goes */
    assert_int_equal(stex_write_bin(x, &u8, NULL), STEX_OK);
    assert_int_equal(access(xi, F_OK), -1);
    assert_int_equal(stex_read_bin(x, &back, &m), STEX_OK);
    assert_true(m.has_inputs_hash);
    assert_string_equal(m.inputs_sha256, "");
    stex_image_free(&back);
    stex_image_free(&f32);
    stex_image_free(&u8);
    stex_inputs_free(&in);
    remove(x);
    remove(y);
    remove(xs);
    remove(ys);
    assert_int_equal(scratch_count(dir), 0);
}

/* Item 8: a FIFO where a file is read is refused at once, not waited on. */
static void test_fifo_refused(void **state)
{
    (void)state;
    char good[512], fifo_npy[512], fifo_bin[512], side[600];
    path_in(good, sizeof good, "good.bin");
    path_in(fifo_npy, sizeof fifo_npy, "f.npy");
    path_in(fifo_bin, sizeof fifo_bin, "f.bin");
    snprintf(side, sizeof side, "%s.json", good);
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_RGBA8UNORM, 4, 4, 1), STEX_OK);
    assert_int_equal(stex_write_bin(good, &img, NULL), STEX_OK);
    stex_image_free(&img);
    /* the sidecar becomes a FIFO, and two data files are FIFOs */
    remove(side);
    assert_int_equal(mkfifo(side, 0600), 0);
    assert_int_equal(mkfifo(fifo_npy, 0600), 0);
    alarm(10); /* a blocking open would hang the test: let it die instead */
    assert_int_equal(stex_read_bin(good, &img, NULL), STEX_IO_ERROR);
    assert_non_null(strstr(stex_last_error(), "not a regular file"));
    assert_int_equal(stex_read_npy(fifo_npy, STEX_FORMAT_UNDEFINED, &img), STEX_IO_ERROR);
    assert_non_null(strstr(stex_last_error(), "FIFO"));
    stex_inputs in;
    assert_int_equal(stex_read_inputs(fifo_npy, &in), STEX_IO_ERROR);
    assert_int_equal(stex_read_png(fifo_npy, &img), STEX_IO_ERROR);
    assert_non_null(strstr(stex_last_error(), "FIFO"));
    alarm(0);
    remove(good);
    remove(side);
    remove(fifo_npy);
    (void)fifo_bin;
    assert_int_equal(scratch_count(dir), 0);
}

/* An .npy file with the header text given (padded to 64 bytes with spaces
 * and a newline, as numpy writes it) and n data bytes. */
static void make_npy(const char *path, const char *dict, size_t dict_len, size_t n)
{
    uint8_t buf[512] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    size_t total = (10 + dict_len + 1 + 63) & ~(size_t)63;
    buf[8] = (uint8_t)(total - 10);
    memcpy(buf + 10, dict, dict_len);
    memset(buf + 10 + dict_len, ' ', total - 10 - dict_len - 1);
    buf[total - 1] = '\n';
    memset(buf + total, 7, n);
    spit(path, buf, total + n);
}

/* Item 11: .npy headers are read strictly; '<u1' is '|u1'. */
static void test_npy_strict(void **state)
{
    (void)state;
    char p[512];
    path_in(p, sizeof p, "h.npy");
    static const struct { const char *dict; size_t len; const char *why; } bad[] = {
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (2 2 4), }", 0, "separated by commas"},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2, 4), }x", 0, "follows the header"},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2, 4), } 'shape': 1", 0,
         "follows the header"},
        {"{'descr': '|u1' 'fortran_order': False, 'shape': (2, 2, 4)}", 0, "separated by commas"},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2, 4), 'shape': (1, 1, 16)}", 0,
         "twice"},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (16)}", 0, "not a tuple"},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2, 4), }\0junk", 68, "NUL"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        make_npy(p, bad[i].dict, bad[i].len ? bad[i].len : strlen(bad[i].dict), 16);
        stex_image img;
        stex_status st = stex_read_npy(p, STEX_FORMAT_UNDEFINED, &img);
        if (st != STEX_FILE_FORMAT_ERROR || !strstr(stex_last_error(), bad[i].why))
            fail_msg("header %zu: status %d, '%s' (expected '%s')", i, st, stex_last_error(),
                     bad[i].why);
    }
    /* what numpy writes, and '<u1' for '|u1' (the same dtype) */
    static const char *good[] = {
        "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2, 4), }",
        "{'descr': '<u1', 'fortran_order': False, 'shape': (2, 2, 4), }",
        "{\"descr\": \"<u1\", \"fortran_order\": False, \"shape\": (1, 2, 2, 4)}",
        "{'descr': '|u1', 'fortran_order': False, 'shape': (16,), }",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        make_npy(p, good[i], strlen(good[i]), 16);
        stex_image img;
        stex_status st = stex_read_npy(p, STEX_FORMAT_UNDEFINED, &img);
        if (i == 3) { /* one dimension is no texture, but the header itself is fine */
            assert_int_equal(st, STEX_FILE_FORMAT_ERROR);
            assert_non_null(strstr(stex_last_error(), "shape must be"));
            continue;
        }
        if (st != STEX_OK)
            fail_msg("header %zu: %s", i, stex_last_error());
        assert_int_equal(img.format, STEX_FORMAT_RGBA8UNORM);
        assert_int_equal(img.width, 2);
        stex_image_free(&img);
        assert_int_equal(stex_read_npy(p, STEX_FORMAT_RGBA8UNORM, &img), STEX_OK);
        stex_image_free(&img);
    }
    remove(p);
}

int main(void)
{
    scratch_make(dir, sizeof dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failed_write_keeps_old),
        cmocka_unit_test(test_directory_target_kept),
        cmocka_unit_test(test_all_or_nothing),
        cmocka_unit_test(test_companions_belong),
        cmocka_unit_test(test_fifo_refused),
        cmocka_unit_test(test_npy_strict),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(dir);
    return rc;
}
