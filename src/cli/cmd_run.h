/* stex run's options, shared by cmd_run.c (running a kernel) and
 * run_record.c (the record of a run kept in a golden's sidecar, and
 * `stex run --replay`, which makes the golden again from it). */
#ifndef STEX_CLI_CMD_RUN_H
#define STEX_CLI_CMD_RUN_H

#include "cli/cli_kernel.h"
#include "cli/cmd_run_file.h"

#define RUN_MAX_OUTS 8
/* the sub-group width --executor wgsl runs at (the interpreter's default) */
#define RUN_WGSL_SUBGROUP STEX_WGSL_SUBGROUP_WIDTH_DEFAULT

/* The --out files: the extension picks the type. */
typedef struct run_outs {
    int n;
    const char *path[RUN_MAX_OUTS];
} run_outs;

/* --constant NAME=VALUE (stex run FILE.wgsl): the pipeline's constants */
enum { RUN_MAX_CONSTANTS = 16 };
typedef struct run_constants {
    uint32_t n;
    stex_wgsl_override v[RUN_MAX_CONSTANTS]; /* name: into argv, up to the '=' */
    char keys[RUN_MAX_CONSTANTS][128];
} run_constants;

typedef struct run_opts {
    bool list, json, race_check, record, print_wgsl, print_run, wgsl; /* wgsl: --executor wgsl */
    bool jit;                   /* --executor jit: the WGSL through the JIT (wgsl too) */
    uint32_t size[3], threads, iterations; /* size[0] == 0: the kernel's own */
    uint32_t subgroup;          /* --subgroup-size (WGSL; 0 = RUN_WGSL_SUBGROUP) */
    uint64_t max_steps;         /* --max-steps (WGSL; 0 = the interpreter's default) */
    uint64_t seed;
    stex_profile_id profile;
    stex_schedule schedule;
    stex_visibility vis;
    stex_oob_load oob;
    const char *in, *variant;
    const char *dump_input;     /* --dump-input FILE: the input texture (.bin/.npy) */
    const char *replay;         /* --replay X.bin.json */
    run_outs outs;
    run_constants constants;
    cli_allow_paths allow;      /* --allow-paths DIR (a run file) */
    const char *out_dir;        /* --out-dir DIR (a run file, a .wgsl) */
    bool force, quiet;          /* --force: overwrite another profile's golden; --quiet */
    uint32_t scale;             /* --scale N (a run file's, a .wgsl's .png outputs) */
    uint64_t races;             /* --races all|N: racing locations listed (race_output.h) */
    bool fail_on_race;          /* --fail-on-race: exit status 3 on a race */
    bool golden_allowed;        /* --golden allowed: X.bin.allowed beside each .bin */
} run_opts;

/* The WGSL of every pass, as `stex run K --print-wgsl` prints it. */
void run_print_wgsl(FILE *f, const stex_kernel *k);
/* SHA-256 (hex) of exactly that text: `stex run K --print-wgsl | sha256sum`. */
stex_status run_wgsl_sha256(const stex_kernel *k, char hex[65]);
/* SHA-256 (hex) of a file's bytes. */
stex_status run_file_sha256(const char *path, char hex[65]);

/* The sidecar's "run" object for a run of k with options o at w x h
 * (input_sha: the --in file's SHA-256, NULL without --in): a malloc'ed JSON
 * text, NULL when out of memory. */
char *run_record_json(const run_opts *o, const stex_kernel *k, uint32_t w, uint32_t h,
                      const char *input_sha);

/* What `stex run --replay` found in the sidecar, besides the options. */
typedef struct run_replay {
    char *golden;              /* X.bin, the data file beside the sidecar (malloc'ed) */
    char *input_path;          /* the recorded --in file (malloc'ed), or NULL */
    char input_sha[65];        /* its recorded SHA-256 */
    bool deterministic;        /* whether the options fix every byte of the output */
    char why_not[256];         /* when not: why the replay may differ */
    bool handled;              /* a run file's or a .wgsl's golden: for cli_replay_file */
    struct json_t *file_record; /* then: the sidecar's "run" (owned), NULL if refused */
} run_replay;

/* Reads the sidecar o->replay, checks its kernel (known, same WGSL hash) and
 * puts its options into o (leaving --out, --json and --in as given).
 * Prints why and returns CLI_USAGE when it cannot be replayed. */
/* Prints "stex run: --replay SIDECAR: <why>" and returns CLI_USAGE. */
int run_replay_refuse(const char *side, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* spec: stex run's options (passed in, so that this file never calls cmd_run.c) */
int run_replay_load(const cli_spec *spec, const cli_args *a, run_opts *o, const stex_kernel **k,
                    run_replay *rp);
void run_replay_free(run_replay *rp);

#endif
