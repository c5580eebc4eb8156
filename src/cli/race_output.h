/* What `stex run --race-check` and `stex race` say about races, the same
 * way for kernels, run files and WGSL files: --races all|N (how many
 * racing locations are listed after the groups), --fail-on-race (exit
 * status 3), and the races as text and as the "races" JSON object
 * (docs/file-formats.md). */
#ifndef STEX_CLI_RACE_OUTPUT_H
#define STEX_CLI_RACE_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stex/race.h"

struct json_t; /* jansson's */

/* Locations listed when --races is not given: the groups, each with its
 * example, and these first ones. */
#define CLI_RACES_DEFAULT 3
#define CLI_RACES_ALL UINT64_MAX

/* --races all|N (CLI_CUSTOM, into a uint64_t): "all" is CLI_RACES_ALL;
 * the field starts at CLI_RACES_DEFAULT. */
bool cli_parse_races(const char *cmd, const char *value, void *field);
/* The detector's max_reported for listing `list` locations (with at
 * least `keep` kept for other uses): STEX_RACE_ALL for all. */
uint32_t cli_races_keep(uint64_t list, uint64_t keep);
/* The text report (groups, then `list` locations, the summary line) and,
 * when it lists fewer than there are, how to see them all. */
void cli_races_print(FILE *f, const stex_race_detector *rd, uint64_t list);
/* The "races" object listing `list` locations; NULL when out of memory. */
struct json_t *cli_races_json(const stex_race_detector *rd, uint64_t list);
/* The exit status after a run that did its work: CLI_RACES with
 * --fail-on-race when the detector found a race, else rc. */
int cli_races_exit(int rc, bool fail_on_race, const stex_race_detector *rd);

#endif
