/*
 * stex/wgsl.h - WGSL compute shaders, compiled and run by stex.
 *
 * A module is parsed and checked once; a pipeline is made from one of its
 * entry points and is an ordinary stex_pipeline (its layout comes from the
 * module's reflection: WebGPU's layout 'auto'), used with the bind group and
 * dispatch API of stex/dispatch.h.  The interpreter runs `subgroup_width`
 * invocations of a workgroup in lock step; every f32/i32/u32 operation goes
 * through the math layer (stex/math.h) under the dispatch's profile, every
 * texture and buffer access through the same builtins as the C kernels.
 *
 *     stex_wgsl_module *m;
 *     if (stex_wgsl_module_create(src, "blur.wgsl", &m) != STEX_OK)
 *         fputs(stex_wgsl_module_diagnostics(m), stderr);   // file:line:col: error: ...
 *     stex_pipeline *p;
 *     stex_wgsl_options o = {.subgroup_width = 8};
 *     stex_wgsl_pipeline_create(dev, m, "main", &o, &p);
 *     ... stex_bind_group_create(p, ...); stex_dispatch(p, g, 8, 8, 1, NULL);
 *
 * Failure: module creation returns STEX_VALIDATION_ERROR when the source has
 * errors (the module is still returned, holding the diagnostics; destroy it),
 * STEX_INVALID_ARGUMENT for NULL arguments.  Pipeline creation fails with
 * STEX_INVALID_ARGUMENT for an unknown entry point or a module with errors,
 * and with what stex_pipeline_create returns.  A dispatch returns
 * STEX_SHADER_ERROR when a loop runs past max_steps (naming the line).
 */
#ifndef STEX_WGSL_H
#define STEX_WGSL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/dispatch.h"
#include "stex/interval.h"
#include "stex/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stex_wgsl_module stex_wgsl_module;

/* Parses and checks `source` (NUL-terminated; copied).  filename names it in
 * diagnostics (NULL = "shader.wgsl").  Its const-expressions are evaluated
 * by WGSL's rules (the spec profile's). */
STEX_API stex_status stex_wgsl_module_create(const char *source, const char *filename,
                                    stex_wgsl_module **out);
/* The same for a device of profile p (NULL = spec): const-expressions are
 * evaluated as p's front end does (stex_math_const_rule; the lavapipe and
 * nvidia profiles' is Dawn's), so a literal -0.0 is +0 there.  The values
 * are fixed in the module: use it on devices of that profile. */
STEX_API stex_status stex_wgsl_module_create_for(const stex_profile *p, const char *source,
                                                 const char *filename, stex_wgsl_module **out);
/* The same for `length` bytes of text that need not end in a NUL: a NUL
 * byte inside is a shader-creation error ("the text contains a NUL byte
 * (U+0000), which WGSL forbids [textual-structure]", at its line:col), as
 * WGSL forbids the null code point - where the NUL-terminated calls above
 * would silently end the module there.  (JavaScript strings may hold NULs.) */
STEX_API stex_status stex_wgsl_module_create_n(const stex_profile *p, const char *source,
                                               size_t length, const char *filename,
                                               stex_wgsl_module **out);
/* Where the one WGSL expression at the start of `text` (NUL-terminated)
 * ends: *length bytes of it (blankspace and comments after it not
 * counted).  STEX_VALIDATION_ERROR (the diagnostic in stex_last_error) when
 * the text does not start with an expression - a syntax error in it or an
 * invalid token; what follows the expression is not read.  A caller that
 * pastes an expression into a shader checks that nothing but blankspace
 * follows it (`stex eval` does), so no statement can ride along. */
STEX_API stex_status stex_wgsl_expression_length(const char *text, size_t *length);
/* The longest WGSL text a module takes: a longer one is refused (rule
 * [limits]) before it is read.  Every pass is linear or n log n in the text
 * up to it, and recursion is bounded (docs/guide.md lists the limits). */
#define STEX_WGSL_MAX_SOURCE_BYTES (16u << 20)
STEX_API void stex_wgsl_module_destroy(stex_wgsl_module *m);

