/* dispatchWorkgroups: workgroups handed to OpenMP threads in the schedule's
 * order; inside a workgroup, invocations run as a plain loop (no barriers),
 * or phase by phase by an executor (phase.h): fibers for a C kernel with
 * barriers, or the pipeline's own.  One thread + one seed = one result, bit
 * for bit. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "common/cancel_internal.h"
#include "common/error.h"
#include "convert/fast.h"
#include "dispatch/dispatch_internal.h"
#include "race/race_internal.h"

/* Who runs a pipeline's workgroups phase by phase: its own executor, the
 * fibers for a C kernel with barriers, or nobody (the plain loop). */
static const phase_executor fibers = {fiber_run_workgroup, NULL, NULL, NULL, NULL};
static const phase_executor *workgroup_executor(const exec_dispatch *ctx)
{
    if (ctx->pipeline->executor.run_workgroup)
        return &ctx->pipeline->executor;
    return ctx->barriers ? &fibers : NULL;
}

/* Everything a thread allocates once per dispatch. */
typedef struct thread_state {
    struct stex_exec e;
    uint32_t *order;         /* plain loop: invocation order */
    uint32_t (*lid)[3];      /* local_invocation_index -> local_invocation_id */
    stex_fast_binding *far;  /* this thread's copy of every binding (e.fast.b) */
    bool oom;
} thread_state;

static bool thread_init(thread_state *t, exec_dispatch *ctx)
{
    memset(t, 0, sizeof *t);
    struct stex_exec *e = &t->e;
    e->ctx = ctx;
    e->b = ctx->b;
    e->fast.slots = ctx->slots;
    for (uint32_t i = 0; i < STEX__NEAR_BINDINGS; i++) /* @group(0) is slots 0, 1, ... */
        e->fast.near[i] = i < ctx->slots.count[0] ? ctx->fb[i] : stex__no_binding;
    e->fast.profile = ctx->profile;
    e->fast.f32_ieee = stex_math_f32_is_ieee(ctx->profile);
    stex__unorm8_rule(&ctx->profile->pack_norm, &e->fast.pack_u8_round, &e->fast.pack_u8_nan);
    e->fast.unpack_u8 = stex__unorm8_values(ctx->profile->unpack_norm);
    e->fast.slow = ctx->slow;
    uint32_t n = ctx->wg_invocations;
    t->order = malloc(n * sizeof *t->order);
    t->lid = malloc(n * sizeof *t->lid);
    t->far = malloc((ctx->nb ? ctx->nb : 1) * sizeof *t->far); /* malloc(0) may be NULL */
    if (!t->order || !t->lid || !t->far)
        return false;
    memcpy(t->far, ctx->fb, ctx->nb * sizeof *t->far);
    e->fast.b = t->far;
    for (uint32_t i = 0; i < n; i++) {
        t->lid[i][0] = i % ctx->wg_size[0];
        t->lid[i][1] = i / ctx->wg_size[0] % ctx->wg_size[1];
        t->lid[i][2] = i / (ctx->wg_size[0] * ctx->wg_size[1]);
    }
    if (ctx->wg_memory_size && !(e->wg_mem = calloc(1, ctx->wg_memory_size)))
        return false;
    if (workgroup_executor(ctx) && !(e->phase = phase_state_create(n)))
        return false;
    if (workgroup_executor(ctx) == &fibers)
        e->barrier = fiber_barrier; /* the builtins' barriers yield to the fiber runner */
    if (workgroup_executor(ctx) == &fibers && !(e->fibers = fiber_pool_create(n)))
        return false;
    if (ctx->opt.visibility == STEX_VISIBILITY_SNAPSHOT && !(e->overlay = overlay_create()))
        return false;
    if (ctx->race && !(e->race = race_thread_create(ctx->race)))
        return false;
    e->fast.race_tid = (uint32_t)omp_get_thread_num();
    if (ctx->race && race_dispatch_summary(ctx->race)) {
        /* the inline marks go straight to this thread's words and touch marks */
        e->fast.race_base = race_dispatch_key_base(ctx->race);
        for (uint32_t i = 0; i < STEX__NEAR_BINDINGS + ctx->nb; i++) {
            stex_fast_binding *f = i < STEX__NEAR_BINDINGS ? &e->fast.near[i]
                                                           : &t->far[i - STEX__NEAR_BINDINGS];
            if (f->race) {
                f->race += (uint64_t)e->fast.race_tid * f->race_count;
                f->race_touch += (uint64_t)e->fast.race_tid * f->race_runs;
            }
        }
    }
    /* the race summary alone (no snapshot, no observer) is recorded inline;
     * any other reason to be slow sends every access out of line */
    bool inline_race = ctx->race && race_dispatch_summary(ctx->race) && !e->overlay
                       && !race_dispatch_sites(ctx->race) /* sites go out of line */
                       && !ctx->opt.store_observer;
    bool sites_only = ctx->race && race_dispatch_summary(ctx->race) && !e->overlay
                      && race_dispatch_sites(ctx->race) && !ctx->opt.store_observer;
    if (e->fast.slow && sites_only)
        exec_fast_disable_recorded(e); /* what no race can touch stays inline */
    else if (e->fast.slow && !inline_race)
        exec_fast_disable(e);
    return true;
}

