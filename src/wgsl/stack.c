/* The front end's stack check (see stack.h). */
#include "wgsl/stack.h"

#include <pthread.h>

static _Thread_local uintptr_t stack_low; /* the lowest address a pass may reach; 0: unset */

static uintptr_t here(void) { return (uintptr_t)__builtin_frame_address(0); }

uintptr_t wg_stack_begin(void)
{
    uintptr_t saved = stack_low;
    if (saved)
        return saved;
    uintptr_t low = 0;
    pthread_attr_t a;
    void *addr;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
        if (pthread_attr_getstack(&a, &addr, &size) == 0 && size > 2u * WG_STACK_RESERVE)
            low = (uintptr_t)addr + WG_STACK_RESERVE;
        pthread_attr_destroy(&a);
    }
    /* unknown bounds: assume only 1 MiB below this frame (a small thread's) */
    if (!low || low >= here())
        low = here() > (uintptr_t)(1u << 20) ? here() - (1u << 20) + WG_STACK_RESERVE : 1;
    stack_low = low;
    return saved;
}

void wg_stack_end(uintptr_t saved) { stack_low = saved; }

bool wg_stack_ok(void) { return !stack_low || here() > stack_low; }
