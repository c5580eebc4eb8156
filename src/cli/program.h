/* What `stex run` and `stex race` run, behind one interface: a built-in
 * kernel through its WGSL and run file on the interpreter (the default), the
 * same kernel's C version (--executor c), or a user's run file. */
#ifndef STEX_CLI_PROGRAM_H
#define STEX_CLI_PROGRAM_H

#include "cli/cli_kernel.h"

typedef struct cli_program_desc {
    const stex_kernel *kernel;     /* NULL: a run file */
    bool wgsl;                     /* kernel: its WGSL and run file, not its C version */
    stex_kernel_setup setup;       /* kernel: size, iterations, variant, input */
    const char *path;              /* run file: its name in messages */
    const char *json;              /* run file: its text */
    const char *base_dir;          /* run file: where its file names start */
    stex_profile_id profile;       /* the device's profile */
    uint32_t subgroup_width;       /* WGSL: lanes in lock step (0 = 64) */
    uint64_t max_steps;            /* WGSL: a sub-group's instructions per workgroup (0 = 2^32) */
    stex_wgsl_executor executor;   /* WGSL: --executor jit (0: the interpreter) */
    const char *const *allow_paths; /* run file: other folders its files may be in */
    size_t allow_path_count;
    void (*progress)(void *user, uint64_t done, uint64_t total); /* WGSL: after each dispatch */
    void *progress_user;
    stex_allowed *allowed;         /* WGSL: allowed mode's shadows (the caller's), NULL: off */
} cli_program_desc;

typedef struct cli_program cli_program;

/* Ready to run: a kernel's instance or run file made, its input built. */
stex_status cli_program_create(const cli_program_desc *d, cli_program **out);
void cli_program_destroy(cli_program *p);

/* Runs it from its initial data: every iteration of a kernel, every step of
 * a run file, each dispatch with o. */
stex_status cli_program_run(cli_program *p, const stex_dispatch_options *o);

/* Called with the output after each frame: a kernel's iteration, a run
 * file's step that dispatches. */
typedef stex_status (*cli_frame_fn)(void *user, const stex_image *img);
/* Runs it once with a frame after each iteration (kernels: as dispatching
 * an instance of one iteration again and again does) or dispatch step. */
stex_status cli_program_run_frames(cli_program *p, const stex_dispatch_options *o,
                                   cli_frame_fn fn, void *user);

/* Runs p on one thread and calls fn with the output as it stands at the end
 * of each barrier phase of each workgroup, in the schedule's order (a
 * race's progress inside one dispatch). */
typedef stex_status (*cli_phase_frame_fn)(void *user, const stex_image *img,
                                          const uint32_t workgroup_id[3], uint32_t phase,
                                          bool last);
stex_status cli_program_run_phase_frames(cli_program *p, const stex_dispatch_options *o,
                                         cli_phase_frame_fn fn, void *user);

/* The output after a run (a kernel's output, a run file's first "outputs"
 * entry), as an image. */
stex_status cli_program_image(cli_program *p, stex_image *out);
/* Allowed mode (desc.allowed): the bounds of the output after a run. */
stex_status cli_program_bounds(cli_program *p, stex_bounds *out);
/* Whether a kernel's output is a texture (box3x3-buffer's is a buffer). */
bool cli_program_output_is_texture(const cli_program *p);

/* Whether race rr (of the program's last run, or of one like it: the same
 * steps) is on the output the program compares: the texture or buffer its
 * dispatch bound at rr's binding.  A C kernel has one: always true. */
bool cli_program_race_on_output(const cli_program *p, const stex_race *rr);
/* Whether t is the texture the output is read from (after a run, or while
 * it runs for a kernel). */
bool cli_program_is_output(const cli_program *p, const stex_texture *t);

/* A kernel's input texels (input_format, rows tightly packed), NULL for a
 * kernel without one or a run file. */
const uint8_t *cli_program_input(const cli_program *p);
uint32_t cli_program_width(const cli_program *p);   /* a kernel's size */
uint32_t cli_program_height(const cli_program *p);
/* A kernel's run file as its WGSL executor runs it ($ values filled in,
 * steps laid out), JSON text; NULL for the C version or a run file. */
const char *cli_program_run_file(const cli_program *p);
/* Dispatches of the last run. */
uint64_t cli_program_dispatches(const cli_program *p);
/* Milliseconds the last run spent in its steps (a kernel: its dispatches),
 * not in setting up resources or compiling. */
double cli_program_steps_ms(const cli_program *p);
/* The last run's first CLI_STEP_TIMES steps, each one's time in ms (a C
 * kernel's dispatch: one); the benchmarks' warm dispatches. */
enum { CLI_STEP_TIMES = 256 };
const double *cli_program_step_times(const cli_program *p, size_t *n);

#endif
