/* `stex run FILE.wgsl`: the one-texture case without a run file.  The
 * shader's only binding must be a 2d storage texture; stex makes it (--size,
 * 64x64 by default), dispatches enough workgroups to cover it, and writes it
 * to the --out files - by building the run file that says so and running it
 * as `stex run FILE.json` would (docs/run-files.md). */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_kernel.h"
#include "cli/cmd_run_file.h"
#include "common/error.h"
#include "io/io_internal.h"

bool cli_is_wgsl_file(const char *arg)
{
    size_t n = arg ? strlen(arg) : 0;
    return n > 5 && !strcmp(arg + n - 5, ".wgsl");
}

/* The entry point and its one storage texture, or a usage message. */
static int one_texture(const char *path, const stex_wgsl_module *m,
                       const stex_wgsl_entry_point **ep)
{
    if (stex_wgsl_module_error_count(m)) {
        fputs(stex_wgsl_module_diagnostics(m), stderr);
        return CLI_REFUSED;
    }
    if (stex_wgsl_entry_point_count(m) != 1)
        return cli_usage("run", "%s has %u compute entry points; with more than one, describe "
                                "the run in a run file (docs/run-files.md)", path,
                         stex_wgsl_entry_point_count(m));
    *ep = stex_wgsl_entry_point_at(m, 0);
    const stex_wgsl_entry_point *e = *ep;
    if (e->entry_count != 1 || e->entries[0].type != STEX_BINDING_STORAGE_TEXTURE ||
        e->entries[0].storage_texture.view_dimension != STEX_VIEW_DIMENSION_2D ||
        e->entries[0].storage_texture.access == STEX_ACCESS_READ_ONLY)
        return cli_usage("run", "%s: `stex run FILE.wgsl` takes a shader whose one binding is a "
                                "writable texture_storage_2d (this one has %u); describe other "
                                "setups in a run file (docs/run-files.md)", path, e->entry_count);
    return CLI_OK;
}

/* The run file for it, as JSON text (malloc'ed), NULL when out of memory;
 * wg: the workgroup size with the constants applied. */
static char *run_json(const char *path, const stex_wgsl_entry_point *e, const uint32_t size[2],
                      const uint32_t wg[3], uint32_t iterations, const char *const *outs,
                      int nout, const stex_wgsl_override *constants, uint32_t nconstants)
{
    const stex_layout_entry *t = &e->entries[0];
    json_t *files = json_array(), *groups = json_array();
    for (int i = 0; i < nout; i++)
        json_array_append_new(files, json_string(outs[i]));
    for (uint32_t g = 0; g < t->group; g++)
        json_array_append_new(groups, json_null());
    json_array_append_new(groups, json_string("g"));
    json_t *consts = json_object();
    for (uint32_t i = 0; i < nconstants; i++)
        json_object_set_new(consts, constants[i].name, json_real(constants[i].value));
    uint32_t gx = (size[0] + wg[0] - 1) / wg[0];
    uint32_t gy = (size[1] + wg[1] - 1) / wg[1];
    json_t *root = json_pack(
        "{s:{s:{s:s}}, s:{s:{s:[i,i], s:s, s:[s,s,s]}}, s:{s:{s:s}},"
        " s:{s:{s:s, s:{s:s, s:s, s:o}}}, s:{s:{s:{s:s, s:i}, s:[{s:i, s:s}]}},"
        " s:[{s:{s:s, s:o, s:[i,i,i], s:i}}], s:[{s:s, s:o}]}",
        "shaderModules", "m", "file", path,
        "textures", "t", "size", (json_int_t)size[0], (json_int_t)size[1], "format",
        stex_format_name(t->storage_texture.format), "usage", "STORAGE_BINDING", "COPY_SRC",
        "COPY_DST",
        "views", "v", "texture", "t",
        "pipelines", "p", "layout", "auto", "compute", "module", "m", "entryPoint", e->name,
        "constants", consts,
        "bindGroups", "g", "layout", "pipeline", "p", "group", (json_int_t)t->group, "entries",
        "binding", (json_int_t)t->binding, "resource", "v",
        "steps", "dispatchWorkgroups", "pipeline", "p", "bindGroups", groups, "workgroupCount",
        (json_int_t)gx, (json_int_t)gy, (json_int_t)1, "repeat",
        (json_int_t)(iterations ? iterations : 1),
        "outputs", "texture", "t", "files", files);
    char *text = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    return text;
}

