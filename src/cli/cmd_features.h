/* --features parsing shared by `stex formats` and `stex validate`
 * (defined in cmd_formats.c). */
#ifndef STEX_CLI_CMD_FEATURES_H
#define STEX_CLI_CMD_FEATURES_H

#include <stdbool.h>
#include <stdint.h>

/* Parses a comma-separated list of WebGPU feature names, or "all", into a
 * STEX_FEATURE_* mask.  On an unknown name prints a usage error naming it and
 * listing the accepted names, and returns false. */
bool cli_parse_features(const char *cmd, const char *list, void *mask); /* uint32_t */

#endif