static void thread_fini(thread_state *t)
{
    if (t->e.race)
        race_thread_finish(t->e.race);
    t->e.race = NULL;
    overlay_destroy(t->e.overlay);
    fiber_pool_destroy(t->e.fibers);
    phase_state_destroy(t->e.phase);
    free(t->e.wg_mem);
    free(t->order);
    free(t->lid);
    free(t->far);
    free(t->e.windows);
}

static void run_workgroup(thread_state *t, uint64_t wg)
{
    struct stex_exec *e = &t->e;
    const exec_dispatch *ctx = e->ctx;
    const uint32_t *sz = ctx->wg_size, *nw = ctx->num_wg;
    stex_invocation inv;
    memset(&inv, 0, sizeof inv);
    inv.workgroup_id[0] = (uint32_t)(wg % nw[0]);
    inv.workgroup_id[1] = (uint32_t)(wg / nw[0] % nw[1]);
    inv.workgroup_id[2] = (uint32_t)(wg / ((uint64_t)nw[0] * nw[1]));
    memcpy(inv.num_workgroups, nw, sizeof inv.num_workgroups);
    inv.params = ctx->opt.params;
    inv.workgroup_memory = e->wg_mem;
    inv.exec = e;
    const uint32_t base[3] = {inv.workgroup_id[0] * sz[0], inv.workgroup_id[1] * sz[1],
                              inv.workgroup_id[2] * sz[2]};
    e->wg = wg;
    if (!e->dead && atomic_load_explicit(&ctx->failed, memory_order_relaxed))
    {
        e->dead = e->fast.slow = true; /* another thread hit a shader error */
        exec_fast_disable(e);
    }
    if (e->wg_mem)
        memset(e->wg_mem, 0, ctx->wg_memory_size); /* var<workgroup> starts zeroed */
    if (e->overlay)
        overlay_clear(e->overlay);
    if (e->race) {
        race_workgroup_begin(e->race, wg);
        /* summary mode: < 2^30 */
        e->race_key = (uint32_t)(wg * ctx->wg_invocations + race_dispatch_key_base(ctx->race));
        e->fast.race_key = e->race_key;
    }
    stex_workgroup w = {&inv, NULL, (const uint32_t(*)[3])t->lid, {base[0], base[1], base[2]},
                        {sz[0], sz[1], sz[2]}};
    const phase_executor *x = workgroup_executor(ctx);
    if (x) { /* phase by phase; the executor takes each phase's order from phase_order */
        phase_begin(e, &w);
        x->run_workgroup(&w, x->user);
    } else { /* the plain loop: the kernel's workgroup function, or the kernel called */
        if (ctx->opt.schedule != STEX_SCHEDULE_IN_ORDER) { /* seeded per workgroup */
            sched_invocation_order(t->order, ctx->wg_invocations, ctx->opt.schedule,
                                   sched_mix(ctx->opt.seed, wg));
            w.order = t->order;
        }
        if (ctx->pipeline->workgroup)
            ctx->pipeline->workgroup(&w);
        else
            stex__workgroup_loop(&w, ctx->kernel);
        if (ctx->after_phase) /* one phase: barriers belong to the executors */
            ctx->after_phase(ctx->after_phase_user, inv.workgroup_id, 0, true);
    }
    if (e->race)
        race_workgroup_end(e->race);
}

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch((p), 1)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* Warms the cache for a workgroup about to run: in each 2d storage texture,
 * the texels whose coordinates equal the workgroup's global ids (the usual
 * one-invocation-per-texel mapping).  Only a hint: it reads nothing. */
