/* --races, --fail-on-race and the race report of `stex run` and `stex race`. */
#include "cli/race_output.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

bool cli_parse_races(const char *cmd, const char *value, void *field)
{
    uint64_t *list = field;
    if (!strcmp(value, "all")) {
        *list = CLI_RACES_ALL;
        return true;
    }
    char *end;
    errno = 0;
    unsigned long long n = strtoull(value, &end, 10);
    /* decimal digits only, as every number of the command line */
    if (!*value || *end || errno || value[0] < '0' || value[0] > '9' ||
        (value[0] == '0' && value[1]) || n >= STEX_RACE_ALL) {
        cli_usage(cmd, "--races: '%s' is not 'all' or a count of racing locations to list "
                       "(0 to %u)", value, STEX_RACE_ALL - 1);
        return false;
    }
    *list = n;
    return true;
}

uint32_t cli_races_keep(uint64_t list, uint64_t keep)
{
    uint64_t n = list > keep ? list : keep;
    return n >= STEX_RACE_ALL ? STEX_RACE_ALL : n ? (uint32_t)n : 1;
}

void cli_races_print(FILE *f, const stex_race_detector *rd, uint64_t list)
{
    stex_race_report_text_limit(rd, list, f);
    uint64_t total = stex_race_count(rd, STEX_RACE_ANY);
    uint64_t listed = stex_race_reported(rd);
    listed = listed < list ? listed : list;
    if (listed < total)
        fprintf(f, "(%llu of %llu racing locations listed; --races all lists every one, "
                   "--races N the first N)\n", (unsigned long long)listed,
                (unsigned long long)total);
}

json_t *cli_races_json(const stex_race_detector *rd, uint64_t list)
{
    char *text = stex_race_report_json_limit(rd, list);
    json_t *j = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return j;
}

int cli_races_exit(int rc, bool fail_on_race, const stex_race_detector *rd)
{
    if (rc == CLI_OK && fail_on_race && rd && stex_race_count(rd, STEX_RACE_ANY))
        return CLI_RACES;
    return rc;
}
