/* `stex run FILE.json`: a run file (stex/run.h) instead of a built-in kernel. */
#ifndef STEX_CLI_CMD_RUN_FILE_H
#define STEX_CLI_CMD_RUN_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "stex/stex.h"

/* The options of `stex run` a run file takes. */
typedef struct cli_run_file_opts {
    bool json, race_check;
    uint32_t threads;
    uint64_t seed;
    stex_profile_id profile;
    stex_schedule schedule;
    stex_visibility vis;
    stex_oob_load oob;
} cli_run_file_opts;

/* Whether `arg` names a run file (ends in .json). */
bool cli_is_run_file(const char *arg);
/* Runs it; refuses the options that only make sense for a kernel. */
int cli_run_file(const cli_spec *spec, const cli_args *a, const cli_run_file_opts *o);

#endif