/* Every diagnostic, one `file:line:col: SEVERITY: message [rule]` each with
 * the source line and a caret under it, in the order of their positions;
 * "" when there are none.  SEVERITY is error, warning or info: warnings
 * (an unreachable statement, an unknown rule in a diagnostic filter, a
 * rule a filter sets to warning) leave the module valid.  Columns count
 * Unicode code points from 1 (a browser's GPUCompilationMessage.linePos
 * counts UTF-16 code units: the same but for characters past U+FFFF). */
STEX_API const char *stex_wgsl_module_diagnostics(const stex_wgsl_module *m);
STEX_API size_t stex_wgsl_module_error_count(const stex_wgsl_module *m);

typedef enum stex_wgsl_severity {
    STEX_WGSL_ERROR,
    STEX_WGSL_WARNING,
    STEX_WGSL_INFO,
} stex_wgsl_severity;

/* One diagnostic, as the text shows it. */
typedef struct stex_wgsl_diagnostic {
    stex_wgsl_severity severity;
    const char *rule;     /* the rule or section it names ("derivative_uniformity") */
    uint32_t line, column; /* 1-based, the column in code points; 0: no position */
    const char *message;  /* without position, severity or rule */
} stex_wgsl_diagnostic;

/* The module's diagnostics of every severity, in the order of their
 * positions; i below the count, else false.  The strings live as long as m. */
STEX_API size_t stex_wgsl_module_diagnostic_count(const stex_wgsl_module *m);
STEX_API bool stex_wgsl_module_diagnostic_at(const stex_wgsl_module *m, size_t i,
                                             stex_wgsl_diagnostic *out);

/* ---- reflection ---- */
typedef struct stex_wgsl_entry_point {
    const char *name;
    uint32_t workgroup_size[3];   /* overrides at their defaults; 0 where an override
                                   * without a default decides it */
    uint32_t workgroup_memory_size; /* bytes of var<workgroup> it uses (an array
                                     * sized by an override without a default
                                     * counted as one element: the pipeline's
                                     * own size follows its constants) */
    bool workgroup_memory_by_override; /* such an array is there: the size above is
                                        * a lower bound, not the pipeline's */
    bool uses_barriers;
    const stex_layout_entry *entries; /* the bindings it uses: layout 'auto' */
    uint32_t entry_count;
    const char *const *binding_names; /* the variable of each entry */
    /* per entry: a sampled texture's sampleType as layout 'auto' derives it
     * ("float" when a sampler reads it, else "unfilterable-float"); NULL for
     * every other kind of binding */
    const char *const *sample_types;
} stex_wgsl_entry_point;

STEX_API uint32_t stex_wgsl_entry_point_count(const stex_wgsl_module *m);
/* NULL if out of range. */
STEX_API const stex_wgsl_entry_point *stex_wgsl_entry_point_at(const stex_wgsl_module *m, uint32_t i);
STEX_API const stex_wgsl_entry_point *stex_wgsl_entry_point_find(const stex_wgsl_module *m,
                                                        const char *name);

/* The module's pipeline-overridable constants, in declaration order. */
typedef struct stex_wgsl_override_info {
    const char *name;
    const char *type;        /* "f32", "i32", "u32" or "bool" */
    int64_t id;              /* @id(N), or -1 */
    bool has_default;
    double default_value;    /* when has_default; NaN when the default depends on
                              * an override without a default */
} stex_wgsl_override_info;

STEX_API uint32_t stex_wgsl_override_count(const stex_wgsl_module *m);
/* NULL if out of range. */
STEX_API const stex_wgsl_override_info *stex_wgsl_override_at(const stex_wgsl_module *m, uint32_t i);

/* ---- pipelines ---- */
/* One of a pipeline's constants (WebGPU GPUProgrammableStage.constants):
 * name is the override's identifier string - its @id in decimal ("7") when
 * it has one, else its name - and value converts to its type as WebGPU's
 * "to WGSL type": bool = value != 0, i32/u32 [EnforceRange] (finite,
 * truncated, in range), f32 rounded and finite. */
typedef struct stex_wgsl_override {
    const char *name;
    double value;
} stex_wgsl_override;

