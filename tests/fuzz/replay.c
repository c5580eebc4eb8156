/* Replays every file of the folders given as arguments through a fuzz
 * target's LLVMFuzzerTestOneInput: CI's run of the kept corpus, under
 * ASan/UBSan there.  Beyond "no crash", each input is held to the front
 * end's contract (include/stex/wgsl.h):
 *   - a module is either valid (no errors, no diagnostics) or refused with
 *     error_count > 0 and every diagnostic in the form
 *     `file:line:col: error: message [rule]`;
 *   - the verdict and its diagnostics are the same when compiled twice;
 *   - the hand-made seeds (*.wgsl) are refused exactly when their name starts
 *     with "refused-"; the others are valid WGSL (the lesson kernels, loops).
 * A file that cannot be read, or is longer than the fuzz target takes, fails
 * the run instead of being skipped. */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stex/wgsl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_INPUT = 1 << 16 }; /* fuzz_wgsl.c ignores longer inputs */

static int failures;

static void fail(const char *path, const char *why)
{
    fprintf(stderr, "replay: %s: %s\n", path, why);
    failures++;
}

/* Every line that is not a source echo (two spaces) or the closing count must
 * be `NAME:LINE:COL: error: MESSAGE [RULE]`. */
static bool diagnostics_well_formed(const char *diag, const char *name)
{
    size_t n = strlen(name);
    for (const char *line = diag; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (strncmp(line, "  ", 2) != 0) {
            unsigned l, c;
            int off = 0;
            if (strncmp(line, name, n) != 0 || line[n] != ':' ||
                sscanf(line + n, ":%u:%u: error: %n", &l, &c, &off) != 2 || off == 0 ||
                l == 0 || c == 0 || len < 3 || line[len - 1] != ']' ||
                !memchr(line, '[', len))
                return false;
        }
        line += len + (end ? 1 : 0);
    }
    return true;
}

/* Returns 1 valid, 0 refused, -1 broken contract. */
static int verdict(const char *src, const char *path, char **diag_out)
{
    stex_wgsl_module *m = NULL;
    stex_status s = stex_wgsl_module_create(src, "fuzz.wgsl", &m);
    if (!m) {
        fail(path, "no module returned (a refused module must still hold its diagnostics)");
        return -1;
    }
    const char *diag = stex_wgsl_module_diagnostics(m);
    size_t errors = stex_wgsl_module_error_count(m);
    int v = -1;
    if (s == STEX_OK && errors == 0 && diag && !*diag)
        v = 1;
    else if (s != STEX_OK && errors > 0 && diag && *diag && diagnostics_well_formed(diag, "fuzz.wgsl"))
        v = 0;
    else
        fail(path, "status, error count and diagnostics disagree, or a diagnostic is malformed");
    *diag_out = strdup(diag ? diag : "");
    stex_wgsl_module_destroy(m);
    return v;
}

static void check_input(const char *path, const char *name, const uint8_t *buf, size_t n,
                        int *valid, int *refused)
{
    LLVMFuzzerTestOneInput(buf, n);
    char *src = malloc(n + 1);
    if (!src) {
        fail(path, "out of memory");
        return;
    }
    memcpy(src, buf, n);
    src[n] = '\0';
    char *d1 = NULL, *d2 = NULL;
    int v1 = verdict(src, path, &d1), v2 = verdict(src, path, &d2);
    if (v1 != v2 || !d1 || !d2 || strcmp(d1, d2) != 0)
        fail(path, "two compiles of the same source disagree");
    if (v1 == 1)
        (*valid)++;
    if (v1 == 0)
        (*refused)++;
    size_t len = strlen(name);
    if (v1 >= 0 && len > 5 && strcmp(name + len - 5, ".wgsl") == 0) {
        bool want_refused = strncmp(name, "refused-", 8) == 0;
        if (want_refused != (v1 == 0))
            fail(path, want_refused ? "a seed named refused-* was accepted"
                                    : "a hand-made seed that is valid WGSL was refused");
    }
    free(d1);
    free(d2);
    free(src);
}

int main(int argc, char **argv)
{
    int files = 0, valid = 0, refused = 0;
    uint8_t *buf = malloc(FUZZ_MAX_INPUT + 1);
    if (!buf)
        return 1;
    for (int a = 1; a < argc; a++) {
        DIR *dir = opendir(argv[a]);
        if (!dir) {
            fail(argv[a], "cannot open the folder");
            continue;
        }
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            FILE *f = fopen(path, "rb");
            if (!f) {
                fail(path, "cannot be read");
                continue;
            }
            size_t n = fread(buf, 1, FUZZ_MAX_INPUT + 1, f);
            bool bad = ferror(f) != 0;
            fclose(f);
            if (bad || n > FUZZ_MAX_INPUT) {
                fail(path, bad ? "read error" : "longer than the fuzz target takes (64 KiB)");
                continue;
            }
            check_input(path, e->d_name, buf, n, &valid, &refused);
            files++;
        }
        closedir(dir);
    }
    free(buf);
    /* A corpus that lost either side no longer covers the front end. */
    if (valid == 0 || refused == 0)
        fail("corpus", "needs both valid and refused modules");
    printf("replayed %d inputs: %d valid, %d refused; %d failed\n", files, valid, refused,
           failures);
    return files && !failures ? 0 : 1;
}
