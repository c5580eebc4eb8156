/* The progress line of a long `stex run`: "dispatch 3/10, 4.2 s" on
 * stderr, redrawn in place, for a run past ~2 s when stderr is a terminal
 * (not with --quiet, not into a pipe or a file). */
#ifndef STEX_CLI_PROGRESS_H
#define STEX_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cli_progress cli_progress;

/* Starts watching (NULL when off: `show` false, stderr not a terminal, or
 * out of memory - the run goes on without a line).  The line appears after
 * STEX_PROGRESS_DELAY seconds (default 2) of a run. */
cli_progress *cli_progress_start(bool show);
/* stex_run_options.progress: counts into the line being drawn, if any
 * (user: unused). */
void cli_progress_note(void *user, uint64_t done, uint64_t total);
/* Stops watching and wipes the line, so that the summary starts clean. */
void cli_progress_stop(cli_progress *p);

#endif
