/* The cancel flag (stex/cancel.h): an atomic reason, and a deadline on the
 * monotonic clock that the first check past it turns into a reason. */
#include "stex/cancel.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "common/cancel_internal.h"
#include "common/error.h"

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

stex_cancel *stex_cancel_create(void)
{
    stex_cancel *c = calloc(1, sizeof *c);
    if (c)
        atomic_init(&c->reason, STEX_CANCEL_NONE);
    return c;
}

void stex_cancel_destroy(stex_cancel *c) { free(c); }

void stex_cancel_request(stex_cancel *c, stex_cancel_reason why)
{
    int none = STEX_CANCEL_NONE;
    if (c && why != STEX_CANCEL_NONE)
        atomic_compare_exchange_strong(&c->reason, &none, (int)why);
}

void stex_cancel_set_timeout(stex_cancel *c, double seconds)
{
    if (!c)
        return;
    c->timeout_s = seconds > 0 ? seconds : 0;
    /* past about 292 years the sum would overflow: no deadline then */
    c->deadline_ns = seconds > 0 && seconds < 9e9 ? now_ns() + (int64_t)(seconds * 1e9) : 0;
}

void stex_cancel_reset(stex_cancel *c)
{
    if (!c)
        return;
    atomic_store(&c->reason, STEX_CANCEL_NONE);
    c->deadline_ns = 0;
    c->timeout_s = 0;
}

stex_cancel_reason stex_cancel_check(stex_cancel *c)
{
    if (!c)
        return STEX_CANCEL_NONE;
    int r = atomic_load_explicit(&c->reason, memory_order_relaxed);
    if (r == STEX_CANCEL_NONE && c->deadline_ns && now_ns() >= c->deadline_ns) {
        stex_cancel_request(c, STEX_CANCEL_TIMEOUT);
        r = atomic_load(&c->reason);
    }
    return (stex_cancel_reason)r;
}

stex_cancel_reason stex_cancel_reason_of(const stex_cancel *c)
{
    return c ? (stex_cancel_reason)atomic_load(&((stex_cancel *)c)->reason) : STEX_CANCEL_NONE;
}

stex_status stex_cancel_fail(const stex_cancel *c, const char *where)
{
    int r = c ? atomic_load(&((stex_cancel *)c)->reason) : STEX_CANCEL_NONE;
    if (r == STEX_CANCEL_TIMEOUT)
        return stex_fail(STEX_CANCELLED, "%s stopped: the time limit of %g s ran out", where,
                         c->timeout_s);
    return stex_fail(STEX_CANCELLED, "%s stopped: interrupted", where);
}
