/* Status names and the per-thread last-error message. */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const status_names[] = {
#define NAME_(id, name, meaning) name,
    STEX_STATUSES(NAME_)
#undef NAME_
};

static const char *const status_meanings[] = {
#define MEANING_(id, name, meaning) meaning,
    STEX_STATUSES(MEANING_)
#undef MEANING_
};

/* 1 KiB is enough for any message stex writes; longer ones are truncated. */
static _Thread_local char last_message[1024];

const char *stex_status_name(stex_status st)
{
    if ((unsigned)st >= STEX_STATUS_COUNT)
        return "unknown status";
    return status_names[st];
}

const char *stex_status_meaning(stex_status st)
{
    if ((unsigned)st >= STEX_STATUS_COUNT)
        return "unknown status";
    return status_meanings[st];
}

const char *stex_last_error(void) { return last_message; }

void stex_clear_error(void) { last_message[0] = '\0'; }

stex_status stex_fail(stex_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    return st;
}
