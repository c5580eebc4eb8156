/* Writing files all or nothing, and bounded whole-file reads.
 *
 * A writer never touches a target before everything is ready: each file is
 * written to a temporary beside its target (same directory, so rename() is
 * atomic), and only when every temporary of a batch is complete and flushed
 * are they renamed into place.  The old content of each target is kept as a
 * hard link until the batch is through, so that a failed rename puts back
 * what was there - a failed write removes only what it created. */
#include "io/io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

/* "DIR/.BASE.TAG.XXXXXX" beside `path` (a mkstemp template); NULL if out of memory. */
static char *beside(const char *path, const char *tag)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path + 1) : 0;
    size_t n = strlen(path) + strlen(tag) + 16;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%.*s.%s.%sXXXXXX", (int)dir_len, path, path + dir_len, tag);
    return p;
}

stex_status io_tmp_open(io_tmpfile *t, const char *path)
{
    memset(t, 0, sizeof *t);
    io_sha256_init(&t->sha);
    if (!path || !*path)
        return stex_fail(STEX_INVALID_ARGUMENT, "write: empty output path");
    const char *slash = strrchr(path, '/');
    if (!*(slash ? slash + 1 : path))
        return stex_fail(STEX_INVALID_ARGUMENT, "write: '%s' names a directory, not a file", path);
    t->tmp_path = beside(path, "");
    t->final_path = dup_str(path);
    if (!t->tmp_path || !t->final_path) {
        free(t->tmp_path); /* no file made yet: nothing for io_tmp_abort to remove */
        t->tmp_path = NULL;
        io_tmp_abort(t);
        return stex_fail(STEX_OUT_OF_MEMORY, "write '%s': out of memory", path);
    }
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
    io_sha256_update(&t->sha, p, n);
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

/* ---- batches ---- */

stex_status io_batch_open(io_batch *b, const char *path, io_tmpfile **out)
{
    *out = NULL;
    if (b->n == IO_BATCH_MAX)
        return stex_fail(STEX_INVALID_ARGUMENT, "write: more than %d files at once", IO_BATCH_MAX);
    io_batch_item *it = &b->item[b->n];
    memset(it, 0, sizeof *it);
    stex_status st = io_tmp_open(&it->t, path);
    if (st)
        return st;
    b->n++;
    *out = &it->t;
    return STEX_OK;
}

stex_status io_batch_remove(io_batch *b, const char *path)
{
    if (b->n == IO_BATCH_MAX)
        return stex_fail(STEX_INVALID_ARGUMENT, "write: more than %d files at once", IO_BATCH_MAX);
    io_batch_item *it = &b->item[b->n];
    memset(it, 0, sizeof *it);
    it->t.final_path = dup_str(path);
    if (!it->t.final_path)
        return stex_fail(STEX_OUT_OF_MEMORY, "write '%s': out of memory", path);
    b->n++;
    return STEX_OK;
}

void io_batch_abort(io_batch *b)
{
    for (size_t i = 0; i < b->n; i++) {
        io_tmp_abort(&b->item[i].t);
        free(b->item[i].backup);
    }
    b->n = 0;
}

/* A hard link to the target's current content, so that it can be put back.
 * Returns false when there is nothing to keep (no target). */
static stex_status keep_old(io_batch_item *it)
{
    struct stat sb;
    const char *path = it->t.final_path;
    if (lstat(path, &sb) != 0)
        return errno == ENOENT ? STEX_OK
                               : stex_fail(STEX_IO_ERROR, "cannot write '%s': %s", path,
                                           strerror(errno));
    if (S_ISDIR(sb.st_mode))
        return stex_fail(STEX_IO_ERROR, "cannot write '%s': it is a directory", path);
    for (int tries = 0; tries < 100; tries++) {
        char *name = beside(path, "old.");
        if (!name)
            return stex_fail(STEX_OUT_OF_MEMORY, "write '%s': out of memory", path);
        int fd = mkstemp(name); /* a fresh name; link() needs it free again */
        if (fd >= 0) {
            close(fd);
            unlink(name);
            if (link(path, name) == 0) {
                it->backup = name;
                return STEX_OK;
            }
        }
        int e = errno;
        free(name);
        if (fd < 0 || e != EEXIST)
            return stex_fail(STEX_IO_ERROR, "cannot write '%s': cannot keep its old content "
                                            "while replacing it: %s", path, strerror(e));
    }
    return stex_fail(STEX_IO_ERROR, "cannot write '%s': no free name for its old content", path);
}

/* Puts items [0, n) back as they were, last first. */
static void roll_back(io_batch *b, size_t n)
{
    while (n--) {
        io_batch_item *it = &b->item[n];
        if (!it->done)
            continue;
        if (it->backup) {
            /* on success the old content is back; on failure its link stays
             * on disk (nothing is lost) */
            (void)rename(it->backup, it->t.final_path);
            free(it->backup);
            it->backup = NULL;
        } else if (it->t.tmp_path) /* the file did not exist: ours goes */
            remove(it->t.final_path);
        it->done = false;
    }
}

/* The folders a batch writes, each open and locked (flock, exclusive). */
typedef struct dir_locks {
    size_t n;
    int fd[IO_BATCH_MAX];
    dev_t dev[IO_BATCH_MAX];
    ino_t ino[IO_BATCH_MAX];
} dir_locks;

/* Opens the folder of `path` and adds it unless it is one already there
 * (the same folder under another name: flock on a second descriptor of it
 * would wait for ourselves). */
static void add_dir(dir_locks *l, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? malloc((size_t)(slash - path) + 2) : dup_str(".");
    if (!dir)
        return;
    if (slash)
        snprintf(dir, (size_t)(slash - path) + 2, "%.*s", (int)(slash - path + 1), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        if (fd >= 0)
            close(fd);
        return;
    }
    for (size_t i = 0; i < l->n; i++)
        if (l->dev[i] == sb.st_dev && l->ino[i] == sb.st_ino) {
            close(fd);
            return;
        }
    l->fd[l->n] = fd;
    l->dev[l->n] = sb.st_dev;
    l->ino[l->n++] = sb.st_ino;
}

/* Serialises commits: every folder the batch writes is locked, so that two
 * runs writing the same files - in any order, through any names of their
 * folders - leave one run's whole set, never a mix.  The folders are locked
 * in one order for everyone (device, inode), so two batches cannot each
 * hold a lock the other waits for.  A folder that cannot be opened or
 * locked is left unlocked (the commit goes on). */
static void lock_dirs(const io_batch *b, dir_locks *l)
{
    l->n = 0;
    for (size_t i = 0; i < b->n; i++)
        add_dir(l, b->item[i].t.final_path);
    for (size_t i = 1; i < l->n; i++) /* insertion sort: at most IO_BATCH_MAX */
        for (size_t k = i; k > 0 && (l->dev[k - 1] > l->dev[k] ||
                                     (l->dev[k - 1] == l->dev[k] && l->ino[k - 1] > l->ino[k]));
             k--) {
            int fd = l->fd[k];
            dev_t dev = l->dev[k];
            ino_t ino = l->ino[k];
            l->fd[k] = l->fd[k - 1], l->dev[k] = l->dev[k - 1], l->ino[k] = l->ino[k - 1];
            l->fd[k - 1] = fd, l->dev[k - 1] = dev, l->ino[k - 1] = ino;
        }
    for (size_t i = 0; i < l->n; i++)
        while (flock(l->fd[i], LOCK_EX) != 0 && errno == EINTR)
            ;
}

static void unlock_dirs(dir_locks *l)
{
    for (size_t i = l->n; i-- > 0;)
        close(l->fd[i]);
    l->n = 0;
}

stex_status io_batch_commit(io_batch *b)
{
    stex_status st = STEX_OK;
    for (size_t i = 0; i < b->n && !st; i++)
        if (b->item[i].t.f)
            st = io_tmp_close(&b->item[i].t);
    if (st) {
        io_batch_abort(b);
        return st;
    }
    dir_locks locks;
    lock_dirs(b, &locks);
    size_t i = 0;
    for (; i < b->n && !st; i++) {
        io_batch_item *it = &b->item[i];
        const char *path = it->t.final_path;
        if ((st = keep_old(it)))
            break;
        if (it->t.tmp_path ? rename(it->t.tmp_path, path) != 0
                           : it->backup && unlink(path) != 0) {
            st = stex_fail(STEX_IO_ERROR, "cannot write '%s': %s", path, strerror(errno));
            break;
        }
        it->done = true;
    }
    if (st)
        roll_back(b, i);
    for (i = 0; i < b->n; i++) {
        io_batch_item *it = &b->item[i];
        if (it->backup)
            unlink(it->backup);
        if (it->done) {
            free(it->t.tmp_path); /* renamed: nothing to remove */
            it->t.tmp_path = NULL;
        }
    }
    unlock_dirs(&locks);
    io_batch_abort(b);
    return st;
}

/* ---- reading ---- */

stex_status io_open_regular(const char *path, FILE **out)
{
    *out = NULL;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; the mode is
     * checked before any read. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return stex_fail(STEX_IO_ERROR, "cannot read '%s': %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return stex_fail(STEX_IO_ERROR, "cannot read '%s': not a regular file%s", path,
                         S_ISFIFO(sb.st_mode)   ? " (a FIFO)"
                         : S_ISDIR(sb.st_mode)  ? " (a directory)"
                         : S_ISCHR(sb.st_mode)  ? " (a device)"
                         : S_ISSOCK(sb.st_mode) ? " (a socket)"
                                                : "");
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    *out = fdopen(fd, "rb");
    if (!*out) {
        int e = errno;
        close(fd);
        return stex_fail(STEX_IO_ERROR, "cannot read '%s': %s", path, strerror(e));
    }
    return STEX_OK;
}

stex_status io_read_file(const char *path, uint8_t **data, size_t *size, size_t max)
{
    *data = NULL;
    *size = 0;
    FILE *f;
    stex_status st = io_open_regular(path, &f);
    if (st)
        return st;
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0) {
        fclose(f);
        return stex_fail(STEX_IO_ERROR, "cannot read '%s': %s", path, strerror(errno));
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
