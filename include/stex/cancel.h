/*
 * stex/cancel.h - stopping long work: a flag that another thread, a signal
 * handler or a deadline sets, and the work checks.
 *
 *     stex_cancel *c = stex_cancel_create();
 *     stex_cancel_set_timeout(c, 10.0);           // stop 10 s from now
 *     stex_dispatch_options o = {.cancel = c};
 *     // meanwhile, on another thread or in a SIGINT handler:
 *     //     stex_cancel_request(c, STEX_CANCEL_INTERRUPTED);
 *     if (stex_dispatch(p, g, x, y, z, &o) == STEX_CANCELLED)
 *         fprintf(stderr, "%s\n", stex_last_error()); // "... stopped: interrupted"
 *
 * Who checks it: a dispatch between workgroups; the WGSL interpreter inside
 * a workgroup too, every 65,536 instructions of a loop (an infinite loop
 * stops within about a millisecond); a run file between its steps.  A C
 * kernel's workgroup runs to its end.  Work stopped leaves its resources as
 * far as it got (some workgroups ran, others not): only its outputs'
 * writers, which commit after the work, keep files intact.
 */
#ifndef STEX_CANCEL_H
#define STEX_CANCEL_H

#include "stex/api.h"
#include "stex/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stex_cancel stex_cancel;

typedef enum stex_cancel_reason {
    STEX_CANCEL_NONE = 0,
    STEX_CANCEL_INTERRUPTED, /* stex_cancel_request: a signal, a user, a lost device */
    STEX_CANCEL_TIMEOUT      /* the deadline of stex_cancel_set_timeout passed */
} stex_cancel_reason;

/* A flag with no reason and no deadline; NULL when out of memory. */
STEX_API stex_cancel *stex_cancel_create(void);
STEX_API void stex_cancel_destroy(stex_cancel *c);
/* Stops the work checking c (the first reason given stays).  Safe in a
 * signal handler and from any thread. */
STEX_API void stex_cancel_request(stex_cancel *c, stex_cancel_reason why);
/* Work checking c stops once `seconds` have passed from now (0: no
 * deadline).  Not to be called while work checks c. */
STEX_API void stex_cancel_set_timeout(stex_cancel *c, double seconds);
/* No reason, no deadline: c may serve the next piece of work. */
STEX_API void stex_cancel_reset(stex_cancel *c);
/* Why the work should stop now (NONE: go on); a deadline passed becomes
 * STEX_CANCEL_TIMEOUT.  NULL: never stop. */
STEX_API stex_cancel_reason stex_cancel_check(stex_cancel *c);
/* The reason given or seen so far, without looking at the clock (NULL: NONE). */
STEX_API stex_cancel_reason stex_cancel_reason_of(const stex_cancel *c);
/* STEX_CANCELLED with the message "WHERE stopped: interrupted" or "WHERE
 * stopped: the time limit of N s ran out", for work that saw the reason. */
STEX_API stex_status stex_cancel_fail(const stex_cancel *c, const char *where);

#ifdef __cplusplus
}
#endif
#endif