/* The interpreter's default lock-step width: the invocations it runs one
 * instruction at a time for (a whole 8x8 workgroup), also the WGSL
 * sub-group's size.  The command (`stex run`, `stex race`), the run files
 * and the Node provider default to it too. */
#define STEX_WGSL_SUBGROUP_WIDTH_DEFAULT 64

/* Which executor runs a pipeline's dispatches.  The JIT compiles the
 * pipeline's bytecode to native code through LLVM (when this build has it:
 * stex_wgsl_jit_available) and gives the interpreter's results, byte for
 * byte, race reports included; what it cannot compile - a construct it
 * does not cover, allowed mode, the interleaved schedule, a build without
 * LLVM - runs on the interpreter, said once through stex_wgsl_set_notice. */
typedef enum stex_wgsl_executor {
    STEX_WGSL_EXECUTOR_INTERPRETER = 0,
    STEX_WGSL_EXECUTOR_JIT
} stex_wgsl_executor;

/* Whether this build has the JIT (LLVM was found when it was built). */
STEX_API bool stex_wgsl_jit_available(void);

/* Where the library's notices go (the library never prints): fn is called
 * with a line of text, once per process for each distinct notice (a JIT
 * pipeline run on the interpreter, and why).  NULL (the default): nowhere.
 * Set it before creating pipelines. */
typedef void (*stex_wgsl_notice_fn)(void *user, const char *text);
STEX_API void stex_wgsl_set_notice(stex_wgsl_notice_fn fn, void *user);

typedef struct stex_wgsl_options {
    /* lanes run in lock step: 1..64; 0 = STEX_WGSL_SUBGROUP_WIDTH_DEFAULT */
    uint32_t subgroup_width;
    uint64_t max_steps;        /* instructions of one sub-group per workgroup; 0 = 2^32 */
    const stex_wgsl_override *overrides;
    uint32_t override_count;
    /* an explicit pipeline layout (GPUPipelineLayout's entries, .group set);
     * NULL = layout 'auto'.  Checked with stex_wgsl_layout_check, then the
     * pipeline's bind groups are validated against it; the layout is
     * shared (stex_pipeline_desc.shared_layout): bind groups made for an
     * equal group of another explicit layout serve it too. */
    const stex_layout_entry *layout;
    uint32_t layout_count;
    /* Allowed mode (docs/intervals.md): NULL, or the shadows (below) in
     * which the pipeline's dispatches keep, beside every float word they
     * compute, the set of values a conformant device may hold there. */
    struct stex_allowed *allowed;
    /* Which executor runs its dispatches (0: the interpreter, the reference). */
    stex_wgsl_executor executor;
} stex_wgsl_options;

/* createComputePipeline with layout 'auto' from entry point `entry_point`
 * (NULL: the only one).  opt may be NULL.  STEX_VALIDATION_ERROR, rule
 * [pipeline-constants], for a constant whose key names no override, a value
 * its type cannot hold, or an override without a default that the entry
 * point uses and the constants leave out; with the diagnostics when an
 * override-expression fails with these values (e.g. a division by zero). */
STEX_API stex_status stex_wgsl_pipeline_create(stex_device *d, const stex_wgsl_module *m,
                                      const char *entry_point, const stex_wgsl_options *opt,
                                      stex_pipeline **out);

/* createComputePipeline with an explicit layout (the pipeline's entries,
 * GPUBindGroupLayout by GPUBindGroupLayout): STEX_VALIDATION_ERROR (the rule
 * in stex_last_error) when a binding that entry point `entry_point` (NULL:
 * the only one) uses is missing from `layout`, of another type, or - for a
 * storage texture - of another access, format or view dimension; for a
 * sampled texture of another view dimension, multisampled or sampleType
 * (f32: "float" or "unfilterable-float"; depth: "depth"; i32/u32: "sint" /
 * "uint"), for a sampler of the other comparison kind; or when a
 * "filtering" sampler samples an "unfilterable-float", "sint" or "uint"
 * texture (WebGPU's texture-sampler pairs). */
