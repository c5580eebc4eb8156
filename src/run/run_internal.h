/* Internal to the run layer: the parsed run file, its named resources, and
 * the helpers that read JSON members and name the JSON path in errors. */
#ifndef STEX_RUN_INTERNAL_H
#define STEX_RUN_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/kernels.h"
#include "stex/run.h"

/* A JSON path such as $.bindGroups.g.entries[1].resource. */
enum { RUN_PATH_MAX = 512 };

/* A name -> object table, in declaration order. */
typedef struct run_table {
    size_t n;
    const char **names;  /* point into the run's JSON */
    void **items;
} run_table;

/* A shader module: a built-in kernel's pass, or WGSL for the compiler. */
typedef struct run_module {
    const stex_kernel *kernel;  /* NULL: WGSL */
    uint32_t pass;
    char *code;                 /* WGSL (owned) */
    size_t code_len;            /* its bytes: a NUL inside is the compiler's to refuse */
    char *filename;             /* the .wgsl file, or the run file (owned) */
    struct stex_wgsl_module *wgsl; /* compiled on first use by stex's front end (owned) */
} run_module;

/* A pipeline from a WGSL module with stex's own front end (src/run/wgsl.c),
 * when stex_run_options names no other compiler. */
stex_status run_wgsl_pipeline(stex_run *r, run_module *m, const stex_run_shader *s,
                              const char *path, stex_pipeline **out);

/* One file of "outputs": a texture's mip level or a buffer's bytes as an image. */
typedef struct run_output {
    const char *texture, *buffer;
    uint32_t mip;
    stex_format format;         /* buffer: the texels' format */
    uint32_t size[3];           /* buffer: the image's extent */
    uint64_t offset;            /* buffer: first byte */
    char **files;               /* full paths (owned); {profile}, {seed} filled in by
                                 * stex_run_execute */
    const char **names;         /* as the run file gives them */
    size_t file_count;
    stex_inputs *allowed;       /* record_allowed, a texture: the last stores (owned) */
} run_output;

/* The files a run has read, with their SHA-256 (hex). */
typedef struct run_inputs {
    size_t n;
    char **path;
    char (*sha)[65];
} run_inputs;

struct stex_run {
    json_t *root;
    char *name;                 /* the file name in messages */
    char *base_dir;
    stex_run_options opt;
    char **allow;               /* opt.allow_paths, copied */
    size_t allow_count;
    uint32_t features;          /* "requiredFeatures" (STEX_FEATURE_*) */
    bool executed;
    stex_device *device;
    stex_dispatch_options dispatch; /* what stex_run_execute was given */
    uint64_t dispatches;
    uint64_t planned;           /* the dispatches the steps hold (progress) */
    uint64_t memory;            /* bytes its textures and buffers take */
    run_table modules, textures, buffers, samplers, views, pipelines, groups;
    run_output *outputs;
    size_t output_count;
    char **output_paths;        /* every file, flattened (pointers into outputs) */
    size_t output_path_count;
    run_inputs *inputs;         /* what it read (apart: run_read_file takes a const run) */
    char *record;               /* stex_run_set_record's JSON (owned), or NULL */
    stex_dispatch_options user_dispatch; /* the caller's store observer, when recording */
    const json_t **dispatch_steps; /* each dispatch's step (repeats too), for races */
    size_t dispatch_step_cap;
};

/* ---- what each dispatch bound (bound.c) ---- */

/* Notes that dispatch number r->dispatches runs `step` (its JSON). */
stex_status run_note_dispatch(stex_run *r, const json_t *step);

/* ---- errors and paths (path.c) ---- */

