/* WGSL synchronisation builtins: control barriers for the workgroup, each
 * ordering one kind of memory.  The builtin hands the barrier to whoever
 * runs the workgroup's invocations (exec_barrier_fn, set by the dispatch). */
#include "shader/exec.h"

const char *exec_barrier_name(exec_barrier kind)
{
    static const char *const names[EXEC_BARRIER_COUNT] = {"workgroupBarrier", "storageBarrier",
                                                          "textureBarrier"};
    return (unsigned)kind < EXEC_BARRIER_COUNT ? names[kind] : "?";
}

static void barrier(const stex_invocation *inv, exec_barrier kind)
{
    struct stex_exec *e = inv->exec;
    if (e->barrier)
        e->barrier(inv, kind);
    else
        exec_shader_error(inv, "%s called by a kernel whose pipeline was created without "
                          "uses_barriers (stex runs such kernels as a plain loop)",
                          exec_barrier_name(kind));
}

void stex_workgroupBarrier(const stex_invocation *inv) { barrier(inv, EXEC_BARRIER_WORKGROUP); }
void stex_storageBarrier(const stex_invocation *inv) { barrier(inv, EXEC_BARRIER_STORAGE); }
void stex_textureBarrier(const stex_invocation *inv) { barrier(inv, EXEC_BARRIER_TEXTURE); }
