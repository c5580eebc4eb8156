/* Barriers: every invocation of a workgroup runs as a fiber (ucontext) on the
 * thread that owns the workgroup.  The scheduler resumes the fibers one after
 * the other in the schedule's order; each runs until it reaches a barrier or
 * returns.  When all have stopped, either all wait at the same barrier (all
 * are resumed: the next phase) or the barrier was not reached in uniform
 * control flow (a shader error).  Stacks are allocated once per thread per
 * dispatch and reused by every workgroup. */
#include <stdlib.h>
#include <string.h>

#include "dispatch/dispatch_internal.h"
#include "race/race_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define FIBER_ASAN 1
#endif

#define FIBER_STACK_SIZE (256u * 1024u)

enum { FIBER_READY, FIBER_AT_BARRIER, FIBER_DONE };

typedef struct fiber {
    ucontext_t ctx;
    void *stack;
    const stex_invocation *inv;
    int state;
    exec_barrier barrier;
} fiber;

struct fiber_pool {
    uint32_t n;
    fiber *f;
    uint32_t *order;
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
    fp->order = calloc(invocations, sizeof *fp->order);
    if (!fp->f || !fp->order) {
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
    free(fp->order);
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
    fp->kernel(f->inv);
    f->state = FIBER_DONE;
    yield(fp, f, true);
}

void fiber_barrier(const stex_invocation *inv, exec_barrier kind)
{
    static const char *const names[] = {"workgroupBarrier", "storageBarrier", "textureBarrier"};
    struct stex_exec *e = inv->exec;
    struct fiber_pool *fp = e->fibers;
    if (!fp || !e->ctx->fibers || tl_pool != fp || !fp->current
        || fp->current->inv != inv) {
        exec_shader_error(inv, "%s called by a kernel whose pipeline was created without "
                          "uses_barriers (stex runs such kernels as a plain loop)", names[kind]);
        return;
    }
    fiber *f = fp->current;
    f->state = FIBER_AT_BARRIER;
    f->barrier = kind;
    yield(fp, f, false);
}

static void phase_order(const struct stex_exec *e, struct fiber_pool *fp, uint32_t n,
                        uint32_t phase)
{
    stex_schedule s = e->ctx->opt.schedule;
    for (uint32_t i = 0; i < n; i++)
        fp->order[i] = s == STEX_SCHEDULE_REVERSED ? n - 1 - i : i;
    if (s != STEX_SCHEDULE_SHUFFLED)
        return;
    sched_shuffle(fp->order, n, sched_mix(sched_mix(e->ctx->opt.seed, e->wg), phase + 1));
}

/* getcontext returns twice, so it lives in its own small function: a loop
 * around it would have its counter "clobbered" in the compiler's eyes. */
static __attribute__((noinline)) void fiber_prepare(fiber *f, stex_invocation *inv)
{
    f->inv = inv;
    f->state = FIBER_READY;
    getcontext(&f->ctx);
    f->ctx.uc_stack.ss_sp = f->stack;
    f->ctx.uc_stack.ss_size = FIBER_STACK_SIZE;
    f->ctx.uc_link = NULL;
    makecontext(&f->ctx, trampoline, 0);
}

bool fiber_run_workgroup(struct stex_exec *e, stex_invocation *invs, uint32_t n,
                         stex_kernel_fn kernel)
{
    static const char *const names[] = {"workgroupBarrier", "storageBarrier", "textureBarrier"};
    struct fiber_pool *fp = e->fibers;
    tl_pool = fp;
    fp->kernel = kernel;
    for (uint32_t i = 0; i < n; i++)
        fiber_prepare(&fp->f[i], &invs[i]);
    for (uint32_t phase = 0;; phase++) {
        phase_order(e, fp, n, phase);
        for (uint32_t k = 0; k < n; k++)
            if (fp->f[fp->order[k]].state == FIBER_READY)
                resume(fp, &fp->f[fp->order[k]]);
        fp->current = NULL;
        uint32_t done = 0, waiting = 0, first_wait = n, first_done = n;
        bool mixed = false;
        for (uint32_t i = 0; i < n; i++) {
            if (fp->f[i].state == FIBER_DONE) {
                done++;
                first_done = first_done < n ? first_done : i;
            } else {
                if (waiting && fp->f[i].barrier != fp->f[first_wait].barrier)
                    mixed = true;
                waiting++;
                first_wait = first_wait < n ? first_wait : i;
            }
        }
        if (!waiting)
            return true;
        if (done || mixed) {
            const fiber *w = &fp->f[first_wait];
            if (mixed)
                exec_shader_error(w->inv, "invocations of one workgroup wait at different "
                                  "barriers (%s and another kind): WGSL requires every "
                                  "invocation to reach the same barrier (uniform control flow)",
                                  names[w->barrier]);
            else
                exec_shader_error(w->inv, "%s reached by %u of %u invocations of the workgroup; "
                                  "local invocation %u returned without it: WGSL requires "
                                  "barriers in uniform control flow", names[w->barrier], waiting,
                                  n, first_done);
            return false;
        }
        if (e->race)
            race_barrier(e->race, fp->f[first_wait].barrier);
        for (uint32_t i = 0; i < n; i++)
            fp->f[i].state = FIBER_READY;
    }
}
