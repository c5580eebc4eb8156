/* "shaderModules": WGSL ({"code": ...} or {"file": "x.wgsl"}) for the
 * compiler the caller plugs in, or {"kernel": "decaer", "pass": 0}: a
 * built-in lesson kernel's C pipeline (stex/kernels.h). */
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"
#include "run/run_internal.h"
#include "stex/wgsl.h"

#define BAD STEX_FILE_FORMAT_ERROR

static stex_status kernel_module(stex_run *r, const json_t *d, const char *path, run_module *m)
{
    const char *name;
    stex_status st;
    if ((st = run_get_string(r, d, path, "kernel", true, &name)) ||
        (st = run_get_u32(r, d, path, "pass", false, &m->pass)))
        return st;
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "kernel");
    if (!(m->kernel = stex_kernel_find(name)))
        return run_fail(r, BAD, p, "no built-in kernel '%s' (`stex run --list` lists them)", name);
    run_path_key(p, path, "pass");
    if (m->pass >= m->kernel->pass_count)
        return run_fail(r, BAD, p, "kernel %s has %u pass%s (0 to %u), not %u", name,
                        m->kernel->pass_count, m->kernel->pass_count == 1 ? "" : "es",
                        m->kernel->pass_count - 1, m->pass);
    return STEX_OK;
}

static stex_status wgsl_module(stex_run *r, const json_t *d, const char *path, run_module *m)
{
    const char *code = NULL, *file = NULL;
    stex_status st;
    if ((st = run_get_string(r, d, path, "code", false, &code)) ||
        (st = run_get_string(r, d, path, "file", false, &file)))
        return st;
    if (!!code == !!file)
        return run_fail(r, BAD, path, "give the WGSL as 'code' or 'file' (one of them), or a "
                                      "built-in 'kernel'");
    if (code) {
        m->code = strdup(code); /* jansson refuses a \u0000 inside a string */
        m->code_len = strlen(code);
        m->filename = strdup(r->name);
        return m->code && m->filename ? STEX_OK : run_fail(r, STEX_OUT_OF_MEMORY, path, "out of memory");
    }
    char p[RUN_PATH_MAX];
    run_path_key(p, path, "file");
    if ((st = run_named_file(r, file, p, false, &m->filename)))
        return st;
    uint8_t *bytes;
    size_t n;
    if ((st = run_read_file(r, m->filename, &bytes, &n, 16u << 20)))
        return run_wrap(r, st, p);
    if (!(m->code = malloc(n + 1))) {
        free(bytes);
        return run_fail(r, STEX_OUT_OF_MEMORY, p, "out of memory");
    }
    memcpy(m->code, bytes, n);
    m->code[n] = '\0';
    m->code_len = n;
    free(bytes);
    return STEX_OK;
}

static void module_free(run_module *m)
{
    if (m) {
        stex_wgsl_module_destroy(m->wgsl);
        free(m->code);
        free(m->filename);
        free(m);
    }
}

stex_status run_create_modules(stex_run *r)
{
    static const char *const members[] = {"code", "file", "kernel", "pass", "label", NULL};
    const char *name;
    json_t *d;
    json_object_foreach(json_object_get(r->root, "shaderModules"), name, d) {
        char p[RUN_PATH_MAX];
        run_path_key(p, "$.shaderModules", name);
        run_module *m = calloc(1, sizeof *m);
        stex_status st = m ? STEX_OK : run_fail(r, STEX_OUT_OF_MEMORY, p, "out of memory");
        if (!st && !(st = run_want_object(r, d, p)) && !(st = run_check_members(r, d, p, members)))
            st = json_object_get(d, "kernel") ? kernel_module(r, d, p, m) : wgsl_module(r, d, p, m);
        if (!st)
            st = run_table_add(&r->modules, name, m);
        if (st) {
            module_free(m);
            return st;
        }
    }
    return STEX_OK;
}

void run_free_modules(stex_run *r)
{
    for (size_t i = 0; i < r->modules.n; i++)
        module_free(r->modules.items[i]);
    run_table_free(&r->modules);
}
