/*
 * stex/kernels.h - the lessons' kernels, ready to run.
 *
 * Every compute kernel of the five lessons (and the two box blurs the
 * harness timed) is written once in C against stex/shader.h, so that it
 * reads like its WGSL, and registered here with its pipeline description,
 * its default size and the inputs the conformance harness used.  The CLI
 * (`stex run`, `stex race`), the tests and the benchmarks all run them
 * through this one interface:
 *
 *     const stex_kernel *k = stex_kernel_find("decaer");
 *     stex_kernel_instance *ki;
 *     stex_kernel_setup s = {.width = 256, .height = 256};   // 0 = defaults
 *     stex_kernel_instance_create(k, &s, &ki);   // textures + embedded inputs
 *     stex_dispatch_options o = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = 7};
 *     stex_kernel_instance_dispatch(ki, &o);     // iterations x all passes
 *     uint8_t *bytes; size_t n;
 *     stex_kernel_instance_read_output(ki, &bytes, &n);  // tightly packed rows
 *     free(bytes);
 *     stex_kernel_instance_destroy(ki);
 *
 * The embedded inputs are bit-identical to the harness's (mulberry32 seeds,
 * special values), so at the default size an output can be compared with
 * conformance/lavapipe/kernels.json.  docs/kernels.md describes each kernel.
 *
 * Failure: create returns STEX_INVALID_ARGUMENT for a size or input the
 * kernel cannot take (message in stex_last_error()) and the status of the
 * device/resource layer otherwise; dispatch returns what stex_dispatch
 * returns.  *out is NULL after a failed create.
 */
#ifndef STEX_KERNELS_H
#define STEX_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/dispatch.h"
#include "stex/format.h"
#include "stex/resource.h"
#include "stex/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One compute pass: a WGSL entry point and the pipeline that runs its C twin. */
typedef struct stex_kernel_pass {
    const char *entry_point;       /* the WGSL function name */
    const char *wgsl;              /* the WGSL source as the lesson/harness wrote it */
    stex_pipeline_desc pipeline;   /* kernel fn, @workgroup_size, layout entries */
} stex_kernel_pass;

struct stex_kernel_ops; /* how an instance is set up and run (src/kernels) */

typedef struct stex_kernel {
    const char *name;              /* "decaer", "difundir-pingpong", ... */
    const char *summary;           /* one line */
    const char *lesson;            /* where the WGSL comes from */
    uint32_t default_width, default_height;
    stex_format input_format;      /* UNDEFINED: the kernel takes no input image */
    stex_format output_format;
    const char *input;             /* how the embedded default input is built */
    bool racy;                     /* reads texels other invocations write: races by design */
    bool conserves_sum;            /* a diffusion: the sum of its texels (heat) stays but for
                                    * what leaves at the edges, unless it races */
    const stex_kernel_pass *passes;
    uint32_t pass_count;
    const struct stex_kernel_ops *ops;
    /* The WebGPU program that runs the WGSL (src/kernels/wgsl/NAME.json): a
     * run file (docs/run-files.md) with $ values that `stex run NAME` fills
     * in from its options (docs/kernels.md, "The run files"). */
    const char *run_file;
} stex_kernel;

/* A file of the kernels' WGSL and run files (src/kernels/wgsl), embedded
 * in the library: its text by base name ("decaer.wgsl", "decaer.json"),
 * NUL-terminated, or NULL if there is none. */
STEX_API const char *stex_kernel_file(const char *name, size_t *size);

/* The embedded default input of k at w x h (0 x 0: its default size) with
 * the variant as in stex_kernel_setup: input_format texels, rows tightly
 * packed, malloc'ed into *bytes.  STEX_INVALID_ARGUMENT for a kernel
 * without an input image or an unknown variant. */
STEX_API stex_status stex_kernel_default_input(const stex_kernel *k, uint32_t w, uint32_t h,
                                               const char *variant, uint8_t **bytes,
                                               size_t *size);

/* The registry, in lesson order. */
STEX_API size_t stex_kernel_count(void);
STEX_API const stex_kernel *stex_kernel_at(size_t i);          /* NULL if out of range */
STEX_API const stex_kernel *stex_kernel_find(const char *name); /* NULL if unknown */

