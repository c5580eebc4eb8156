/* Barriers for C kernels: every invocation of a workgroup runs as a fiber
 * (ucontext) on the thread that owns the workgroup.  The runner is one
 * executor of the phase service (phase.h): it resumes the fibers in the
 * phase's order; each runs until it reaches a barrier (phase_arrive) or
 * returns (phase_return); then phase_end decides - the next phase, the end
 * of the workgroup, or a uniformity error.  Stacks are allocated once per
 * thread per dispatch and reused by every workgroup. */
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "dispatch/dispatch_internal.h"
#include "dispatch/phase.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define FIBER_ASAN 1
#endif

#define FIBER_STACK_SIZE (256u * 1024u)

typedef struct fiber {
    ucontext_t ctx;
    void *stack;
    stex_invocation inv;
} fiber;

struct fiber_pool {
    uint32_t n;
    fiber *f;
    ucontext_t sched;
    fiber *current;
    stex_kernel_fn kernel;
#ifdef FIBER_ASAN
    void *fake_stack;
    const void *sched_bottom;
    size_t sched_size;
#endif
};

static _Thread_local struct fiber_pool *tl_pool;

struct fiber_pool *fiber_pool_create(uint32_t invocations)
{
    struct fiber_pool *fp = calloc(1, sizeof *fp);
    if (!fp)
        return NULL;
    fp->n = invocations;
    fp->f = calloc(invocations, sizeof *fp->f);
    if (!fp->f) {
        fiber_pool_destroy(fp);
        return NULL;
    }
    for (uint32_t i = 0; i < invocations; i++)
        if (!(fp->f[i].stack = malloc(FIBER_STACK_SIZE))) {
            fiber_pool_destroy(fp);
            return NULL;
        }
    return fp;
}

void fiber_pool_destroy(struct fiber_pool *fp)
{
    if (!fp)
        return;
    if (fp->f)
        for (uint32_t i = 0; i < fp->n; i++)
            free(fp->f[i].stack);
    free(fp->f);
    free(fp);
}

/* Switch from the scheduler to fiber f, until it yields. */
static void resume(struct fiber_pool *fp, fiber *f)
{
    fp->current = f;
#ifdef FIBER_ASAN
    __sanitizer_start_switch_fiber(&fp->fake_stack, f->stack, FIBER_STACK_SIZE);
#endif
    swapcontext(&fp->sched, &f->ctx);
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(fp->fake_stack, NULL, NULL);
#endif
}

/* Switch from the running fiber back to the scheduler. */
static void yield(struct fiber_pool *fp, fiber *f, bool finished)
{
#ifdef FIBER_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(finished ? NULL : &fake, fp->sched_bottom, fp->sched_size);
#endif
    (void)finished;
    swapcontext(&f->ctx, &fp->sched);
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake, &fp->sched_bottom, &fp->sched_size);
#endif
}

static void trampoline(void)
{
    struct fiber_pool *fp = tl_pool;
    fiber *f = fp->current;
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(NULL, &fp->sched_bottom, &fp->sched_size);
#endif
    fp->kernel(&f->inv);
    phase_return(f->inv.exec, f->inv.local_invocation_index);
    yield(fp, f, true);
}

void fiber_barrier(const stex_invocation *inv, exec_barrier kind)
{
    struct stex_exec *e = inv->exec;
    struct fiber_pool *fp = e->fibers;
    if (!fp || tl_pool != fp || !fp->current || &fp->current->inv != inv) {
        exec_shader_error(inv, "%s called by a kernel whose pipeline was created without "
                          "uses_barriers (stex runs such kernels as a plain loop)",
                          exec_barrier_name(kind));
        return;
    }
    /* C kernels: barriers are told apart by kind only (site 0) */
    phase_arrive(e, inv->local_invocation_index, kind, 0);
    yield(fp, fp->current, false);
}

/* getcontext returns twice, so it lives in its own small function: a loop
 * around it would have its counter "clobbered" in the compiler's eyes. */
static __attribute__((noinline)) void fiber_prepare(fiber *f)
{
    getcontext(&f->ctx);
    f->ctx.uc_stack.ss_sp = f->stack;
    f->ctx.uc_stack.ss_size = FIBER_STACK_SIZE;
    f->ctx.uc_link = NULL;
    makecontext(&f->ctx, trampoline, 0);
}

void fiber_run_workgroup(const stex_workgroup *w, void *user)
{
    (void)user;
    struct stex_exec *e = w->inv->exec;
    struct fiber_pool *fp = e->fibers;
    tl_pool = fp;
    fp->kernel = e->ctx->kernel;
    for (uint32_t i = 0; i < fp->n; i++) {
        phase_invocation(w, i, &fp->f[i].inv);
        fiber_prepare(&fp->f[i]);
    }
    /* Every fiber runs in every phase: a phase goes on only when all of
     * them wait at its barrier.  After an error the fibers are dropped
     * where they stand; the next workgroup prepares them afresh. */
    do {
        const uint32_t *order = phase_order(e);
        for (uint32_t k = 0; k < fp->n; k++)
            resume(fp, &fp->f[order[k]]);
        fp->current = NULL;
    } while (phase_end(e) == PHASE_NEXT);
}
