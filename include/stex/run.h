/*
 * stex/run.h - run files: a WebGPU program described in JSON, executed.
 *
 * A run file names what a WebGPU program creates (shader modules, textures,
 * buffers, samplers, views, compute pipelines, bind groups) with WebGPU's
 * own descriptor members and string enums, the commands it submits in
 * order (dispatchWorkgroups, writeBuffer, writeTexture, the copies,
 * clearBuffer), and which resources to write to files afterwards.
 * docs/run-files.md gives the schema.
 *
 *     stex_run *r;
 *     if (stex_run_load("decaer.json", NULL, &r)) puts(stex_last_error());
 *     stex_run_execute(r, dev, &(stex_dispatch_options){.schedule = STEX_SCHEDULE_SHUFFLED});
 *     stex_run_write_outputs(r);               // every output, or none
 *     stex_texture *t = stex_run_texture(r, "campo");
 *     stex_run_destroy(r);
 *
 * WGSL modules are compiled by stex's own front end (stex/wgsl.h) unless
 * the caller fills stex_run_options.compile with a compiler of its own; a
 * module {"kernel": "decaer", "pass": 0} takes the C pipeline of a built-in
 * lesson kernel (stex/kernels.h) instead.
 *
 * The files a run file names (modules, contents, data, outputs) must lie
 * inside its own folder unless stex_run_options.allow_paths allows another
 * folder (docs/run-files.md, "Files and security").
 *
 * Failure: every message starts with the run file's name and the JSON path
 * of the offending entry ("run.json: $.steps[2].dispatchWorkgroups.pipeline:
 * pipeline 'p' is not declared").  A file that cannot be read is
 * STEX_IO_ERROR; a run file that breaks the schema (malformed JSON, a wrong
 * type, an unknown name or member) STEX_FILE_FORMAT_ERROR; WGSL the front
 * end refuses STEX_SHADER_ERROR with its file:line:col; what the device
 * refuses keeps the device's status (STEX_VALIDATION_ERROR,
 * STEX_TYPE_ERROR, STEX_SHADER_ERROR) and its message after the path.
 */
#ifndef STEX_RUN_H
#define STEX_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/dispatch.h"
#include "stex/io.h"
#include "stex/resource.h"
#include "stex/status.h"
#include "stex/wgsl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stex_run stex_run;

/* One pipeline-overridable constant (GPUProgrammableStage.constants). */
typedef struct stex_run_constant {
    const char *name;   /* the override's name, or its @id as decimal text */
    double value;
} stex_run_constant;

/* What a compiler gets to make one compute pipeline from WGSL. */
typedef struct stex_run_shader {
    const char *code;                    /* the module's WGSL text */
    const char *filename;                /* its .wgsl file, or the run file for inline code */
    const char *entry_point;             /* NULL: the module's only @compute function */
    const stex_run_constant *constants;  /* constant_count of them */
    size_t constant_count;
    /* layout: "auto" (layout_auto, no entries) or the explicit bind group
     * layouts' entries, each with its .group set. */
    bool layout_auto;
    const stex_layout_entry *layout;
    uint32_t layout_count;
    const char *label;                   /* the pipeline's name in the run file */
} stex_run_shader;

/* Compiles s into a pipeline on d.  On failure it returns the status and
 * leaves the reason in stex_last_error() (the run layer puts the JSON path
 * before it); *out is then NULL. */
typedef stex_status (*stex_run_compile_fn)(void *user, stex_device *d, const stex_run_shader *s,
                                           stex_pipeline **out);

/* Reads a file the run file names (a module's "file", raw "contents" or
 * "data" {"file": ...}): `path` is the name joined to the run file's
 * folder; *bytes is malloc'ed.  On failure it returns the status with the
 * reason in stex_last_error(). */
typedef stex_status (*stex_run_read_fn)(void *user, const char *path, uint8_t **bytes,
                                        size_t *size);
/* Called before and after each step of "steps" (index `step`) runs; a
 * status other than STEX_OK stops the run with it. */
typedef stex_status (*stex_run_step_fn)(void *user, stex_run *r, size_t step);