static void prefetch_workgroup(const exec_dispatch *ctx, uint64_t wg)
{
    uint64_t x0 = wg % ctx->num_wg[0] * ctx->wg_size[0];
    uint64_t y0 = wg / ctx->num_wg[0] % ctx->num_wg[1] * ctx->wg_size[1];
    for (uint32_t i = 0; i < ctx->nb; i++) {
        const stex_fast_binding *b = &ctx->fb[i];
        if (!b->memory || !b->col || x0 >= b->w || y0 >= b->h)
            continue;
        uint64_t x1 = x0 + ctx->wg_size[0] - 1 < b->w ? x0 + ctx->wg_size[0] - 1 : b->w - 1;
        for (uint64_t y = y0; y < y0 + ctx->wg_size[1] && y < b->h; y++) {
            PREFETCH(b->memory + b->col[x0] + b->row[y]);
            PREFETCH(b->memory + b->col[x1] + b->row[y]);
        }
    }
}

static stex_status validate_counts(const stex_pipeline *p, const uint32_t n[3])
{
    uint64_t max = stex_device_limits(p->dev)->max_compute_workgroups_per_dimension;
    static const char axis[] = "xyz";
    for (int i = 0; i < 3; i++)
        if (n[i] > max)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "dispatchWorkgroups(%u, %u, %u): workgroupCount%c = %u exceeds "
                             "maxComputeWorkgroupsPerDimension (%llu)", n[0], n[1], n[2],
                             axis[i] - 'a' + 'A', n[i], (unsigned long long)max);
    return STEX_OK;
}

/* setBindGroup's and dispatchWorkgroups' checks on the groups set. */
static stex_status validate_groups(const stex_pipeline *p, const stex_bound_group *groups,
                                   uint32_t count)
{
    const stex_limits *l = stex_device_limits(p->dev);
    if (count > STEX__MAX_GROUPS || count > l->max_bind_groups)
        return stex_fail(STEX_VALIDATION_ERROR, "setBindGroup: index %u is not below "
                         "maxBindGroups (%llu)", count - 1, (unsigned long long)l->max_bind_groups);
    for (uint32_t i = 0; i < STEX__MAX_GROUPS; i++) {
        const stex_bind_group *g = i < count ? groups[i].group : NULL;
        if (!(p->groups >> i & 1u))
            continue; /* a group the layout lacks may be set or not: unused */
        if (!g)
            return stex_fail(STEX_VALIDATION_ERROR, "dispatchWorkgroups: the pipeline's layout "
                             "has @group(%u), but no bind group is set at index %u", i, i);
        if (!bind_group_compatible(g, p, i))
            return stex_fail(STEX_VALIDATION_ERROR, "dispatchWorkgroups: the bind group at "
                             "index %u was created for another pipeline's layout or group", i);
        if (groups[i].dynamic_offset_count != g->dynamic_count)
            return stex_fail(STEX_VALIDATION_ERROR, "setBindGroup(%u): %u dynamic offsets given, "
                             "the layout has %u entries with hasDynamicOffset", i,
                             groups[i].dynamic_offset_count, g->dynamic_count);
        uint32_t dyn = 0;
        for (uint32_t k = 0; k < g->n; k++) {
            const stex_layout_entry *le = &g->p->entries[g->first + k];
            if (!le->buffer.has_dynamic_offset)
                continue;
            uint64_t off = groups[i].dynamic_offsets[dyn++];
            bool uniform = le->type == STEX_BINDING_UNIFORM_BUFFER;
            uint64_t align = uniform ? l->min_uniform_buffer_offset_alignment
                                     : l->min_storage_buffer_offset_alignment;
            if (off % align)
                return stex_fail(STEX_VALIDATION_ERROR, "setBindGroup(%u): dynamic offset %llu of "
                                 "binding %u is not a multiple of %s (%llu)", i,
                                 (unsigned long long)off, le->binding,
                                 uniform ? "minUniformBufferOffsetAlignment"
                                         : "minStorageBufferOffsetAlignment",
                                 (unsigned long long)align);
            const stex_bind_group_entry *be = &g->e[k];
            if (be->offset + be->size + off > stex_buffer_size(be->buffer))
                return stex_fail(STEX_VALIDATION_ERROR, "setBindGroup(%u): binding %u's range "
                                 "[%llu, %llu) with dynamic offset %llu is outside the buffer's "
                                 "%llu bytes", i, le->binding, (unsigned long long)be->offset,
                                 (unsigned long long)(be->offset + be->size),
                                 (unsigned long long)off,
                                 (unsigned long long)stex_buffer_size(be->buffer));
        }
    }
    return STEX_OK;
}

