/* Helpers shared by `stex run`, `stex race`, `stex compare` and `stex demo`:
 * name lookups that explain the accepted values, library status -> exit
 * code, kernel outputs as images, and reading any golden file. */
#ifndef STEX_CLI_KERNEL_H
#define STEX_CLI_KERNEL_H

#include "cli/cli.h"
#include "common/error.h"
#include "stex/stex.h"

/* Exit code for a library failure: 2 for bad input (invalid argument, I/O,
 * malformed file), 1 for anything the emulator refused or found. */
int cli_exit_for(stex_status st);
/* Prints "stex CMD: <stex_last_error()>" and returns cli_exit_for(st). */
int cli_fail(const char *cmd, stex_status st);

/* Whether kernel k can run at w x h within the default device's limits
 * (maxTextureDimension2D, and the storage buffers' binding size), checked
 * before anything is allocated: CLI_OK, or CLI_USAGE after printing why,
 * `what` naming the option ("--size", "--in"). */
int cli_check_kernel_size(const char *cmd, const char *what, const stex_kernel *k, uint32_t w,
                          uint32_t h);

/* Lookups that print a usage error listing the accepted values. */
const stex_kernel *cli_find_kernel(const char *cmd, const char *name);
/* Option parsers (cli_parse_fn, for the option tables): `out` points to the
 * type named after it. */
bool cli_parse_profile(const char *cmd, const char *s, void *out);    /* stex_profile_id */
bool cli_parse_schedule(const char *cmd, const char *s, void *out);   /* stex_schedule */
/* --subgroup-size's help, the same for `stex run` and `stex race`: the
 * default lock-step width written from STEX_WGSL_SUBGROUP_WIDTH_DEFAULT */
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)
#define CLI_SUBGROUP_HELP                                                     \
    "WGSL: lanes the interpreter runs in lock step\n(default "                \
    CLI_STR(STEX_WGSL_SUBGROUP_WIDTH_DEFAULT) "; 1 runs invocations one at a time)"
bool cli_parse_visibility(const char *cmd, const char *s, void *out); /* stex_visibility */
bool cli_parse_oob_load(const char *cmd, const char *s, void *out);   /* stex_oob_load */
/* difundir's input: "random" or "hot". */
bool cli_parse_variant(const char *cmd, const char *s, void *out);    /* const char * */
bool cli_parse_format(const char *cmd, const char *s, void *out);     /* stex_format */
/* A picture's path: must end in .png. */
bool cli_parse_png(const char *cmd, const char *s, void *out);        /* const char * */

/* Threads a dispatch with `threads` (0 = all) really uses. */
int cli_threads(uint32_t threads);
double cli_now_ms(void);

/* The kernel's output (texture or buffer) as a readback image. */
stex_status cli_instance_image(stex_kernel_instance *ki, stex_image *out);

/* A raw layout for .bin files without a sidecar (format UNDEFINED = none). */
typedef struct cli_raw_layout {
    stex_format format;
    uint32_t size[3];
    uint32_t bytes_per_row;   /* 0 = the copy layout's (width * bytes rounded up to 256) */
    uint32_t rows_per_image;  /* 0 = height */
} cli_raw_layout;

/* Reads .bin (sidecar, else raw layout), .npy (format from raw->format, else
 * inferred) or .png.  Prints the error and returns the exit code, 0 on success. */
int cli_read_image(const char *cmd, const char *path, const cli_raw_layout *raw, stex_image *out,
                   stex_io_meta_read *meta);

/* "ab12..." hex of a texel's bytes into buf (>= 2 * 16 + 1). */
void cli_hex(const uint8_t *p, unsigned n, char *buf);

/* ---- WGSL files (cmd_check.c), shared with stex reflect ---- */
/* Reads a whole file ('-': stdin) into *out (malloc'ed, NUL-terminated);
 * a usage error (printed) if it cannot be read or holds a NUL byte. */
int cli_read_wgsl(const char *cmd, const char *path, char **out);
/* Reads and checks a module: CLI_OK with *out, CLI_REFUSED after printing
 * the diagnostics (unless quiet), CLI_USAGE for an unreadable file. */
int cli_load_wgsl(const char *cmd, const char *path, bool quiet, stex_wgsl_module **out);

/* ---- stex race's study, shared with stex demo (cmd_race.c) ---- */
typedef struct cli_race_output {
    uint64_t hash;       /* FNV-1a of the readback */
    uint32_t runs;
    uint64_t first_seed;
    double heat;         /* the sum of its texel values (R, G, B, A) */
    bool flat;           /* degenerate: every texel the same */
} cli_race_output;

typedef struct cli_race_summary {
    uint32_t width, height, iterations;
    stex_format format;
    uint32_t distinct;            /* distinct outputs */
    cli_race_output *seen;        /* distinct entries; free() it */
    double *heat;                 /* each run's total heat, run by run; free() it */
    double input_heat;            /* the input's (has_input_heat: the kernel has one) */
    bool has_input_heat;
    uint64_t texels_differing;    /* differ from the first run in some run */
    uint64_t races, read_write, write_write; /* the detector's counts */
    uint64_t flagged, both;       /* texels flagged; flagged and differing */
    uint64_t other_seed;          /* the run drawn beside the first */
    bool other_differs;
    uint64_t same_workgroup;      /* of the races kept in detail: both parties in one workgroup */
    uint64_t reported;            /* races kept in detail */
    uint32_t examples;
    stex_race example[3];
    char example_source[3][2][160]; /* the examples' sites (the detector's text is gone) */
    char example_name[3][160];      /* their locations' names (stex_race.name) */
    /* cli_race_picture.races_report: the race report (race_output.h) as
     * text and as the "races" JSON object; free() and json_decref() them */
    char *races_text;
    struct json_t *races_json;
} cli_race_summary;

/* The pictures a study draws (every path NULL: none). */
typedef struct cli_race_picture {
    const char *png;     /* two runs on one scale, the heat map, captions */
    const char *frames;  /* the first run one frame per dispatch, on one scale */
    const char *html;    /* the HTML race report (cli/race_html.h) */
    uint32_t scale;      /* pixels per texel; 0: automatic (race_auto_scale) */
    bool races_report;   /* make cli_race_summary.races_text and .races_json */
    uint64_t races;      /* ... listing this many racing locations (--races) */
} cli_race_picture;

/* Runs the program pd describes (cli/program.h: a kernel on an executor,
 * or a run file) `runs` times under `schedule` (seeds seed0...), the
 * race detector on the first run; draws the pictures pic asks for (pic may
 * be NULL).  Free out->seen and out->heat after a success. */
struct cli_program_desc;
stex_status cli_race_study(const struct cli_program_desc *pd, uint32_t runs, uint64_t seed0,
                           stex_schedule schedule, uint32_t threads, stex_visibility vis,
                           const cli_race_picture *pic, bool progress_bar,
                           cli_race_summary *out);
void cli_print_race(FILE *f, const char *indent, const stex_race *r);

#endif
