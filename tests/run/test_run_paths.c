/* The files a run file may name - only inside its own folder unless the
 * user allows another - for what it reads and what it writes; and the
 * output lock: two runs writing the same files in different orders and
 * folders leave one run's whole set, never a mix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/io_internal.h"
#include "stex/stex.h"

static char root[256], dir[300], other[300]; /* dir = root/run, other = root/other */
static stex_adapter *adapter;
static stex_device *device;

static void put(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

static void at(char *out, size_t n, const char *folder, const char *name)
{
    if (snprintf(out, n, "%s/%s", folder, name) >= (int)n)
        abort();
}

/* Parses, executes and writes the outputs of text in dir with `allow`. */
static stex_status run_allowed(const char *text, const char *const *allow, size_t nallow)
{
    stex_run_options o = {.allow_paths = allow, .allow_path_count = nallow};
    stex_run *r = NULL;
    stex_status st = stex_run_parse(text, "run.json", dir, &o, &r);
    if (!st)
        st = stex_run_execute(r, device, NULL);
    if (!st)
        st = stex_run_write_outputs(r);
    stex_run_destroy(r);
    return st;
}

static void expect_refused(const char *text, const char *member, const char *why)
{
    stex_status st = run_allowed(text, NULL, 0);
    const char *e = stex_last_error();
    if (st != STEX_IO_ERROR || !strstr(e, member) || !strstr(e, why) ||
        !strstr(e, "a run file may name only files inside its own folder") ||
        !strstr(e, "--allow-paths DIR"))
        fail_msg("status %d, message: %s\nwanted %s ... %s\nrun file: %s", st, e, member, why,
                 text);
}

/* {"buffers": {"b": contents from file}} */
static void buffer_from(char *out, size_t n, const char *file)
{
    snprintf(out, n, "{\"buffers\": {\"b\": {\"size\": 8, \"usage\": [\"COPY_SRC\"], "
                     "\"contents\": {\"file\": \"%s\"}}}}", file);
}

static void output_to(char *out, size_t n, const char *file)
{
    snprintf(out, n, "{\"textures\": {\"t\": {\"size\": [2, 2], \"format\": \"r32uint\", "
                     "\"usage\": [\"COPY_SRC\", \"COPY_DST\"], \"contents\": {\"fill\": 7}}},"
                     " \"outputs\": [{\"texture\": \"t\", \"file\": \"%s\"}]}", file);
}

/* Reading: an absolute path, '..', a symbolic link out - refused, each
 * named; the same names inside the folder, and through an allowed one, read. */
static void test_inputs_stay_inside(void **state)
{
    (void)state;
    char text[1024], path[600];
    /* the outside file, by every route */
    at(path, sizeof path, root, "secret.bin");
    buffer_from(text, sizeof text, path);
    expect_refused(text, "$.buffers.b.contents.file: file '", "it is an absolute path");
    buffer_from(text, sizeof text, "../secret.bin");
    expect_refused(text, "$.buffers.b.contents.file: file '../secret.bin' is outside the run "
                         "file's folder", "it leads out of it through '..'");
    buffer_from(text, sizeof text, "sub/../../secret.bin");
    expect_refused(text, "$.buffers.b.contents.file", "through '..'");
    buffer_from(text, sizeof text, "out-link/secret.bin"); /* run/out-link -> root */
    expect_refused(text, "$.buffers.b.contents.file", "it leads out of it through a symbolic link");
    buffer_from(text, sizeof text, "secret-link.bin"); /* run/secret-link.bin -> ../secret.bin */
    expect_refused(text, "$.buffers.b.contents.file", "through a symbolic link");
    /* a WGSL module (its lines would be quoted in diagnostics), an image */
    expect_refused("{\"shaderModules\": {\"m\": {\"file\": \"../secret.wgsl\"}}}",
                   "$.shaderModules.m.file", "through '..'");
    expect_refused("{\"textures\": {\"t\": {\"size\": [1], \"format\": \"r8unorm\", \"usage\": [\"COPY_DST\"],"
                   " \"contents\": {\"file\": \"../image.npy\"}}}}", "$.textures.t.contents.file",
                   "through '..'");
    expect_refused("{\"buffers\": {\"b\": {\"size\": 8, \"usage\": [\"COPY_DST\"]}}, \"steps\": [{\"writeBuffer\":"
                   " {\"buffer\": \"b\", \"data\": {\"file\": \"/etc/passwd\"}}}]}",
                   "$.steps[0].writeBuffer.data.file", "absolute path");
    /* inside: plain, through '..' that stays in, through a link that stays in */
    buffer_from(text, sizeof text, "inside.bin");
    assert_int_equal(run_allowed(text, NULL, 0), STEX_OK);
    buffer_from(text, sizeof text, "sub/../inside.bin");
    assert_int_equal(run_allowed(text, NULL, 0), STEX_OK);
    buffer_from(text, sizeof text, "in-link.bin"); /* run/in-link.bin -> inside.bin */
    assert_int_equal(run_allowed(text, NULL, 0), STEX_OK);
    at(path, sizeof path, dir, "inside.bin"); /* absolute, but inside */
    buffer_from(text, sizeof text, path);
    assert_int_equal(run_allowed(text, NULL, 0), STEX_OK);
    /* allowed: the folder holding the secret, by its name or any other */
    buffer_from(text, sizeof text, "../secret.bin");
    const char *allow[] = {root};
    assert_int_equal(run_allowed(text, allow, 1), STEX_OK);
    const char *allow_other[] = {other};
    assert_int_equal(run_allowed(text, allow_other, 1), STEX_IO_ERROR);
    const char *allow_all[] = {"/"};
    assert_int_equal(run_allowed(text, allow_all, 1), STEX_OK);
}

/* Writing: every output checked (the folder it lands in resolved, existing
 * or not); a refused one leaves every target as it was. */
static void test_outputs_stay_inside(void **state)
{
    (void)state;
    char text[1024], path[600];
    output_to(text, sizeof text, "../other/x.bin");
    expect_refused(text, "$.outputs[0].file", "through '..'");
    output_to(text, sizeof text, "out-link/other/x.bin");
    expect_refused(text, "$.outputs[0].file", "through a symbolic link");
    output_to(text, sizeof text, "out-link/not-yet/x.bin"); /* a folder that does not exist */
    expect_refused(text, "$.outputs[0].file", "through a symbolic link");
    at(path, sizeof path, other, "x.png");
    output_to(text, sizeof text, path);
    expect_refused(text, "$.outputs[0].file", "absolute path");
    at(path, sizeof path, other, "x.bin");
    assert_int_not_equal(access(path, F_OK), 0);
    at(path, sizeof path, other, "x.png");
    assert_int_not_equal(access(path, F_OK), 0);
    /* allowed: written */
    output_to(text, sizeof text, "../other/x.bin");
    const char *allow[] = {other};
    assert_int_equal(run_allowed(text, allow, 1), STEX_OK);
    at(path, sizeof path, other, "x.bin.json");
    assert_int_equal(access(path, F_OK), 0);
    /* inside, in a folder that does not exist: not refused by the rule (the
     * write fails on the missing folder itself) */
    output_to(text, sizeof text, "no/such/x.bin");
    assert_int_equal(run_allowed(text, NULL, 0), STEX_IO_ERROR);
    assert_null(strstr(stex_last_error(), "outside"));
    /* a link swapped in after the parse is caught when writing */
    output_to(text, sizeof text, "later/x.bin");
    at(path, sizeof path, dir, "later");
    assert_int_equal(mkdir(path, 0755), 0);
    stex_run *r;
    assert_int_equal(stex_run_parse(text, "run.json", dir, NULL, &r), STEX_OK);
    assert_int_equal(stex_run_execute(r, device, NULL), STEX_OK);
    assert_int_equal(rmdir(path), 0);
    assert_int_equal(symlink(other, path), 0);
    assert_int_equal(stex_run_write_outputs(r), STEX_IO_ERROR);
    assert_non_null(strstr(stex_last_error(), "through a symbolic link"));
    stex_run_destroy(r);
    at(path, sizeof path, other, "x.bin");
    assert_int_equal(unlink(path), 0); /* the allowed one above; nothing else came */
    at(path, sizeof path, other, "x.bin.json");
    assert_int_equal(unlink(path), 0);
}

/* A read_file hook (stex's built-in kernels keep their files in the binary)
 * gets only names inside the folder too, checked as text. */
static stex_status read_hook(void *user, const char *path, uint8_t **bytes, size_t *size)
{
    (void)user, (void)path;
    *bytes = calloc(1, 8);
    *size = 8;
    return *bytes ? STEX_OK : STEX_OUT_OF_MEMORY;
}

static void test_read_hook_names(void **state)
{
    (void)state;
    char text[1024];
    stex_run_options o = {.read_file = read_hook};
    stex_run *r;
    buffer_from(text, sizeof text, "input.bin");
    assert_int_equal(stex_run_parse(text, "k.json", "", &o, &r), STEX_OK);
    assert_int_equal(stex_run_execute(r, device, NULL), STEX_OK);
    stex_run_destroy(r);
    buffer_from(text, sizeof text, "../input.bin");
    assert_int_equal(stex_run_parse(text, "k.json", "", &o, &r), STEX_OK);
    assert_int_equal(stex_run_execute(r, device, NULL), STEX_IO_ERROR);
    assert_non_null(strstr(stex_last_error(), "through '..'"));
    stex_run_destroy(r);
}

/* ---- the lock over the whole batch ---- */

/* A run file writing 8 files (each .bin with its sidecar: 16) alternately
 * into dir/a and dir/b, forwards or backwards, every texel = value. */
static void lock_run_text(char *out, size_t n, int value, bool backwards)
{
    int len = snprintf(out, n, "{\"textures\": {\"t\": {\"size\": [4, 4], \"format\": \"r32uint\", "
                               "\"usage\": [\"COPY_SRC\", \"COPY_DST\"], \"contents\": {\"fill\": %d}}},"
                               " \"outputs\": [{\"texture\": \"t\", \"files\": [", value);
    for (int i = 0; i < 8; i++) {
        int k = backwards ? 7 - i : i;
        /* one names folder a by another route */
        len += snprintf(out + len, n - (size_t)len, "%s\"%s/f%d.bin\"", i ? ", " : "",
                        k % 2 ? "b" : backwards ? "a" : "../run/a", k);
    }
    snprintf(out + len, n - (size_t)len, "]}]}");
}

/* Two processes commit at the same moment (released by one pipe), one
 * writing the set forwards, the other backwards; afterwards every file
 * holds the same run's value.  Before the lock covered every folder, a
 * commit locked only its first file's folder, and the sets mixed. */
static void test_lock_covers_batch(void **state)
{
    (void)state;
    char path[600];
    at(path, sizeof path, dir, "a");
    mkdir(path, 0755);
    at(path, sizeof path, dir, "b");
    mkdir(path, 0755);
    int rounds = getenv("STEX_LOCK_ROUNDS") ? atoi(getenv("STEX_LOCK_ROUNDS")) : 30, mixed = 0;
    for (int round = 0; round < rounds; round++) {
        int go[2];
        assert_int_equal(pipe(go), 0);
        pid_t pid[2];
        for (int c = 0; c < 2; c++) {
            fflush(NULL);
            if ((pid[c] = fork()) == 0) {
                char text[2048];
                lock_run_text(text, sizeof text, 2 * round + c + 1, c == 1);
                stex_run *r;
                close(go[1]);
                if (stex_run_parse(text, "lock.json", dir, NULL, &r) ||
                    stex_run_execute(r, device, &(stex_dispatch_options){.threads = 1}))
                    _exit(2);
                char byte;
                if (read(go[0], &byte, 1) < 0) /* released together: EOF */
                    _exit(3);
                _exit(stex_run_write_outputs(r) ? 4 : 0);
            }
        }
        close(go[0]);
        close(go[1]);
        for (int c = 0; c < 2; c++) {
            int ws;
            assert_int_equal(waitpid(pid[c], &ws, 0), pid[c]);
            assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
        }
        uint32_t first = 0;
        bool mix = false;
        for (int i = 0; i < 8; i++) {
            char file[64];
            snprintf(file, sizeof file, "%s/f%d.bin", i % 2 ? "b" : "a", i);
            at(path, sizeof path, dir, file);
            /* a .bin and a sidecar of different runs: the sidecar's SHA-256
             * does not match, and the reader refuses the pair - a mix too */
            stex_image img;
            if (stex_read_bin(path, &img, NULL) != STEX_OK) {
                mix = true;
                continue;
            }
            uint32_t v;
            memcpy(&v, img.data, 4);
            stex_image_free(&img);
            if (i == 0)
                first = v;
            mix |= v != first;
        }
        mixed += mix;
    }
    if (mixed)
        fail_msg("%d of %d rounds left a mixed set of outputs", mixed, rounds);
}

/* The same race at the io layer's commit itself, where the windows are
 * widest: each process's 16 files (alternately in dir/a and dir/b, one
 * forwards, one backwards) written and flushed beforehand, so that both
 * commits - the locking and the renames - start together. */
static void test_lock_commit_overlap(void **state)
{
    (void)state;
    int rounds = getenv("STEX_LOCK_ROUNDS") ? atoi(getenv("STEX_LOCK_ROUNDS")) : 100, mixed = 0;
    char path[600];
    at(path, sizeof path, dir, "a");
    mkdir(path, 0755);
    at(path, sizeof path, dir, "b");
    mkdir(path, 0755);
    for (int round = 0; round < rounds; round++) {
        int go[2];
        assert_int_equal(pipe(go), 0);
        pid_t pid[2];
        for (int c = 0; c < 2; c++) {
            fflush(NULL);
            if ((pid[c] = fork()) == 0) {
                close(go[1]);
                io_batch b = {0};
                char id[32];
                int len = snprintf(id, sizeof id, "%d", 2 * round + c);
                for (int i = 0; i < 16; i++) {
                    int k = c ? 15 - i : i;
                    char name[64];
                    snprintf(name, sizeof name, "%s/g%d.txt", k % 2 ? "b" : "a", k);
                    at(path, sizeof path, dir, name);
                    io_tmpfile *t;
                    if (io_batch_open(&b, path, &t) || io_write_bytes(t, id, (size_t)len) ||
                        io_tmp_close(t))
                        _exit(2);
                }
                char byte;
                if (read(go[0], &byte, 1) < 0)
                    _exit(3);
                _exit(io_batch_commit(&b) ? 4 : 0);
            }
        }
        close(go[0]);
        close(go[1]);
        for (int c = 0; c < 2; c++) {
            int ws;
            assert_int_equal(waitpid(pid[c], &ws, 0), pid[c]);
            assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
        }
        char first[32] = "", text[32];
        bool mix = false;
        for (int i = 0; i < 16; i++) {
            char name[64];
            snprintf(name, sizeof name, "%s/g%d.txt", i % 2 ? "b" : "a", i);
            at(path, sizeof path, dir, name);
            FILE *f = fopen(path, "rb");
            assert_non_null(f);
            size_t n = fread(text, 1, sizeof text - 1, f);
            fclose(f);
            text[n] = '\0';
            if (i == 0)
                snprintf(first, sizeof first, "%s", text);
            mix |= strcmp(text, first) != 0;
        }
        mixed += mix;
    }
    if (mixed)
        fail_msg("%d of %d rounds left a mixed set of files", mixed, rounds);
}

/* The mechanism, without timing: while another process holds the lock of
 * folder b, a commit of {a/x, b/y} - whose first file is in a - waits for
 * it, and lands whole once b is free.  (Before, only a was locked: the
 * commit went through at once.) */
static void test_lock_waits_for_every_folder(void **state)
{
    (void)state;
    char a[600], b[600], x[600], y[600];
    at(a, sizeof a, dir, "a");
    at(b, sizeof b, dir, "b");
    mkdir(a, 0755);
    mkdir(b, 0755);
    at(x, sizeof x, a, "x.txt");
    at(y, sizeof y, b, "y.txt");
    int fd = open(b, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd); /* the parent's lock, shared by this copy of the descriptor */
        io_batch batch = {0};
        io_tmpfile *t;
        if (io_batch_open(&batch, x, &t) || io_write_bytes(t, "x", 1) ||
            io_batch_open(&batch, y, &t) || io_write_bytes(t, "y", 1))
            _exit(2);
        _exit(io_batch_commit(&batch) ? 3 : 0);
    }
    usleep(300 * 1000);
    int ws;
    bool waiting = waitpid(pid, &ws, WNOHANG) == 0; /* still waiting for b */
    bool written = access(x, F_OK) == 0 || access(y, F_OK) == 0;
    close(fd); /* b free (before any assert: a later test needs it) */
    assert_true(waiting);
    assert_false(written);
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    assert_int_equal(access(x, F_OK), 0);
    assert_int_equal(access(y, F_OK), 0);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/stex_paths_XXXXXX");
    if (!mkdtemp(root))
        return 1;
    char path[600], link[600];
    at(dir, sizeof dir, root, "run");
    at(other, sizeof other, root, "other");
    mkdir(dir, 0755);
    mkdir(other, 0755);
    at(path, sizeof path, dir, "sub");
    mkdir(path, 0755);
    at(path, sizeof path, root, "secret.bin");
    put(path, "SECRET!!", 8);
    at(path, sizeof path, root, "secret.wgsl");
    put(path, "secret", 6);
    at(path, sizeof path, dir, "inside.bin");
    put(path, "insider!", 8);
    at(link, sizeof link, dir, "out-link");
    if (symlink(root, link) != 0)
        return 1;
    at(link, sizeof link, dir, "secret-link.bin");
    if (symlink("../secret.bin", link) != 0)
        return 1;
    at(link, sizeof link, dir, "in-link.bin");
    if (symlink("inside.bin", link) != 0)
        return 1;
    if (stex_adapter_create(NULL, &adapter) || stex_device_create(adapter, NULL, &device))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inputs_stay_inside),
        cmocka_unit_test(test_outputs_stay_inside),
        cmocka_unit_test(test_read_hook_names),
        cmocka_unit_test(test_lock_waits_for_every_folder),
        cmocka_unit_test(test_lock_covers_batch),
        cmocka_unit_test(test_lock_commit_overlap),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    stex_device_destroy(device);
    stex_adapter_destroy(adapter);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
