/* WGSL synchronisation builtins: control barriers for the workgroup, each
 * ordering one kind of memory (see fiber.c for how they run). */
#include "shader/exec.h"

void stex_workgroupBarrier(const stex_invocation *inv)
{
    fiber_barrier(inv, EXEC_BARRIER_WORKGROUP);
}

void stex_storageBarrier(const stex_invocation *inv)
{
    fiber_barrier(inv, EXEC_BARRIER_STORAGE);
}

void stex_textureBarrier(const stex_invocation *inv)
{
    fiber_barrier(inv, EXEC_BARRIER_TEXTURE);
}