/* "<parent>.key", or <parent>["key"] when key is not an identifier. */
void run_path_key(char out[RUN_PATH_MAX], const char *parent, const char *key);
void run_path_index(char out[RUN_PATH_MAX], const char *parent, size_t i);
/* Records "<run name>: <path>: <message>" and returns st. */
stex_status run_fail(const stex_run *r, stex_status st, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Puts "<run name>: <path>: " before the current stex_last_error(); returns st. */
stex_status run_wrap(const stex_run *r, stex_status st, const char *path);
/* ---- the files it names (sandbox.c) ---- */

/* A file name of the run file made relative to its folder (malloc'ed). */
char *run_file_path(const stex_run *r, const char *name);
/* Refuses (STEX_IO_ERROR at `path`) a file `name`, joined to the folder as
 * `full`, that resolves outside the run file's folder and every allowed
 * one.  on_disk: the file is on disk whatever stex_run_options.read_file
 * says (an output, an image); otherwise a read_file hook reads it, and the
 * names are resolved without looking at the disk. */
stex_status run_check_path(const stex_run *r, const char *name, const char *full,
                           const char *path, bool on_disk);
/* run_file_path, then run_check_path: the checked name (malloc'ed). */
stex_status run_named_file(const stex_run *r, const char *name, const char *path, bool on_disk,
                           char **out);
/* Its bytes (malloc'ed): through stex_run_options.read_file when given,
 * else from disk (at most max bytes). */
stex_status run_read_file(const stex_run *r, const char *path, uint8_t **bytes, size_t *size,
                          size_t max);

/* Notes that the run read `path` (bytes: what it read); the first read of
 * a path counts. */
void run_note_input(const stex_run *r, const char *path, const uint8_t *bytes, size_t n);

/* ---- typed JSON members (json_get.c): each returns FILE_FORMAT_ERROR
 * naming the member's path when it has the wrong type or range ---- */

/* The members of obj (at path) must all be in the NULL-terminated list. */
stex_status run_check_members(const stex_run *r, const json_t *obj, const char *path,
                              const char *const *allowed);
stex_status run_want_object(const stex_run *r, const json_t *v, const char *path);
stex_status run_want_array(const stex_run *r, const json_t *v, const char *path);
/* Absent members keep *out (the default) unless `required`. */
stex_status run_get_u32(const stex_run *r, const json_t *obj, const char *path, const char *key,
                        bool required, uint32_t *out);
stex_status run_get_u64(const stex_run *r, const json_t *obj, const char *path, const char *key,
                        bool required, uint64_t *out);
stex_status run_get_number(const stex_run *r, const json_t *obj, const char *path,
                           const char *key, double *out);
stex_status run_get_bool(const stex_run *r, const json_t *obj, const char *path, const char *key,
                         bool *out);
stex_status run_get_string(const stex_run *r, const json_t *obj, const char *path,
                           const char *key, bool required, const char **out);
/* A string member, one of names (index = *out). */
stex_status run_get_enum(const stex_run *r, const json_t *obj, const char *path, const char *key,
                         const char *what, const char *const *names, int *out);
/* A format name (required). */
stex_status run_get_format(const stex_run *r, const json_t *obj, const char *path,
                           const char *key, bool required, stex_format *out);
/* [w, h, d] (1 to 3 numbers) or {width, height, depthOrArrayLayers}; missing = 1. */
stex_status run_get_extent(const stex_run *r, const json_t *obj, const char *path,
                           const char *key, bool required, uint32_t out[3]);
/* Flags: a number, or a list of names (names[i] has bit values[i]). */
stex_status run_get_flags(const stex_run *r, const json_t *obj, const char *path, const char *key,
                          const char *what, const char *const *names, const uint32_t *values,
                          uint32_t *out);

/* Counts `bytes` more of resource memory against stex_run_options.max_memory;
 * past it, STEX_OUT_OF_MEMORY at path (nothing counted). */
stex_status run_reserve_memory(stex_run *r, uint64_t bytes, const char *path, const char *what);

/* ---- tables (table.c) ---- */
stex_status run_table_add(run_table *t, const char *name, void *item);
void *run_table_find(const run_table *t, const char *name);
void run_table_free(run_table *t);
/* The object named by obj[key], which must be a string naming an entry of t
 * ("<what> '<name>' is not declared"). */
stex_status run_get_ref(const stex_run *r, const json_t *obj, const char *path, const char *key,
                        const run_table *t, const char *what, void **out);

/* ---- bytes from the run file (data.c) ---- */

/* {"file": raw bytes} | {"hex": "..."} | {"u32"|"i32"|"f32": [numbers]}:
 * the one data member of obj (path) as bytes (malloc'ed). */
stex_status run_data(const stex_run *r, const json_t *obj, const char *path, uint8_t **bytes,
                     size_t *size);
/* Whether obj holds one of the data members. */
bool run_has_data(const json_t *obj);

/* ---- creation, in declaration order (create_*.c) ---- */
stex_status run_create_modules(stex_run *r);
void run_free_modules(stex_run *r);
stex_status run_create_textures(stex_run *r);
stex_status run_create_buffers(stex_run *r);
stex_status run_create_samplers(stex_run *r);
stex_status run_create_views(stex_run *r);
stex_status run_create_pipelines(stex_run *r);
stex_status run_create_bind_groups(stex_run *r);
/* writeTexture of one contents object (texture_contents.c), shared with the
 * writeTexture step. */
/* texels.c: textures writeTexture cannot fill (multisampled, depth, stencil)
 * and their contents, set directly. */
/* One texel's bytes (texel: 16 bytes) from a JSON value: a depth (depth
 * formats), a stencil value (stencil8), or a colour of 1 to 4 numbers
 * encoded under the device's profile (texels.c). */
stex_status run_texel_of(stex_run *r, const stex_format_info *fi, const json_t *v,
                         const char *path, uint8_t *texel);
bool run_texture_direct(const stex_texture *t);
stex_status run_direct_contents(stex_run *r, stex_texture *t, uint32_t mip, const json_t *c,
                                const char *path);
stex_status run_texture_contents(stex_run *r, stex_texture *t, uint32_t mip, const json_t *c,
                                 const char *path);
/* The GPUBindGroupLayoutEntry list of one group (layout_entries.c). */
stex_status run_layout_entries(const stex_run *r, const json_t *list, const char *path,
                               uint32_t group, stex_layout_entry **entries, uint32_t *count);

/* ---- the steps and the outputs ---- */
stex_status run_steps(stex_run *r);
stex_status run_parse_outputs(stex_run *r);
void run_free_outputs(stex_run *r);
/* At stex_run_execute: fills {profile} and {seed} into the output names
 * and, with record_allowed, starts recording the output textures' stores. */
stex_status run_prepare_outputs(stex_run *r);

/* ---- allowed goldens (allowed_bounds.c) ---- */
/* The bounds of output o (its image img, as written) from the sets of the
 * run's stex_run_options.allowed; path names it in errors. */
stex_status run_output_bounds(stex_run *r, const run_output *o, const char *path,
                              const stex_image *img, stex_bounds *out);

#endif
