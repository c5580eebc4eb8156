/* Crash-safe writes (temporary file + rename) and bounded whole-file reads. */
#include "io/io_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

stex_status io_tmp_open(io_tmpfile *t, const char *path)
{
    memset(t, 0, sizeof *t);
    if (!path || !*path)
        return stex_fail(STEX_INVALID_ARGUMENT, "write: empty output path");
    /* The temporary lives beside the target so that rename() stays on one
     * file system and is atomic. */
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    if (!*base)
        return stex_fail(STEX_INVALID_ARGUMENT, "write: '%s' names a directory, not a file", path);
    size_t n = dir_len + strlen(base) + 16;
    t->tmp_path = malloc(n);
    t->final_path = dup_str(path);
    if (!t->tmp_path || !t->final_path) {
        free(t->tmp_path); /* no file made yet: nothing for io_tmp_abort to remove */
        t->tmp_path = NULL;
        io_tmp_abort(t);
        return stex_fail(STEX_OUT_OF_MEMORY, "write: out of memory");
    }
    snprintf(t->tmp_path, n, "%.*s.%s.XXXXXX", (int)dir_len, path, base);
    int fd = mkstemp(t->tmp_path);
    if (fd < 0) {
        int e = errno;
        free(t->tmp_path);
        t->tmp_path = NULL;
        io_tmp_abort(t);
        return stex_fail(STEX_IO_ERROR, "cannot write '%s': %s", path, strerror(e));
    }
    /* mkstemp makes the file 0600; give it the usual permissions. */
    mode_t um = umask(0);
    umask(um);
    (void)fchmod(fd, 0666 & ~um);
    t->f = fdopen(fd, "wb");
    if (!t->f) {
        int e = errno;
        close(fd);
        io_tmp_abort(t);
        return stex_fail(STEX_IO_ERROR, "cannot write '%s': %s", path, strerror(e));
    }
    return STEX_OK;
}

stex_status io_write_bytes(io_tmpfile *t, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, t->f) != n)
        return stex_fail(STEX_IO_ERROR, "cannot write '%s': %s", t->final_path, strerror(errno));
    return STEX_OK;
}

stex_status io_tmp_close(io_tmpfile *t)
{
    int bad = fflush(t->f) != 0;
    int e = errno;
    if (!bad && fsync(fileno(t->f)) != 0 && errno != EINVAL) {
        bad = 1;
        e = errno;
    }
    if (fclose(t->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    t->f = NULL;
    if (bad) {
        stex_status st = stex_fail(STEX_IO_ERROR, "cannot write '%s': %s", t->final_path, strerror(e));
        io_tmp_abort(t);
        return st;
    }
    return STEX_OK;
}

stex_status io_tmp_rename(io_tmpfile *t)
{
    if (rename(t->tmp_path, t->final_path) != 0) {
        stex_status st = stex_fail(STEX_IO_ERROR, "cannot write '%s': %s", t->final_path,
                                   strerror(errno));
        io_tmp_abort(t);
        return st;
    }
    free(t->tmp_path);
    free(t->final_path);
    t->tmp_path = t->final_path = NULL;
    return STEX_OK;
}

stex_status io_tmp_commit(io_tmpfile *t)
{
    stex_status st = io_tmp_close(t);
    return st ? st : io_tmp_rename(t);
}

void io_tmp_abort(io_tmpfile *t)
{
    if (t->f)
        fclose(t->f);
    if (t->tmp_path)
        remove(t->tmp_path);
    free(t->tmp_path);
    free(t->final_path);
    memset(t, 0, sizeof *t);
}

stex_status io_read_file(const char *path, uint8_t **data, size_t *size, size_t max)
{
    *data = NULL;
    *size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return stex_fail(STEX_IO_ERROR, "cannot read '%s': %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return stex_fail(STEX_IO_ERROR, "cannot read '%s': not a regular file", path);
    }
    if ((uint64_t)sb.st_size > max) {
        fclose(f);
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "'%s' is %lld bytes, more than the %zu this kind of file may hold", path,
                         (long long)sb.st_size, max);
    }
    size_t n = (size_t)sb.st_size;
    uint8_t *p = malloc(n ? n : 1);
    if (!p) {
        fclose(f);
        return stex_fail(STEX_OUT_OF_MEMORY, "reading '%s': out of memory (%zu bytes)", path, n);
    }
    size_t got = fread(p, 1, n, f);
    int err = ferror(f);
    fclose(f);
    if (got != n || err) {
        free(p);
        return stex_fail(STEX_IO_ERROR, "cannot read '%s': short read (%zu of %zu bytes)", path,
                         got, n);
    }
    *data = p;
    *size = n;
    return STEX_OK;
}