/* The usage scope of the groups set (fewer than four: the rest unset). */
static stex_status scope_of(const stex_pipeline *p, const stex_bound_group *groups,
                            uint32_t count)
{
    stex_bound_group set[STEX__MAX_GROUPS] = {{0}};
    memcpy(set, groups, count * sizeof *groups);
    return bind_group_check_scope(p, set);
}

stex_status stex_dispatch(const stex_pipeline *p, const stex_bind_group *g, uint32_t x,
                          uint32_t y, uint32_t z, const stex_dispatch_options *opt)
{
    if (!p || !g)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_dispatch: pipeline or bind group is NULL");
    if (!bind_group_compatible(g, p, 0))
        return stex_fail(STEX_VALIDATION_ERROR, "dispatchWorkgroups: the bind group was created "
                         "for another pipeline's layout");
    stex_bound_group set = {g, NULL, 0};
    return stex_dispatch_bound(p, &set, 1, x, y, z, opt);
}

stex_status stex_check_dispatch(const stex_pipeline *p, const stex_bound_group *groups,
                                uint32_t count, uint32_t x, uint32_t y, uint32_t z)
{
    if (!p || (count && !groups))
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_dispatch: pipeline or groups is NULL");
    stex_status st = validate_groups(p, groups, count);
    if (!st)
        st = scope_of(p, groups, count);
    const uint32_t count3[3] = {x, y, z};
    return st ? st : validate_counts(p, count3);
}

stex_status stex_check_dispatch_indirect(const stex_pipeline *p, const stex_bound_group *groups,
                                         uint32_t count, const stex_buffer *indirect)
{
    if (!indirect)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_check_dispatch_indirect: no indirect buffer");
    stex_status st = stex_check_dispatch(p, groups, count, 0, 0, 0);
    if (st)
        return st;
    stex_bound_group set[STEX__MAX_GROUPS] = {{0}};
    memcpy(set, groups, count * sizeof *groups);
    return bind_group_check_indirect(p, set, indirect);
}

