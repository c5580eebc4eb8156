/* The lane-batched builtins (shader/lanes.h): one binding lookup per call,
 * then for each active lane exactly the code a per-invocation builtin runs
 * (shader/fast.h's stex__*_b paths and their out-of-line halves), with the
 * lane's own invocation ids set first.  No semantics live here. */
#include "race/race_internal.h"
#include "shader/exec.h"
#include "shader/lanes.h"

void stex_lanes_enter(const stex_lanes *l, uint32_t i)
{
    stex_invocation *inv = l->inv;
    const uint32_t *size = inv->exec->ctx->wg_size;
    uint32_t idx = l->lid[i];
    uint32_t id[3] = {idx % size[0], idx / size[0] % size[1], idx / (size[0] * size[1])};
    for (int c = 0; c < 3; c++) {
        inv->local_invocation_id[c] = id[c];
        inv->global_invocation_id[c] = inv->workgroup_id[c] * size[c] + id[c];
    }
    inv->local_invocation_index = idx;
    if (inv->exec->race)
        race_thread_site(inv->exec->race, l->site);
}

static inline int64_t at(const int64_t *a, uint32_t i) { return a ? a[i] : 0; }

void stex_lanes_textureStore(const stex_lanes *l, uint32_t binding, stex_view_dimension dim,
                             const int64_t *x, const int64_t *y, const int64_t *z,
                             const stex_value *v)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    for (uint32_t i = 0; i < l->n; i++)
        if (stex_lane_active(l, i)) {
            stex_lanes_enter(l, i);
            stex__store_b(l->inv, b, binding, dim, at(x, i), at(y, i), at(z, i), &v[i]);
        }
}

void stex_lanes_textureLoad(const stex_lanes *l, uint32_t binding, stex_view_dimension dim,
                            const int64_t *x, const int64_t *y, const int64_t *z,
                            stex_value *out)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    for (uint32_t i = 0; i < l->n; i++)
        if (stex_lane_active(l, i)) {
            stex_lanes_enter(l, i);
            out[i] = stex__load_b(l->inv, b, binding, dim, at(x, i), at(y, i), at(z, i));
        }
}

void stex_lanes_textureLoad_level_2d(const stex_lanes *l, uint32_t binding, const int64_t *x,
                                     const int64_t *y, const int64_t *level, stex_vec4 *out)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    for (uint32_t i = 0; i < l->n; i++)
        if (stex_lane_active(l, i)) {
            stex_lanes_enter(l, i);
            out[i] = stex__load_level_b(l->inv, b, binding, x[i], y[i], at(level, i));
        }
}

void stex_lanes_textureSampleLevel_2d(const stex_lanes *l, uint32_t texture_binding,
                                      uint32_t sampler_binding, const float *u, const float *v,
                                      const float *level, stex_vec4 *out)
{
    /* sampling is out of line already: each lane calls the builtin itself */
    for (uint32_t i = 0; i < l->n; i++)
        if (stex_lane_active(l, i)) {
            stex_lanes_enter(l, i);
            out[i] = stex_textureSampleLevel_2d(l->inv, texture_binding, sampler_binding, u[i],
                                                v[i], level ? level[i] : 0.0f);
        }
}

void stex_lanes_buffer_load(const stex_lanes *l, uint32_t binding, const uint64_t *index,
                            uint32_t *out)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    for (uint32_t i = 0; i < l->n; i++)
        if (stex_lane_active(l, i)) {
            stex_lanes_enter(l, i);
            out[i] = stex__buffer_load_b(l->inv, b, binding, index[i]);
        }
}

void stex_lanes_buffer_store(const stex_lanes *l, uint32_t binding, const uint64_t *index,
                             const uint32_t *v)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    for (uint32_t i = 0; i < l->n; i++)
        if (stex_lane_active(l, i)) {
            stex_lanes_enter(l, i);
            stex__buffer_store_b(l->inv, b, binding, index[i], v[i]);
        }
}

void stex_lanes_atomic(const stex_lanes *l, stex_atomic_op op, uint32_t binding,
                       const uint64_t *index, const uint32_t *v, const uint32_t *cmp,
                       uint32_t *old, bool *exchanged)
{
    const exec_binding *b = NULL;
    for (uint32_t i = 0; i < l->n; i++) {
        if (!stex_lane_active(l, i))
            continue;
        stex_lanes_enter(l, i);
        if (!b && !(b = exec_atomic_binding(l->inv, binding, op)))
            return; /* one error for the call, named at its first active lane */
        uint32_t r = exec_atomic_at(l->inv, b, op, index[i], v ? v[i] : 0, cmp ? cmp[i] : 0,
                                    exchanged ? &exchanged[i] : NULL);
        if (old)
            old[i] = r;
    }
}
