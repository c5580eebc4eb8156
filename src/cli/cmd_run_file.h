/* `stex run FILE.json`: a run file (stex/run.h) instead of a built-in kernel. */
#ifndef STEX_CLI_CMD_RUN_FILE_H
#define STEX_CLI_CMD_RUN_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "stex/stex.h"

struct json_t; /* jansson's */

/* --allow-paths DIR (repeatable): folders besides its own whose files a
 * run file may name (stex_run_options.allow_paths). */
enum { CLI_MAX_ALLOW_PATHS = 16 };
typedef struct cli_allow_paths {
    size_t n;
    const char *dir[CLI_MAX_ALLOW_PATHS];
} cli_allow_paths;
/* Its parser (CLI_CUSTOM): an existing folder, added to the list. */
bool cli_parse_allow_path(const char *cmd, const char *value, void *field);
/* Every file ("/"): what a run file the CLI makes from its own command line
 * (`stex run FILE.wgsl --out ...`) may name. */
extern const cli_allow_paths cli_allow_any_path;

/* The options of `stex run` a run file takes. */
typedef struct cli_run_file_opts {
    bool json, race_check;
    uint32_t threads;
    uint64_t seed;
    stex_profile_id profile;
    stex_schedule schedule;
    stex_visibility vis;
    stex_oob_load oob;
    uint32_t subgroup;     /* WGSL: lanes in lock step (0 = 32) */
    uint64_t max_steps;    /* WGSL: 0 = the interpreter's default */
    stex_wgsl_executor executor; /* --executor jit: the JIT (0: the interpreter) */
    const cli_allow_paths *allow; /* --allow-paths (NULL: none) */
    const char *out_dir;   /* --out-dir: where the outputs' names start (NULL: as given) */
    bool force;            /* --force: overwrite a golden made under another profile */
    bool quiet;            /* --quiet: no progress line */
    bool record;           /* --record-allowed: X.bin.inputs beside each .bin */
    uint32_t scale;        /* --scale: .png outputs, pixels a texel a side (0: 1) */
    uint64_t races;        /* --races all|N: racing locations listed (race_output.h) */
    bool fail_on_race;     /* --fail-on-race: exit status 3 on a race */
    stex_allowed *allowed; /* --golden allowed: the sets' shadows (the caller's), NULL: off */
} cli_run_file_opts;

/* Whether `arg` names a run file (ends in .json). */
bool cli_is_run_file(const char *arg);

/* CLI_OK, or a usage error when path is a .bin whose sidecar records a
 * profile other than `profile` and force is false (no silent overwrite of
 * another device's golden). */
int cli_check_golden_profile(const char *path, stex_profile_id profile, bool force);
/* Runs it; refuses the options that only make sense for a kernel. */
int cli_run_file(const cli_spec *spec, const cli_args *a, const cli_run_file_opts *o);
/* Executes a parsed run (taking it over), writes its outputs, prints the
 * summary under the name `path`. */
int cli_run_loaded(const char *path, stex_run *r, const cli_run_file_opts *o);
/* The same, keeping in every .bin's sidecar the record of what made it:
 * `record` (a JSON object: the run file and its SHA-256, or the .wgsl's
 * command line; taken over) with the options and the files read added. */
int cli_run_recorded(const char *path, stex_run *r, const cli_run_file_opts *o,
                     struct json_t *record);
/* The run options for o (its WGSL settings, folders, outputs, progress). */
stex_run_options cli_run_file_options(const cli_run_file_opts *o);

/* `stex run --replay X.bin.json` of a golden a run file or a .wgsl made:
 * `record` is the sidecar's "run" (run_file_replay.c). */
int cli_replay_file(const char *side, struct json_t *record, bool json, bool quiet);

/* `stex run FILE.wgsl`: a shader whose one binding is a 2d storage texture,
 * on a texture of `size` (size[0] 0: 64 x 64), dispatched over it
 * `iterations` times (0: once), written to the `nout` files of `outs`; the
 * pipeline's constants (override name or @id = value) are `constants`. */
bool cli_is_wgsl_file(const char *arg);
/* The run file a `stex run FILE.wgsl` makes, as JSON text (*json,
 * malloc'ed), with the pipeline's constants; prints why and returns the
 * exit code when it cannot. */
int cli_wgsl_run_json(const char *cmd, const char *path, const uint32_t size[3],
                      uint32_t iterations, const char *const *outs, int nout,
                      const stex_wgsl_override *constants, uint32_t nconstants, char **json);
/* The same with an input (--in FILE, .png or .npy; NULL: none): the
 * initial contents of a read_write texture, or the texture of the
 * shader's second binding (a texture_2d or a read-only storage texture);
 * the texture's size is then the input's. */
int cli_wgsl_run_json_in(const char *cmd, const char *path, const char *in,
                         const uint32_t size[3], uint32_t iterations, const char *const *outs,
                         int nout, const stex_wgsl_override *constants, uint32_t nconstants,
                         char **json);
/* A run file's text and its folder (both malloc'ed); prints why and returns
 * the exit code when it cannot be read. */
int cli_read_run_file(const char *cmd, const char *path, char **json, char **dir);
int cli_run_wgsl(const char *path, const char *in, const uint32_t size[3], uint32_t iterations,
                 const char *const *outs, int nout, const stex_wgsl_override *constants,
                 uint32_t nconstants, const cli_run_file_opts *o);

#endif