stex_status stex_dispatch_bound(const stex_pipeline *p, const stex_bound_group *groups,
                                uint32_t count, uint32_t x, uint32_t y, uint32_t z,
                                const stex_dispatch_options *opt)
{
    if (!p || (count && !groups))
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_dispatch: pipeline or groups is NULL");
    stex_status st = validate_groups(p, groups, count);
    if (!st)
        st = scope_of(p, groups, count);
    if (st)
        return st;
    stex_bound_group set[STEX__MAX_GROUPS] = {{0}};
    memcpy(set, groups, count * sizeof *groups);
    const uint32_t count3[3] = {x, y, z};
    st = validate_counts(p, count3);
    if (st)
        return st;
    if (!x || !y || !z)
        return STEX_OK; /* an empty dispatch runs nothing */

    exec_dispatch ctx;
    memset(&ctx, 0, sizeof ctx);
    stex_dispatch_options o = {0};
    if (opt)
        o = *opt;
    if ((unsigned)o.schedule > STEX_SCHEDULE_INTERLEAVED
        || (unsigned)o.visibility > STEX_VISIBILITY_SNAPSHOT
        || (unsigned)o.oob_load > STEX_OOB_LOAD_RANDOM_TEXEL)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_dispatch: unknown schedule, visibility or "
                         "oob_load value");
    ctx.pipeline = p;
    ctx.kernel = p->kernel;
    ctx.opt = (exec_options){(int)o.schedule, o.seed, o.visibility, o.oob_load, o.params,
                             o.store_observer, o.store_observer_user};
    ctx.profile = o.profile ? o.profile : stex_device_profile(p->dev);
    ctx.after_phase = o.after_phase;
    ctx.after_phase_user = o.after_phase_user;
    memcpy(ctx.wg_size, p->wg, sizeof ctx.wg_size);
    ctx.wg_invocations = p->invocations;
    memcpy(ctx.num_wg, count3, sizeof ctx.num_wg);
    ctx.total_wg = (uint64_t)x * y * z;
    ctx.wg_memory_size = p->wg_memory_size;
    ctx.barriers = p->barriers;
    /* the store observer is called from the out-of-line textureStore only */
    ctx.slow = o.races || ctx.opt.visibility == STEX_VISIBILITY_SNAPSHOT
               || ctx.opt.store_observer;

    int threads = o.threads > 0 ? o.threads : omp_get_num_procs();
    if ((uint64_t)threads > ctx.total_wg)
        threads = (int)ctx.total_wg;
    ctx.threads = threads;
    ctx.cancel = o.cancel;
    if (stex_cancel_check(o.cancel))
        return stex_cancel_fail(o.cancel, "dispatchWorkgroups");
    st = bind_group_prepare(set, &ctx);
    if (!st && o.races)
        st = dispatch_race_begin(o.races, &ctx, &ctx.race);
    if (st) {
        bind_group_release(&ctx);
        return st;
    }

    thread_state *ts = calloc((size_t)threads, sizeof *ts);
    if (!ts) {
        dispatch_race_free(&ctx, ctx.race);
        bind_group_release(&ctx);
        return stex_fail(STEX_OUT_OF_MEMORY, "dispatchWorkgroups: out of memory");
    }
    perm order;
    perm_init(&order, ctx.total_wg, o.schedule, o.seed);
    uint64_t chunk = ctx.total_wg / ((uint64_t)threads * 16);
    chunk = chunk < 1 ? 1 : chunk > 256 ? 256 : chunk;

    /* Chunks of workgroups taken from one counter (OpenMP's dynamic
     * schedule written out, so that a cancelled dispatch stops taking
     * chunks instead of skipping up to 2^48 workgroups one by one): the
     * cancel flag is read before each workgroup, its deadline's clock
     * before each chunk and every 16 workgroups. */
    _Atomic uint64_t next_chunk = 0;
    const uint64_t chunks = (ctx.total_wg + chunk - 1) / chunk;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        thread_state *t = &ts[omp_get_thread_num()];
        bool ok = thread_init(t, &ctx);
        if (!ok)
            t->oom = true;
        uint64_t next_i = UINT64_MAX, next_wg = 0; /* the workgroup prefetched last */
        for (;;) {
            uint64_t c0 = atomic_fetch_add_explicit(&next_chunk, 1, memory_order_relaxed);
            if (c0 >= chunks || !ok || stex_cancel_check(ctx.cancel))
                break;
            uint64_t end = (c0 + 1) * chunk < ctx.total_wg ? (c0 + 1) * chunk : ctx.total_wg;
            for (uint64_t i = c0 * chunk; i < end; i++) {
                if (ctx.cancel && (cancel_raised(ctx.cancel)
                                   || (!(i & 15) && stex_cancel_check(ctx.cancel))))
                    break;
                uint64_t wg = i == next_i ? next_wg : perm_at(&order, i);
                if (i + 1 < end) { /* a chunk's iterations are consecutive */
                    next_i = i + 1;
                    next_wg = perm_at(&order, next_i);
                    prefetch_workgroup(&ctx, next_wg);
                }
                run_workgroup(t, wg);
            }
        }
        thread_fini(t);
    }

    st = STEX_OK;
    const struct stex_exec *err = NULL;
    for (int i = 0; i < threads; i++) {
        if (ts[i].oom)
            st = stex_fail(STEX_OUT_OF_MEMORY, "dispatchWorkgroups: out of memory for the "
                           "workers' state");
        const struct stex_exec *e = &ts[i].e;
        if (e->has_error && (!err || e->err_wg < err->err_wg
                             || (e->err_wg == err->err_wg && e->err_lid < err->err_lid)))
            err = e;
    }
    bool cancelled = ctx.cancel && stex_cancel_check(ctx.cancel);
    if (!st && ctx.race && !cancelled)
        st = race_dispatch_end(ctx.race);
    dispatch_race_free(&ctx, ctx.race);
    if (err)
        st = stex_fail(STEX_SHADER_ERROR, "%s", err->err_msg);
    if (cancelled) /* stopped part way: no verdict, whatever else happened */
        st = stex_cancel_fail(ctx.cancel, "dispatchWorkgroups");
    free(ts);
    bind_group_release(&ctx);
    return st;
}
