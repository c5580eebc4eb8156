/* stex race: why the runs gave one output although the race detector found
 * races, and which option shows them. */
#ifndef STEX_CLI_RACE_WHY_H
#define STEX_CLI_RACE_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/dispatch.h"

/* What a study knows when its runs agree. */
typedef struct cli_race_why_facts {
    uint32_t runs, distinct;      /* runs, and their distinct outputs */
    uint64_t races;               /* racing locations */
    uint64_t reported;            /* races kept in detail ... */
    uint64_t same_workgroup;      /* ... of which both parties in one workgroup */
    stex_schedule schedule;       /* the runs' schedule */
    uint32_t width;               /* WGSL: the lock-step width (0: the default) */
    bool c;                       /* the kernel's C version, not its WGSL */
} cli_race_why_facts;

/* The explanation, lines of at most 80 columns each ending in '\n', into
 * buf; 0 (buf "") when there is none to give: no races, or runs that
 * differ. */
size_t cli_race_why(const cli_race_why_facts *f, char *buf, size_t size);

#endif