int cli_wgsl_run_json(const char *cmd, const char *path, const uint32_t size[3],
                      uint32_t iterations, const char *const *outs, int nout,
                      const stex_wgsl_override *constants, uint32_t nconstants, char **json)
{
    *json = NULL;
    uint8_t *src;
    size_t n;
    stex_status st = io_read_file(path, &src, &n, 16u << 20);
    if (st)
        return cli_fail(cmd, st);
    stex_wgsl_module *m = NULL; /* with its length: a NUL inside is refused, not an end */
    st = stex_wgsl_module_create_n(NULL, (const char *)src, n, path, &m);
    free(src);
    const stex_wgsl_entry_point *ep = NULL;
    int rc = m ? one_texture(path, m, &ep) : CLI_OK;
    if (!m || rc) {
        stex_wgsl_module_destroy(m);
        return m ? rc : cli_fail(cmd, st);
    }
    /* the constants by the keys pipelines take: a name of an override with
     * an @id becomes that @id */
    if (nconstants > 16) {
        stex_wgsl_module_destroy(m);
        return cli_usage(cmd, "--constant: at most 16 constants (%u given)", nconstants);
    }
    stex_wgsl_override keyed[16];
    char ids[16][24];
    for (uint32_t i = 0; i < nconstants && i < 16; i++) {
        keyed[i] = constants[i];
        for (uint32_t k = 0; k < stex_wgsl_override_count(m); k++) {
            const stex_wgsl_override_info *info = stex_wgsl_override_at(m, k);
            if (info->id >= 0 && !strcmp(info->name, constants[i].name)) {
                snprintf(ids[i], sizeof ids[i], "%" PRId64, info->id);
                keyed[i].name = ids[i];
            }
        }
    }
    uint32_t wg[3];
    stex_wgsl_options wo = {.overrides = keyed, .override_count = nconstants};
    st = stex_wgsl_workgroup_size(m, NULL, &wo, wg);
    if (st) {
        stex_wgsl_module_destroy(m);
        if (st != STEX_VALIDATION_ERROR)
            return cli_fail(cmd, st);
        const char *e = stex_last_error();
        fprintf(stderr, "stex %s: %s: %s%s\n", cmd, path,
                strncmp(e, "createComputePipeline:", 22) ? "createComputePipeline: " : "", e);
        return CLI_REFUSED;
    }
    const uint32_t wh[2] = {size[0] ? size[0] : 64, size[0] ? size[1] : 64};
    *json = run_json(path, ep, wh, wg, iterations, outs, nout, keyed, nconstants);
    stex_wgsl_module_destroy(m);
    if (!*json)
        return cli_fail(cmd, stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", path));
    return CLI_OK;
}

int cli_run_wgsl(const char *path, const uint32_t size[3], uint32_t iterations,
                 const char *const *outs, int nout, const stex_wgsl_override *constants,
                 uint32_t nconstants, const cli_run_file_opts *o)
{
    char *json;
    int rc = cli_wgsl_run_json("run", path, size, iterations, outs, nout, constants,
                               nconstants, &json);
    if (rc)
        return rc;
    stex_run *r = NULL;
    /* its files are the command line's (the .wgsl, the --out files): any */
    stex_run_options ro = {.subgroup_width = o->subgroup, .max_steps = o->max_steps,
                           .allow_paths = cli_allow_any_path.dir, .allow_path_count = 1};
    stex_status st = stex_run_parse(json, path, ".", &ro, &r);
    free(json);
    return st ? cli_fail("run", st) : cli_run_loaded(path, r, o);
}