STEX_API stex_status stex_wgsl_layout_check(const stex_wgsl_module *m, const char *entry_point,
                                            const stex_layout_entry *layout, uint32_t count);

/* The @workgroup_size of entry point `entry_point` (NULL: the only one) with
 * the overrides of opt (may be NULL) applied: what a pipeline made with the
 * same options would use.  Fails as stex_wgsl_pipeline_create does for the
 * module or entry point, and with STEX_VALIDATION_ERROR (the diagnostics in
 * stex_last_error) when an override value breaks the shader. */
STEX_API stex_status stex_wgsl_workgroup_size(const stex_wgsl_module *m, const char *entry_point,
                                     const stex_wgsl_options *opt, uint32_t out[3]);
/* The bytes of var<workgroup> entry_point uses with opt's overrides applied
 * (an array sized by an override takes the value given). */
STEX_API stex_status stex_wgsl_workgroup_memory_size(const stex_wgsl_module *m,
                                                     const char *entry_point,
                                                     const stex_wgsl_options *opt,
                                                     uint32_t *bytes);
/* The value each override takes under opt's constants - given, its
 * default, or its override-expression evaluated from the others - in
 * values[i] for stex_wgsl_override_at(m, i) (stex_wgsl_override_count of
 * them); NaN for one with no value (no default, not given).  bool as 0/1. */
STEX_API stex_status stex_wgsl_override_values(const stex_wgsl_module *m,
                                               const stex_wgsl_options *opt, double *values);

/* ---- allowed mode ----
 * A pipeline made with stex_wgsl_options.allowed runs one invocation at a
 * time with every f32/f16 value an interval (stex/interval.h): WGSL's
 * accuracy rules for each operation, both sides of a select or of an `if`
 * on an uncertain condition followed and joined, WebGPU's conversions on
 * every textureStore.  What it cannot follow - an uncertain loop exit or
 * index, a branch whose sides end differently - it marks STEX_IVAL_ANY
 * with the source line as the reason.  The textures and buffers it writes
 * keep their sets in the stex_allowed (their bytes hold what the
 * dispatch's profile computes, always inside the sets), so later
 * dispatches read them; it must outlive those pipelines' dispatches and
 * the resources it was used with must outlive their queries. */
typedef struct stex_allowed stex_allowed;
STEX_API stex_status stex_allowed_create(stex_allowed **out);
STEX_API void stex_allowed_destroy(stex_allowed *a);

/* What a conformant device may leave in one texture level or buffer. */
typedef struct stex_allowed_output {
    const char *name;          /* the run's output name (NULL from the calls below) */
    bool is_texture;
    stex_format format;        /* textures; buffers: STEX_FORMAT_UNDEFINED */
    uint32_t width, height, layers;  /* textures; buffers: words in width, 1, 1 */
    char word_type;            /* buffers: 'f','h','i','u' of each word stored with
                                * a set, or 'x' unknown/mixed (exact); textures 0 */
    stex_ival *v;              /* texel-major, 4 channels per texel (unused channels:
                                * the point textureLoad reads); buffers: one per word */
    uint32_t *reason;          /* per value: 0, or an index into reasons[] (ANY values) */
    const char *const *reasons; /* the stex_allowed's table (reasons[0] = ""): valid
                                 * while it lives */
    uint32_t nreasons;
} stex_allowed_output;

/* Texture t's level mip: the sets its shadows hold; a texel no allowed
 * dispatch stored gives what textureLoad may read of its bytes. */
STEX_API stex_status stex_allowed_texture(stex_allowed *a, stex_texture *t, uint32_t mip,
                                          stex_allowed_output *out);
/* Buffer b's words [offset / 4, (offset + size) / 4): a word no allowed
 * dispatch stored a set in is its bits' point (word_type 'x' when none was). */
STEX_API stex_status stex_allowed_buffer(stex_allowed *a, stex_buffer *b, uint64_t offset,
                                         uint64_t size, stex_allowed_output *out);
/* Frees what the two calls above allocated (v, reason). */
STEX_API void stex_allowed_output_free(stex_allowed_output *o);

#ifdef __cplusplus
}
#endif
#endif
