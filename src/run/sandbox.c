/* Which files a run file may name: only files inside its own folder, unless
 * the user allows other folders (stex_run_options.allow_paths, the CLI's
 * --allow-paths DIR).  A run file comes from elsewhere (a bug report,
 * another repository), so its names must not reach the user's other files:
 * not by an absolute path, not by '..', not through a symbolic link.  The
 * rule is checked on real paths (every link resolved), for the files read
 * and for the files written; a file or folder that does not exist yet
 * resolves through its nearest existing ancestor. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "run/run_internal.h"

/* Appends the components of `rest` to the absolute path `p` (capacity
 * PATH_MAX), '.' skipped and '..' dropping the last one. */
static bool append_lexical(char *p, const char *rest)
{
    while (*rest) {
        size_t n = strcspn(rest, "/");
        if (n == 2 && !strncmp(rest, "..", 2)) {
            char *slash = strrchr(p, '/');
            if (slash)
                slash[slash == p] = '\0'; /* "/a" -> "/", "/a/b" -> "/a" */
        } else if (n && !(n == 1 && *rest == '.')) {
            size_t len = strlen(p);
            if (len + 1 + n >= PATH_MAX)
                return false;
            snprintf(p + len, PATH_MAX - len, "%s%.*s", len && p[len - 1] == '/' ? "" : "/",
                     (int)n, rest);
        }
        rest += n + (rest[n] == '/');
    }
    return true;
}

/* The real path of `path` (absolute, every symbolic link resolved) into
 * out[PATH_MAX].  Where it does not exist (yet), the real path of its
 * nearest existing ancestor with the missing components appended: those
 * cannot be links.  With `lexical`, no link is resolved (the files are not
 * on disk: a read_file hook). */
static bool real_of(const char *path, bool lexical, char out[PATH_MAX])
{
    char abs[PATH_MAX], cwd[PATH_MAX];
    if (path[0] == '/')
        snprintf(abs, sizeof abs, "%s", path);
    else if (!getcwd(cwd, sizeof cwd) ||
             snprintf(abs, sizeof abs, "%s/%s", cwd, path) >= (int)sizeof abs)
        return false;
    if (lexical) {
        snprintf(out, PATH_MAX, "/");
        return append_lexical(out, abs);
    }
    /* abs[0, cut) is the prefix tried; the rest is appended afterwards */
    size_t cut = strlen(abs);
    for (;;) {
        char prefix[PATH_MAX];
        snprintf(prefix, sizeof prefix, "%.*s", (int)cut, abs);
        if (realpath(cut ? prefix : "/", out))
            return append_lexical(out, abs + cut);
        if (errno != ENOENT && errno != ENOTDIR)
            return false;
        while (cut > 0 && abs[cut - 1] == '/')
            cut--;
        while (cut > 0 && abs[cut - 1] != '/')
            cut--;
        if (cut == 0)
            return false;
    }
}

/* Whether real path p lies in folder root (or is it). */
static bool inside(const char *p, const char *root)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/')
        return true;
    return !strncmp(p, root, n) && (p[n] == '\0' || p[n] == '/');
}

/* Whether the name's '..' components climb above its start. */
static bool climbs_out(const char *name)
{
    long depth = 0;
    while (*name) {
        size_t n = strcspn(name, "/");
        if (n == 2 && !strncmp(name, "..", 2))
            depth--;
        else if (n && !(n == 1 && *name == '.'))
            depth++;
        if (depth < 0)
            return true;
        name += n + (name[n] == '/');
    }
    return false;
}

stex_status run_check_path(const stex_run *r, const char *name, const char *full,
                           const char *path, bool on_disk)
{
    if (!*name)
        return run_fail(r, STEX_FILE_FORMAT_ERROR, path, "an empty file name");
    bool lexical = r->opt.read_file && !on_disk;
    char real[PATH_MAX], root[PATH_MAX];
    if (!real_of(full, lexical, real))
        return run_fail(r, STEX_IO_ERROR, path, "cannot resolve '%s': %s", name,
                        errno ? strerror(errno) : "path too long");
    if (real_of(*r->base_dir ? r->base_dir : ".", lexical, root) && inside(real, root))
        return STEX_OK;
    for (size_t i = 0; i < r->allow_count; i++) {
        char allowed[PATH_MAX];
        if (real_of(r->allow[i], lexical, allowed) && inside(real, allowed))
            return STEX_OK;
    }
    const char *why = name[0] == '/' ? "is an absolute path"
                      : climbs_out(name) ? "leads out of it through '..'"
                                         : "leads out of it through a symbolic link";
    return run_fail(r, STEX_IO_ERROR, path, "file '%s' is outside the run file's folder (%s): "
                    "it %s; a run file may name only files inside its own folder, unless "
                    "another folder is allowed (--allow-paths DIR, "
                    "stex_run_options.allow_paths)", name, *r->base_dir ? r->base_dir : ".", why);
}

char *run_file_path(const stex_run *r, const char *name)
{
    const char *dir = name[0] == '/' ? "" : r->base_dir;
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", dir, *dir ? "/" : "", name);
    return p;
}

stex_status run_named_file(const stex_run *r, const char *name, const char *path, bool on_disk,
                           char **out)
{
    if (!(*out = run_file_path(r, name)))
        return run_fail(r, STEX_OUT_OF_MEMORY, path, "out of memory");
    stex_status st = run_check_path(r, name, *out, path, on_disk);
    if (st) {
        free(*out);
        *out = NULL;
    }
    return st;
}