typedef struct stex_run_options {
    stex_run_compile_fn compile; /* NULL: stex's own WGSL front end */
    void *compile_user;          /* compile's first argument */
    /* NULL: files are read from disk.  A program that keeps a run file's
     * files elsewhere (stex's built-in kernels: in the binary) reads them. */
    stex_run_read_fn read_file;
    void *read_file_user;
    stex_run_step_fn before_step, after_step; /* NULL: none */
    void *step_user;             /* their first argument */
    /* WGSL modules on stex's front end: lanes the interpreter runs in lock
     * step (1..64; 0 = 64, STEX_WGSL_SUBGROUP_WIDTH_DEFAULT) and the
     * instructions a sub-group may run in one workgroup (0 = 2^32), as in
     * stex_wgsl_options. */
    uint32_t subgroup_width;
    uint64_t max_steps;
    /* Which executor runs the WGSL pipelines (stex_wgsl_options.executor;
     * 0: the interpreter). */
    stex_wgsl_executor executor;
    /* Folders besides the run file's own whose files it may name (copied;
     * "/" allows every file).  A run file names only files inside its own
     * folder: an absolute path, a '..' or a symbolic link leading out of it
     * is refused (STEX_IO_ERROR naming the member) - for the files it reads
     * and the files it writes.  With read_file, the names it reads are
     * checked as text (the hook decides what they mean). */
    const char *const *allow_paths;
    size_t allow_path_count;
    /* The bytes its textures and buffers may take together (0 = 4 GiB): a
     * resource past it is refused as out of memory (GPUOutOfMemoryError)
     * before anything is allocated. */
    uint64_t max_memory;
    /* The folder the output files' relative names start from instead of
     * the run file's own (NULL: its own); the outputs may lie there. */
    const char *output_dir;
    /* Beside each .bin of a texture output, X.bin.inputs: the value last
     * stored to each texel, for an "allowed" comparison (stex_compare with
     * STEX_TOLERANCE_ALLOWED).  The dispatches then run on one thread, so
     * that the last store recorded is the one the texel holds. */
    bool record_allowed;
    /* .png outputs: each texel drawn as png_scale x png_scale pixels (0, 1:
     * one pixel); .bin and .npy keep the texels as they are. */
    uint32_t png_scale;
    /* Called after every dispatch (each repeat counts) with the dispatches
     * done and the number the steps hold in all; NULL: none. */
    void (*progress)(void *user, uint64_t done, uint64_t total);
    void *progress_user;
    /* List every file the run reads with its SHA-256 (stex_run_input_*),
     * for a golden's record: it hashes every byte read, so only when asked. */
    bool record_inputs;
    /* Allowed mode (stex/wgsl.h, docs/intervals.md): NULL, or the shadows
     * (caller-owned, outliving the run's dispatches) in which every WGSL
     * pipeline keeps the set of values a conformant device may hold; read
     * them with stex_allowed_texture / stex_allowed_buffer.  The run is
     * refused (STEX_INVALID_ARGUMENT at the entry) where sets would be
     * lost: a built-in kernel's C module, a compile hook of the caller's,
     * a copy, write or clear step on a texture or buffer holding sets. */
    struct stex_allowed *allowed;
} stex_run_options;

/* Reads and parses the run file at path; relative file names inside it are
 * relative to its folder.  opt may be NULL.  *out is NULL on failure. */
STEX_API stex_status stex_run_load(const char *path, const stex_run_options *opt, stex_run **out);
/* The same from JSON text: `name` is what messages call it ("run.json"),
 * base_dir the folder relative file names start from (NULL = "."). */
STEX_API stex_status stex_run_parse(const char *json_text, const char *name, const char *base_dir,
                                    const stex_run_options *opt, stex_run **out);
STEX_API void stex_run_destroy(stex_run *r);

/* The features the run file's "requiredFeatures" names (STEX_FEATURE_*). */
STEX_API uint32_t stex_run_required_features(const stex_run *r);
/* requestDevice: a device of adapter a with the run file's requiredFeatures;
 * a feature the adapter does not offer is refused at "$.requiredFeatures". */
STEX_API stex_status stex_run_request_device(const stex_run *r, stex_adapter *a,
                                             stex_device **out);

/* Creates every resource on d (which must outlive r), writes the initial
 * contents, then submits the steps in order, each dispatch with opt (NULL =
 * in order, all threads).  Runs once: a second call is refused. */
