/* A built-in kernel's run file (src/kernels/wgsl/NAME.json) made concrete
 * for one run: its $ values filled in from the options and its steps laid
 * out for every iteration (docs/kernels.md, "The run files"). */
#ifndef STEX_CLI_KERNEL_TEMPLATE_H
#define STEX_CLI_KERNEL_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/stex.h"

/* What the $ values are made of. */
typedef struct kernel_values {
    uint32_t width, height;   /* the texture size */
    uint32_t iterations;      /* >= 1 */
    uint32_t points;          /* histogram: how many points */
    float time;               /* generar: params.tiempo */
} kernel_values;

/* The resource read as the output after a given iteration. */
typedef struct kernel_output {
    const char *texture;      /* a texture's name, or NULL ... */
    const char *buffer;       /* ... a buffer's, read as width x height texels of */
    stex_format format;       /* this format */
} kernel_output;

typedef struct kernel_run {
    char *json;               /* the run file to give stex_run_parse */
    uint32_t iterations;
    /* Per iteration i: the index in the run file's steps of its last step,
     * and the output as it stands after it. */
    size_t *last_step;
    kernel_output *output;
    void *root;               /* the template's JSON, which the names point into */
} kernel_run;

/* Makes the run file of kernel k for v.  With `frames`, steps marked
 * "$when": "last" run after every iteration (as dispatching an instance
 * once per frame does), so that each iteration ends with its output
 * written.  STEX_FILE_FORMAT_ERROR names the template's JSON path when the
 * template breaks its own rules. */
stex_status kernel_run_make(const stex_kernel *k, const kernel_values *v, bool frames,
                            kernel_run *out);
void kernel_run_free(kernel_run *kr);

#endif
