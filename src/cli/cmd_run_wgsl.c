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

/* Whether binding e is a writable texture_storage_2d: the output. */
static bool is_output(const stex_layout_entry *e)
{
    return e->type == STEX_BINDING_STORAGE_TEXTURE &&
           e->storage_texture.view_dimension == STEX_VIEW_DIMENSION_2D &&
           e->storage_texture.access != STEX_ACCESS_READ_ONLY;
}

/* Whether binding e can take --in's image: a texture_2d (not
 * multisampled, not depth) or a read-only texture_storage_2d. */
static bool is_input(const stex_layout_entry *e)
{
    if (e->type == STEX_BINDING_TEXTURE)
        return !e->texture_multisampled && e->texture_sample_type != STEX_SAMPLE_TYPE_DEPTH &&
               (e->texture_view_dimension == STEX_VIEW_DIMENSION_UNDEFINED ||
                e->texture_view_dimension == STEX_VIEW_DIMENSION_2D);
    return e->type == STEX_BINDING_STORAGE_TEXTURE &&
           e->storage_texture.view_dimension == STEX_VIEW_DIMENSION_2D &&
           e->storage_texture.access == STEX_ACCESS_READ_ONLY;
}

/* The entry point, its output texture (*out) and the binding --in fills
 * (*inb: -1 when the input is the output's initial contents, or none); or
 * a usage message. */
static int find_bindings(const char *path, const char *in, const stex_wgsl_module *m,
                         const stex_wgsl_entry_point **ep, int *out, int *inb)
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
    *out = *inb = -1;
    if (e->entry_count == 1 && is_output(&e->entries[0])) {
        *out = 0;
        if (in && e->entries[0].storage_texture.access == STEX_ACCESS_WRITE_ONLY)
            return cli_usage("run", "--in: %s's one texture is write-only, so the input would "
                                    "never be read; make it read_write, or read the input "
                                    "through a second binding (a texture_2d)", path);
        return CLI_OK;
    }
    if (e->entry_count == 2 && e->entries[0].group == e->entries[1].group)
        for (int i = 0; i < 2; i++)
            if (is_output(&e->entries[i]) && is_input(&e->entries[1 - i]))
                *out = i, *inb = 1 - i;
    if (*out >= 0 && !in)
        return cli_usage("run", "%s reads a second texture (binding %u): give its image with "
                                "--in FILE (.png or .npy)", path, e->entries[*inb].binding);
    if (*out >= 0)
        return CLI_OK;
    return cli_usage("run", "%s: `stex run FILE.wgsl` takes a shader whose one binding is a "
                            "writable texture_storage_2d, or that and a texture_2d (or a "
                            "read-only storage texture) the --in image fills, in one group "
                            "(this one has %u bindings); describe other setups in a run file "
                            "(docs/run-files.md)", path, e->entry_count);
}

/* The run file for it, as JSON text (malloc'ed), NULL when out of memory;
 * wg: the workgroup size with the constants applied; in: the input image
 * (NULL: none) whose format the input texture takes (fmt). */
static char *run_json(const char *path, const stex_wgsl_entry_point *e, int out, int inb,
                      const char *in, stex_format in_format, const uint32_t size[2],
                      const uint32_t wg[3], uint32_t iterations, const char *const *outs,
                      int nout, const stex_wgsl_override *constants, uint32_t nconstants)
{
    const stex_layout_entry *t = &e->entries[out];
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
    if (root && in && inb < 0) /* the output's initial texels */
        json_object_set_new(json_object_get(json_object_get(root, "textures"), "t"), "contents",
                            json_pack("{s:s}", "file", in));
    if (root && in && inb >= 0) { /* a texture of its own, bound beside the output */
        const stex_layout_entry *ie = &e->entries[inb];
        stex_format f = ie->type == STEX_BINDING_STORAGE_TEXTURE ? ie->storage_texture.format
                                                                 : in_format;
        json_object_set_new(json_object_get(root, "textures"), "in",
                            json_pack("{s:[i,i], s:s, s:[s,s], s:{s:s}}", "size",
                                      (json_int_t)size[0], (json_int_t)size[1], "format",
                                      stex_format_name(f), "usage",
                                      ie->type == STEX_BINDING_TEXTURE ? "TEXTURE_BINDING"
                                                                       : "STORAGE_BINDING",
                                      "COPY_DST", "contents", "file", in));
        json_object_set_new(json_object_get(root, "views"), "vin",
                            json_pack("{s:s}", "texture", "in"));
        json_array_append_new(
            json_object_get(json_object_get(json_object_get(root, "bindGroups"), "g"), "entries"),
            json_pack("{s:i, s:s}", "binding", (json_int_t)ie->binding, "resource", "vin"));
    }
    char *text = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    return text;
}