STEX_API stex_status stex_run_execute(stex_run *r, stex_device *d, const stex_dispatch_options *opt);

/* Writes every entry of "outputs" after stex_run_execute: all the files, or
 * (if one cannot be written) none, each target left as it was. */
STEX_API stex_status stex_run_write_outputs(stex_run *r);
/* The output files in the order they are written (sidecars not included).
 * An output's name may hold {profile} and {seed}: after stex_run_execute
 * they are the profile's name and the seed of the options it ran with. */
STEX_API size_t stex_run_output_count(const stex_run *r);
STEX_API const char *stex_run_output_path(const stex_run *r, size_t i);

/* The "outputs" entries (not files: an entry may name several files). */
STEX_API size_t stex_run_output_entry_count(const stex_run *r);
/* Entry i as an image after (or, from after_step, during) stex_run_execute:
 * the texture's mip level or the buffer's texels.  Free it with
 * stex_image_free. */
STEX_API stex_status stex_run_output_image(stex_run *r, size_t i, stex_image *out);

/* The texture or buffer (its name in the run file; *is_buffer says which)
 * that dispatch number `dispatch` (from 0, each repeat counted, as stex_race
 * numbers them) bound at `binding` (STEX_BINDING(group, binding)), so that
 * a race can be placed on a resource; NULL when none or out of range. */
STEX_API const char *stex_run_bound_resource(const stex_run *r, uint64_t dispatch,
                                             uint32_t binding, bool *is_buffer);
/* The texture or buffer name of "outputs" entry i (NULL out of range). */
STEX_API const char *stex_run_output_resource(const stex_run *r, size_t i, bool *is_buffer);

/* The named resources after stex_run_execute; NULL if unknown or not yet created. */
STEX_API stex_texture *stex_run_texture(const stex_run *r, const char *name);
STEX_API stex_buffer *stex_run_buffer(const stex_run *r, const char *name);
STEX_API stex_texture_view *stex_run_view(const stex_run *r, const char *name);
STEX_API stex_sampler *stex_run_sampler(const stex_run *r, const char *name);
STEX_API stex_pipeline *stex_run_pipeline(const stex_run *r, const char *name);
STEX_API stex_bind_group *stex_run_bind_group(const stex_run *r, const char *name);
/* A JSON object (text, copied) written as the "run" record of every .bin
 * output's sidecar, with "output": the index of its "outputs" entry added:
 * how the golden was made (docs/file-formats.md).  NULL: none. */
STEX_API stex_status stex_run_set_record(stex_run *r, const char *run_json);
/* The files the run has read so far (shader modules, data, texture
 * contents), each once, in the order read, with the SHA-256 (hex) of the
 * bytes read; none unless stex_run_options.record_inputs. */
STEX_API size_t stex_run_input_count(const stex_run *r);
STEX_API const char *stex_run_input_path(const stex_run *r, size_t i);
STEX_API const char *stex_run_input_sha256(const stex_run *r, size_t i);

/* How many dispatchWorkgroups calls ran (each repeat counts). */
STEX_API uint64_t stex_run_dispatch_count(const stex_run *r);

/* ---- allowed goldens ----
 * The bounds (stex/io.h) of an output from the sets the allowed-mode
 * executor gives for it (stex/wgsl.h: stex_allowed_texture, _buffer), with
 * `img` its exact texels (the output image, whose format and size the
 * bounds take).  A texture's channels take their sets' codes
 * (stex_ival_channel_codes); a buffer read as texels: a 32-bit channel of
 * its words' own type takes the word's set, a narrower channel its exact
 * code unless the word is uncertain (then unconstrained, with a reason);
 * an unconstrained set keeps its reason's text. */
struct stex_allowed_output;
STEX_API stex_status stex_bounds_from_allowed(const struct stex_allowed_output *o,
                                              const stex_image *img, stex_bounds *out);
/* The bounds of "outputs" entry i of a run executed with
 * stex_run_options.allowed (stex_run_write_outputs writes them beside each
 * .bin of the entry as X.bin.allowed). */
STEX_API stex_status stex_run_output_bounds(stex_run *r, size_t i, stex_bounds *out);

#ifdef __cplusplus
}
#endif
#endif
