/* Barriers as an engine service (phase.h): what happens when every
 * invocation of a workgroup has stopped at a barrier or returned, whoever
 * ran them - the fiber runner or an executor with its own state. */
#include <stdio.h>
#include <stdlib.h>

#include "dispatch/dispatch_internal.h"
#include "dispatch/phase.h"
#include "race/race_internal.h"

enum { STOP_BARRIER = 1, STOP_RETURNED };

/* An invocation's report in the phase stamped `epoch`; an older stamp means
 * it is still running.  Stamps spare the per-phase reset of every entry. */
typedef struct phase_stop {
    uint32_t epoch;
    uint8_t state;      /* STOP_*, valid when epoch is the running phase's */
    uint8_t kind;       /* exec_barrier, at a barrier */
    uint32_t site;
} phase_stop;

struct phase_state {
    const stex_workgroup *w;
    uint32_t n;         /* invocations per workgroup */
    uint32_t phase;     /* of the running workgroup */
    uint32_t epoch;     /* the running phase's stamp: never 0, new every phase */
    uint32_t returned;  /* reports of this phase, by kind */
    uint32_t arrived;
    phase_stop *stop;   /* per local index */
    uint32_t *order;
    bool bad_report;    /* an invocation was reported twice or out of range */
};

struct phase_state *phase_state_create(uint32_t invocations)
{
    struct phase_state *ps = calloc(1, sizeof *ps);
    if (!ps)
        return NULL;
    ps->n = invocations;
    ps->epoch = 1;
    ps->stop = calloc(invocations, sizeof *ps->stop);
    ps->order = malloc(invocations * sizeof *ps->order);
    if (!ps->stop || !ps->order) {
        phase_state_destroy(ps);
        return NULL;
    }
    return ps;
}

void phase_state_destroy(struct phase_state *ps)
{
    if (!ps)
        return;
    free(ps->stop);
    free(ps->order);
    free(ps);
}

/* A new phase: a new stamp (after 2^32 phases the stamps start over, every
 * entry cleared so that none looks reported) and no reports. */
static void next_epoch(struct phase_state *ps)
{
    if (++ps->epoch == 0) {
        for (uint32_t i = 0; i < ps->n; i++)
            ps->stop[i].epoch = 0;
        ps->epoch = 1;
    }
    ps->returned = ps->arrived = 0;
}

void phase_begin(struct stex_exec *e, const stex_workgroup *w)
{
    struct phase_state *ps = e->phase;
    ps->w = w;
    ps->phase = 0;
    ps->bad_report = false;
    next_epoch(ps);
}

void phase_invocation(const stex_workgroup *w, uint32_t lid, stex_invocation *inv)
{
    *inv = *w->inv;
    for (int c = 0; c < 3; c++) {
        inv->local_invocation_id[c] = w->lid[lid][c];
        inv->global_invocation_id[c] = w->base[c] + w->lid[lid][c];
    }
    inv->local_invocation_index = lid;
}

const uint32_t *phase_order(struct stex_exec *e)
{
    struct phase_state *ps = e->phase;
    const exec_options *o = &e->ctx->opt;
    /* seeded by (seed, workgroup, phase): not by the thread */
    sched_invocation_order(ps->order, ps->n, (stex_schedule)o->schedule,
                           sched_mix(sched_mix(o->seed, e->wg), ps->phase + 1));
    return ps->order;
}

bool phase_interleave(struct stex_exec *e, uint64_t *seed)
{
    const exec_options *o = &e->ctx->opt;
    if (o->schedule != STEX_SCHEDULE_INTERLEAVED)
        return false;
    /* apart from phase_order's stream: another last key */
    *seed = sched_mix(sched_mix(sched_mix(o->seed, e->wg), e->phase->phase + 1), 0x1d7e);
    return true;
}

static phase_stop *reported(struct phase_state *ps, uint32_t lid)
{
    if (lid >= ps->n || ps->stop[lid].epoch == ps->epoch ||
        ps->returned + ps->arrived >= ps->n) {
        ps->bad_report = true; /* an executor's bug: phase_end names it */
        return NULL;
    }
    ps->stop[lid].epoch = ps->epoch;
    return &ps->stop[lid];
}

void phase_arrive(struct stex_exec *e, uint32_t lid, exec_barrier kind, uint32_t site)
{
    phase_stop *s = reported(e->phase, lid);
    if (s) {
        s->state = STOP_BARRIER, s->kind = (uint8_t)kind, s->site = site;
        e->phase->arrived++;
    }
}

void phase_return(struct stex_exec *e, uint32_t lid)
{
    phase_stop *s = reported(e->phase, lid);
    if (s) {
        s->state = STOP_RETURNED;
        e->phase->returned++;
    }
}

