/* stex race --html: the study written as one self-contained page (the
 * viewer in race_report.html, embedded at build time; the data as one JSON
 * object inside it, docs/file-formats.md "The HTML race report"). */
#ifndef STEX_CLI_RACE_HTML_H
#define STEX_CLI_RACE_HTML_H

#include "cli/cli_kernel.h"

typedef struct race_html_image {
    const stex_image *img;
    uint64_t seed;  /* the first run that gave it */
    uint32_t runs;  /* how many runs gave it */
} race_html_image;

typedef struct race_html_data {
    const char *name;             /* kernel or file, as the command line named it */
    const cli_race_summary *s;    /* counts, size, format */
    uint32_t runs, threads;
    uint64_t seed0;
    bool buffer_output;           /* the output read back is a buffer (drawn as a grid) */
    const race_html_image *images; /* distinct outputs, first one first */
    uint32_t image_count;
    const stex_image *frames;     /* the first run after each dispatch (or phase) */
    const char (*frame_labels)[80]; /* what each frame shows; NULL: "after dispatch N" */
    uint32_t frame_count;
    const uint64_t *differs;      /* per texel: largest difference between runs */
    const uint8_t *flagged;       /* per texel: flagged by the detector */
    const stex_race_detector *rd;
    /* Where the races' "file:line:col" files are read: a kernel's embedded
     * files (kernel true), else beside base_dir; main_source: a file shown
     * even when nothing races (a kernel's .wgsl, the .wgsl raced). */
    bool kernel;
    const char *base_dir;
    const char *main_source;
    /* For the page's "run on this browser's GPU": the run file as run (a
     * kernel's with its $ values filled in; NULL: no such button) and a
     * kernel's input texels (its file input.bin). */
    const char *run_json;
    const uint8_t *input;
    size_t input_size;
} race_html_data;

stex_status race_html_write(const char *path, const race_html_data *d);

#endif
