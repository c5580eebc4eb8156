/* The memory a run file's resources may take together
 * (stex_run_options.max_memory). */
#include <inttypes.h>

#include "run/run_internal.h"

stex_status run_reserve_memory(stex_run *r, uint64_t bytes, const char *path, const char *what)
{
    /* a real device has finite memory too: a resource past it is a
     * GPUOutOfMemoryError, here decided before the allocation, so that a
     * run file cannot make stex allocate (and touch) what the machine lacks */
    uint64_t max = r->opt.max_memory ? r->opt.max_memory : (uint64_t)4 << 30;
    if (bytes > max || r->memory > max - bytes)
        return run_fail(r, STEX_OUT_OF_MEMORY, path, "%s: %" PRIu64 " bytes, with the %" PRIu64
                        " its resources take already, exceed the run's memory (%" PRIu64
                        " bytes, stex_run_options.max_memory)", what, bytes, r->memory, max);
    r->memory += bytes;
    return STEX_OK;
}