void phase_return_range(struct stex_exec *e, uint32_t first, uint32_t count)
{
    struct phase_state *ps = e->phase;
    if (first > ps->n || count > ps->n - first) {
        ps->bad_report = true;
        return;
    }
    if (count == ps->n && !ps->returned && !ps->arrived) {
        /* the whole workgroup, nothing reported yet: the count says it all
         * (reported() refuses any report beyond n) */
        ps->returned = count;
        return;
    }
    uint32_t epoch = ps->epoch, seen = 0;
    phase_stop *s = ps->stop + first;
    for (uint32_t i = 0; i < count; i++) {
        seen |= s[i].epoch == epoch;
        s[i].epoch = epoch, s[i].state = STOP_RETURNED;
    }
    ps->bad_report |= seen != 0 || ps->returned + ps->arrived + count > ps->n;
    ps->returned += count;
}

/* The shader error of a phase, charged to local invocation `lid`. */
#define PHASE_FAIL(ps, lid, ...)                                              \
    do {                                                                      \
        stex_invocation inv_;                                                 \
        phase_invocation((ps)->w, (lid), &inv_);                              \
        exec_shader_error(&inv_, __VA_ARGS__);                                \
    } while (0)

/* stex_dispatch_options.after_phase, when given: the phase just ended. */
static void notify(const struct stex_exec *e, bool last)
{
    const exec_dispatch *c = e->ctx;
    if (c->after_phase)
        c->after_phase(c->after_phase_user, e->phase->w->inv->workgroup_id, e->phase->phase,
                       last);
}

phase_result phase_end(struct stex_exec *e)
{
    struct phase_state *ps = e->phase;
    const uint32_t n = ps->n;
    if (!ps->bad_report && ps->returned == n) { /* the common end: all returned */
        next_epoch(ps);
        notify(e, true);
        return PHASE_DONE;
    }
    uint32_t arrived = 0, first = n, other = n, returned = n, missing = n;
    /* in local index order, so the error named does not depend on the schedule */
    for (uint32_t i = 0; i < n; i++) {
        const phase_stop *s = &ps->stop[i];
        if (s->epoch != ps->epoch)
            missing = missing < n ? missing : i;
        else if (s->state == STOP_BARRIER) {
            arrived++;
            if (first == n)
                first = i;
            else if (other == n && (s->kind != ps->stop[first].kind
                                    || s->site != ps->stop[first].site))
                other = i;
        } else
            returned = returned < n ? returned : i;
    }
    const phase_stop at = first < n ? ps->stop[first] : (phase_stop){0};
    next_epoch(ps);
    if (ps->bad_report || missing < n) {
        PHASE_FAIL(ps, missing < n ? missing : 0, "stex engine: the executor ended phase %u "
                   "without reporting every invocation exactly once (a bug of the executor, "
                   "not of the shader)", ps->phase);
        return PHASE_ERROR;
    }
    if (!arrived) {
        notify(e, true);
        return PHASE_DONE;
    }
    const char *name = exec_barrier_name((exec_barrier)at.kind);
    if (!e->ctx->barriers) {
        PHASE_FAIL(ps, first, "%s in a pipeline created without uses_barriers", name);
        return PHASE_ERROR;
    }
    if (other < n) {
        const phase_stop *o = &ps->stop[other];
        char a[48] = "", b[48] = ""; /* sites tell barriers of one kind apart */
        if (o->site != at.site) {
            snprintf(a, sizeof a, " (barrier %u)", at.site);
            snprintf(b, sizeof b, " (barrier %u)", o->site);
        }
        PHASE_FAIL(ps, first, "local invocation %u waits at %s%s and local invocation %u at "
                   "%s%s: WGSL requires every invocation to reach the same barrier (uniform "
                   "control flow)", first, name, a, other, exec_barrier_name((exec_barrier)o->kind),
                   b);
        return PHASE_ERROR;
    }
    if (returned < n) {
        PHASE_FAIL(ps, first, "%s reached by %u of %u invocations of the workgroup; local "
                   "invocation %u returned without it: WGSL requires barriers in uniform "
                   "control flow", name, arrived, n, returned);
        return PHASE_ERROR;
    }
    /* The phase ends.  Everything the workgroup did before the barrier is
     * ordered before what it does after, for the memory the barrier covers:
     * the race detector judges that memory's segment now.  The engine runs a
     * workgroup on one thread, and both visibility modes show a workgroup its
     * own writes at once (snapshot keeps them in its overlay), so the memory
     * itself needs no more than a fence - for an executor that hands lanes to
     * other threads, and against the compiler moving accesses across. */
    if (e->race)
        race_barrier(e->race, (race_class)at.kind);
    atomic_thread_fence(memory_order_seq_cst);
    notify(e, false);
    ps->phase++;
    return PHASE_NEXT;
}
