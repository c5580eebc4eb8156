/* Internal: recording an error message for stex_last_error(). */
#ifndef STEX_COMMON_ERROR_H
#define STEX_COMMON_ERROR_H

#include "stex/status.h"

/* Formats the message into this thread's buffer and returns `st`, so that a
 * failing function can `return stex_fail(STEX_VALIDATION_ERROR, "...", ...);` */
stex_status stex_fail(stex_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
