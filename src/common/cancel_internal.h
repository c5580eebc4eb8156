/* Internal: the cancel flag's layout (stex/cancel.h), so that the hot loops
 * read the reason inline and the clock only now and then. */
#ifndef STEX_COMMON_CANCEL_INTERNAL_H
#define STEX_COMMON_CANCEL_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "stex/cancel.h"

struct stex_cancel {
    atomic_int reason;      /* stex_cancel_reason: lock-free, so a signal handler may store it */
    int64_t deadline_ns;    /* CLOCK_MONOTONIC; 0: none */
    double timeout_s;       /* as given, for the message */
};

/* A reason was given (or a deadline seen passed): one relaxed load, no clock. */
static inline bool cancel_raised(const stex_cancel *c)
{
    return c && atomic_load_explicit(&((stex_cancel *)c)->reason, memory_order_relaxed);
}

#endif