/* What an instance is built with.  All zero = the harness's setup. */
typedef struct stex_kernel_setup {
    uint32_t width, height;        /* 0 = the kernel's default size */
    /* Each stex_kernel_instance_dispatch runs the kernel this many times
     * (0 = 1): decaer, difundir: dispatches in place; difundir-pingpong:
     * dispatches alternating the two textures; blur: whole two-pass blurs,
     * each blurring the previous result; histogram: accumulate passes (the
     * counts add up) then one present; generar, box3x3-*: the same dispatch
     * again (same result, for timing). */
    uint32_t iterations;
    float time;                    /* generar: params.tiempo (the harness's perf run: 0.75) */
    /* difundir and difundir-pingpong: "random" (default: Math.fround of
     * mulberry32(0xd1f0) per texel) or "hot" (zero but 1000.0 at the centre). */
    const char *variant;
    /* Optional input image in input_format: height rows of width texels,
     * rows input_bytes_per_row apart (0 = tightly packed).  NULL = the
     * embedded default input. */
    const void *input;
    size_t input_size;
    uint32_t input_bytes_per_row;
    /* NULL: the instance creates (and owns) a device from the default
     * adapter.  Otherwise it must outlive the instance. */
    stex_device *device;
    /* Optional: creates each pass's pipeline instead of
     * stex_pipeline_create(d, &pass->pipeline) - e.g. from pass->wgsl with
     * stex_wgsl_pipeline_create (stex/wgsl.h), to run the lesson's WGSL on
     * the same resources as its C twin.  NULL = the C kernel. */
    stex_status (*create_pipeline)(void *user, stex_device *d, const stex_kernel_pass *pass,
                                   stex_pipeline **out);
    void *create_pipeline_user;
} stex_kernel_setup;

typedef struct stex_kernel_instance stex_kernel_instance;

/* Creates the pipelines, textures, buffers and bind groups, and writes the
 * input (stex_kernel_instance_reset). */
STEX_API stex_status stex_kernel_instance_create(const stex_kernel *k, const stex_kernel_setup *setup,
                                                 stex_kernel_instance **out);
STEX_API void stex_kernel_instance_destroy(stex_kernel_instance *ki);

/* Writes the initial data again (as the harness did before every racy run)
 * and zeroes accumulators, so that dispatches start over. */
STEX_API stex_status stex_kernel_instance_reset(stex_kernel_instance *ki);

/* Runs `iterations` times every pass of the kernel.  The options (schedule,
 * seed, threads, visibility, oob_load, profile, race detector) apply to each
 * dispatch; `params` is ignored: the kernel supplies its own uniform block.
 * NULL options = in order, all threads. */
STEX_API stex_status stex_kernel_instance_dispatch(stex_kernel_instance *ki,
                                                   const stex_dispatch_options *opt);

/* The output: a texture for every kernel but box3x3-buffer, whose output is
 * a buffer of pack4x8unorm words (read it as rgba8unorm texels). */
STEX_API stex_texture *stex_kernel_instance_output_texture(const stex_kernel_instance *ki);
STEX_API stex_buffer *stex_kernel_instance_output_buffer(const stex_kernel_instance *ki);
STEX_API stex_format stex_kernel_instance_output_format(const stex_kernel_instance *ki);
STEX_API uint32_t stex_kernel_instance_width(const stex_kernel_instance *ki);
STEX_API uint32_t stex_kernel_instance_height(const stex_kernel_instance *ki);
STEX_API stex_device *stex_kernel_instance_device(const stex_kernel_instance *ki);
/* histogram: the accumulator buffer (array<u32>, width * height words). NULL otherwise. */
STEX_API stex_buffer *stex_kernel_instance_accumulator(const stex_kernel_instance *ki);

/* The output texels as the harness hashed them: a copyTextureToBuffer
 * readback with the row padding removed (rows tightly packed).  *bytes is
 * malloc'ed; the caller frees it. */
STEX_API stex_status stex_kernel_instance_read_output(stex_kernel_instance *ki, uint8_t **bytes,
                                                      size_t *size);

/* create + dispatch in one call: the instance is ready to read. */
STEX_API stex_status stex_kernel_run(const stex_kernel *k, const stex_kernel_setup *setup,
                                     const stex_dispatch_options *opt, stex_kernel_instance **out);

/* `stex run --record-allowed` sees the value each textureStore was given
 * through stex_dispatch_options.store_observer (dispatch.h), which
 * stex_kernel_instance_dispatch passes on to every dispatch. */

#ifdef __cplusplus
}
#endif
#endif
