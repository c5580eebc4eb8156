/* The lane-batched builtins (shader/lanes.h): one binding lookup per call,
 * then for each active lane exactly the code a per-invocation builtin runs
 * (shader/fast.h's stex__*_b paths and their out-of-line halves), with the
 * lane's own invocation ids set first - except on the plain inline paths,
 * which read no invocation id (no race mark, no error): those lanes skip
 * stex_lanes_enter.  No semantics live here. */
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

/* for each active lane i in lane order, the mask read once per 64 lanes */
#define FOR_ACTIVE(l, i)                                                              \
    for (uint32_t base_ = 0, n_ = (l)->n; base_ < n_; base_ += 64)                    \
        for (uint64_t m_ = (l)->active[base_ >> 6]; m_; m_ &= m_ - 1)                 \
            for (uint32_t i = base_ + (uint32_t)__builtin_ctzll(m_), once_ = 1; once_ && i < n_; \
                 once_ = 0)

void stex_lanes_textureStore(const stex_lanes *l, uint32_t binding, stex_view_dimension dim,
                             const int64_t *x, const int64_t *y, const int64_t *z,
                             const stex_value *v)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    FOR_ACTIVE(l, i) {
        /* the plain inline path reads no invocation id: no lane to enter */
        uint32_t tag = (uint32_t)dim | ((uint32_t)v[i].type << 8);
        if (STEX__LIKELY(b->store_tag == tag)) {
            stex__store_at(l->inv, b, at(x, i), at(y, i), at(z, i), &v[i], false);
            continue;
        }
        stex_lanes_enter(l, i);
        stex__store_b(l->inv, b, binding, dim, at(x, i), at(y, i), at(z, i), &v[i]);
    }
}

void stex_lanes_textureLoad(const stex_lanes *l, uint32_t binding, stex_view_dimension dim,
                            const int64_t *x, const int64_t *y, const int64_t *z,
                            stex_value *out)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    FOR_ACTIVE(l, i) {
        int64_t xi = at(x, i), yi = at(y, i), zi = at(z, i);
        bool in = ((uint64_t)xi < b->w) & ((uint64_t)yi < b->h) & ((uint64_t)zi < b->d);
        if (STEX__LIKELY((b->load_tag == (uint32_t)dim) & in)) {
            out[i] = stex__load_at(l->inv, b, xi, yi, zi, false);
            continue;
        }
        stex_lanes_enter(l, i);
        out[i] = stex__load_b(l->inv, b, binding, dim, xi, yi, zi);
    }
}

void stex_lanes_textureLoad_level_2d(const stex_lanes *l, uint32_t binding, const int64_t *x,
                                     const int64_t *y, const int64_t *level, stex_vec4 *out)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    FOR_ACTIVE(l, i) {
        int64_t lv = at(level, i);
        if (STEX__LIKELY(b->sampled_2d & (lv == 0) & ((uint64_t)x[i] < b->w) &
                         ((uint64_t)y[i] < b->h))) {
            const stex_exec_fast *e = (const stex_exec_fast *)(const void *)l->inv->exec;
            out[i] = stex__decode_fast(e->profile, b, b->memory + b->col[x[i]] + b->row[y[i]]);
            continue;
        }
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

void stex_lanes_textureLoad_sampled(const stex_lanes *l, uint32_t binding,
                                    stex_view_dimension dim, const int64_t *x, const int64_t *y,
                                    const int64_t *z, const int64_t *ls, stex_value *out)
{
    /* out of line already: each lane calls the builtin itself */
    FOR_ACTIVE(l, i) {
        stex_lanes_enter(l, i);
        out[i] = stex_textureLoad_sampled(l->inv, binding, dim, at(x, i), at(y, i), at(z, i),
                                          at(ls, i));
    }
}

void stex_lanes_textureSample(const stex_lanes *l, uint32_t texture_binding,
                              uint32_t sampler_binding, const stex_sample_args *a,
                              stex_vec4 *out)
{
    FOR_ACTIVE(l, i) {
        stex_lanes_enter(l, i);
        out[i] = stex_textureSample(l->inv, texture_binding, sampler_binding, &a[i]);
    }
}

void stex_lanes_buffer_load(const stex_lanes *l, uint32_t binding, const uint64_t *index,
                            uint32_t *out)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    if (b->buf_load == STEX__BUF_WORDS) { /* plain: in-range words read inline */
        const uint8_t *buf = b->buf;
        uint64_t words = b->buf_words;
        const uint64_t *active = l->active;
        uint32_t n = l->n;
        if (n <= 64 && active[0] == (n == 64 ? ~0ull : (1ull << n) - 1)) {
            uint32_t i = 0; /* every lane: no mask to walk */
            while (i < n && index[i] < words) {
                memcpy(&out[i], buf + index[i] * 4, 4);
                i++;
            }
            if (i == n)
                return;
        }
        for (uint32_t base = 0; base < n; base += 64) {
            /* the active lanes in lane order, the mask read once per 64 lanes */
            for (uint64_t m = active[base >> 6]; m; m &= m - 1) {
                uint32_t i = base + (uint32_t)__builtin_ctzll(m);
                if (i >= n)
                    break;
                if (STEX__LIKELY(index[i] < words)) {
                    memcpy(&out[i], buf + index[i] * 4, 4);
                    continue;
                }
                stex_lanes_enter(l, i);
                out[i] = stex__buffer_load_b(l->inv, b, binding, index[i]);
            }
        }
        return;
    }
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
            if (STEX__LIKELY((b->buf_store == STEX__BUF_WORDS) & (index[i] < b->buf_words))) {
                stex__store32(b->buf + index[i] * 4, v[i]);
                continue;
            }
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