/* The size and format of --in's image, or a message. */
static int input_image(const char *cmd, const char *in, uint32_t size[2], stex_format *f)
{
    stex_image img = {0};
    stex_file_kind kind = stex_file_kind_of(in);
    if (kind != STEX_FILE_PNG && kind != STEX_FILE_NPY)
        return cli_usage(cmd, "--in: '%s' must be a .png or .npy image (a run file's texture "
                              "contents)", in);
    stex_status st = kind == STEX_FILE_PNG ? stex_read_png(in, &img)
                                           : stex_read_npy(in, STEX_FORMAT_UNDEFINED, &img);
    if (st)
        return cli_fail(cmd, st);
    size[0] = img.width;
    size[1] = img.height;
    *f = img.format;
    bool flat = img.depth == 1;
    stex_image_free(&img);
    return flat ? CLI_OK : cli_usage(cmd, "--in: '%s' holds %u layers; the texture is 2d", in,
                                     img.depth);
}

int cli_wgsl_run_json(const char *cmd, const char *path, const uint32_t size[3],
                      uint32_t iterations, const char *const *outs, int nout,
                      const stex_wgsl_override *constants, uint32_t nconstants, char **json)
{
    return cli_wgsl_run_json_in(cmd, path, NULL, size, iterations, outs, nout, constants,
                                nconstants, json);
}

int cli_wgsl_run_json_in(const char *cmd, const char *path, const char *in,
                         const uint32_t size[3], uint32_t iterations, const char *const *outs,
                         int nout, const stex_wgsl_override *constants, uint32_t nconstants,
                         char **json)
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
    int out = -1, inb = -1;
    int rc = m ? find_bindings(path, in, m, &ep, &out, &inb) : CLI_OK;
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
    uint32_t wh[2] = {size[0] ? size[0] : 64, size[0] ? size[1] : 64};
    stex_format in_format = STEX_FORMAT_UNDEFINED;
    uint32_t in_size[2] = {0, 0};
    if (in && (rc = input_image(cmd, in, in_size, &in_format))) {
        stex_wgsl_module_destroy(m);
        return rc;
    }
    if (in && size[0] && (size[0] != in_size[0] || size[1] != in_size[1])) {
        stex_wgsl_module_destroy(m);
        return cli_usage(cmd, "--size %ux%u: the --in image '%s' is %ux%u (without --size the "
                              "texture takes the input's size)", size[0], size[1], in,
                         in_size[0], in_size[1]);
    }
    if (in)
        wh[0] = in_size[0], wh[1] = in_size[1];
    *json = run_json(path, ep, out, inb, in, in_format, wh, wg, iterations, outs, nout, keyed,
                     nconstants);
    stex_wgsl_module_destroy(m);
    if (!*json)
        return cli_fail(cmd, stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", path));
    return CLI_OK;
}

int cli_run_wgsl(const char *path, const char *in, const uint32_t size[3], uint32_t iterations,
                 const char *const *outs, int nout, const stex_wgsl_override *constants,
                 uint32_t nconstants, const cli_run_file_opts *o)
{
    char *json;
    int rc = cli_wgsl_run_json_in("run", path, in, size, iterations, outs, nout, constants,
                                  nconstants, &json);
    if (rc)
        return rc;
    stex_run *r = NULL;
    /* its files are the command line's (the .wgsl, --in, the --out files): any */
    cli_run_file_opts any = *o;
    any.allow = &cli_allow_any_path;
    stex_run_options ro = cli_run_file_options(&any);
    stex_status st = stex_run_parse(json, path, ".", &ro, &r);
    free(json);
    if (st)
        return cli_fail("run", st);
    /* the record: the command line that makes the same run file again */
    json_t *consts = json_object();
    for (uint32_t i = 0; i < nconstants; i++)
        json_object_set_new(consts, constants[i].name, json_real(constants[i].value));
    json_t *record = json_pack("{s:s, s:[i,i], s:i, s:o, s:s?}", "wgsl_file", path, "size",
                               (json_int_t)size[0], (json_int_t)size[1], "iterations",
                               (json_int_t)(iterations ? iterations : 1), "constants", consts,
                               "in", in);
    if (record && !in)
        json_object_set_new(record, "in", json_null());
    return cli_run_recorded(path, r, o, record);
}
