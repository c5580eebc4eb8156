/* The sampling builtins on views of every dimension (resource.h,
 * stex_view_sample): level of detail, mip selection, cube face selection,
 * address modes with offsets, nearest / linear filtering on two or three
 * texel axes, depth comparison and gather, in the SPEC or LAVAPIPE
 * precision (docs/memory.md, "Sampling"). */
#include <math.h>
#include <string.h>

#include "resource/internal.h"
#include "resource/sample_axis.h"

/* What one call needs, worked out once. */
typedef struct sample_cx {
    const stex_sampler_desc *sd;
    const stex_profile *p;
    bool lavapipe;
    bool cube, cube_array;
    bool gather;                /* textureGather(Compare): the footprint's order matters */
    uint32_t naxes;             /* texel axes: 2, or 3 for a 3d view */
    stex_address_mode mode[3];
    int32_t off[3];
    bool compare;               /* texels become 1.0 (pass) or 0.0 */
    stex_compare_function cmp;
    float dref;
} sample_cx;

/* GPUCompareFunction: the reference against the texel's depth. */
static bool passes(stex_compare_function f, float ref, float d)
{
    switch (f) {
    case STEX_COMPARE_LESS: return ref < d;
    case STEX_COMPARE_EQUAL: return ref == d;
    case STEX_COMPARE_LESS_EQUAL: return ref <= d;
    case STEX_COMPARE_GREATER: return ref > d;
    case STEX_COMPARE_NOT_EQUAL: return ref != d;
    case STEX_COMPARE_GREATER_EQUAL: return ref >= d;
    case STEX_COMPARE_ALWAYS: return true;
    default: return false; /* never */
    }
}

/* Texel (x, y) of slice z (a layer, a cube face, or a 3d depth) of level a:
 * decoded, or compared with depth_ref; zero outside. */
static void texel(const sample_cx *c, const stex_view_access *a, int64_t x, int64_t y, int64_t z,
                  stex_vec4 *out)
{
    const uint8_t *t = stex_view_access_texel(a, x, y, z);
    memset(out, 0, sizeof *out);
    if (!t || !a->decode)
        return;
    a->decode(c->p, t, out);
    if (c->compare) {
        float r = passes(c->cmp, c->dref, out->f[0]) ? 1.0f : 0.0f;
        out->f[0] = out->f[1] = out->f[2] = out->f[3] = r;
    }
}

/* ---- texel indices along one axis, with a texel offset ---- */

static int64_t nearest_index(const sample_cx *c, int k, float u, uint32_t n)
{
    int32_t off = c->off[k];
    stex_address_mode m = c->mode[k];
    if (!c->lavapipe)
        return wrap(m, (int64_t)ffloor(tame(u * (float)n)) + off, n);
    if (off == 0)
        return lavapipe_nearest(m, u, n);
    /* llvmpipe adds an offset to the integer index where it floors the
     * scaled coordinate (clamp, power-of-two repeat), else off / n to the
     * normalised coordinate; its linear filter adds off / n to the
     * normalised coordinate but for clamp-to-edge (texels, before the clamp) */
    if (m == STEX_ADDRESS_CLAMP_TO_EDGE || (m == STEX_ADDRESS_REPEAT && is_pot(n)))
        return wrap(m, (int64_t)ffloor(tame(u * (float)n)) + off, n);
    return lavapipe_nearest(m, u + (float)off / (float)n, n);
}

static void linear_index(const sample_cx *c, int k, float u, uint32_t n, int64_t *i0, int64_t *i1,
                         float *w)
{
    int32_t off = c->off[k];
    stex_address_mode m = c->mode[k];
    /* llvmpipe gathers mirror-repeat on the integer indices, as Vulkan
     * does, where its filters mirror the coordinate (measured) */
    if (!c->lavapipe || (c->gather && m == STEX_ADDRESS_MIRROR_REPEAT)) {
        float cc = tame(u * (float)n - 0.5f), f = ffloor(cc);
        *w = cc - f;
        *i0 = wrap(m, (int64_t)f + off, n);
        *i1 = wrap(m, (int64_t)f + off + 1, n);
        return;
    }
    if (off == 0) {
        lavapipe_axis(m, u, n, i0, i1, w);
        return;
    }
    float len = (float)n, cc, f;
    if (m == STEX_ADDRESS_CLAMP_TO_EDGE) { /* the offset in texels, before the clamp */
        cc = u * len + (float)off;
        cc = isnan(cc) ? len : (cc < len ? cc : len);
        cc = cc > 0 ? cc : 0;
        cc = cc - 0.5f;
        f = ffloor(cc);
        *w = cc - f;
        *i0 = f < 0 ? 0 : (int64_t)f;
        *i1 = (int64_t)f + 1 > n - 1 ? n - 1 : (int64_t)f + 1;
        return;
    }
    lavapipe_axis(m, u + (float)off / len, n, i0, i1, w);
}

/* ---- one level ---- */

/* The blend of n texels t[i] with weights w[i] (SPEC: in double, rounded once). */
static float spec_sum(const double *w, const float *t, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += w[i] * (double)t[i];
    float r = (float)s;
    return isnan(r) ? spec_nan(w, t, n) : r;
}

static uint32_t cube_face(const float *d, float *s, float *t, float *ma_out, float *sc_out,
                          float *tc_out);

/* Seamless cube filtering (Vulkan, "Cube map edge handling"): texel (i, j)
 * of face `face`, one step outside it at most, is the texel of the adjacent
 * face the same direction points into. */
static void cube_texel(const sample_cx *c, const stex_view_access *a, int64_t base,
                       uint32_t face, int64_t i, int64_t j, stex_vec4 *out)
{
    uint32_t n = a->width;
    if (i >= 0 && j >= 0 && i < n && j < n) {
        texel(c, a, i, j, base + face, out);
        return;
    }
    /* the texel centre as a direction (|major| = 1), its face and place */
    double sc = 2.0 * ((double)i + 0.5) / n - 1.0, tc = 2.0 * ((double)j + 0.5) / n - 1.0;
    double d[3];
    switch (face) {
    case 0: d[0] = 1, d[1] = -tc, d[2] = -sc; break;
    case 1: d[0] = -1, d[1] = -tc, d[2] = sc; break;
    case 2: d[0] = sc, d[1] = 1, d[2] = tc; break;
    case 3: d[0] = sc, d[1] = -1, d[2] = -tc; break;
    case 4: d[0] = sc, d[1] = -tc, d[2] = 1; break;
    default: d[0] = -sc, d[1] = -tc, d[2] = -1; break;
    }
    float df[3] = {(float)d[0], (float)d[1], (float)d[2]}, s2, t2;
    uint32_t f2 = cube_face(df, &s2, &t2, NULL, NULL, NULL);
    int64_t i2 = (int64_t)floor((double)s2 * n), j2 = (int64_t)floor((double)t2 * n);
    i2 = i2 < 0 ? 0 : i2 >= n ? n - 1 : i2;
    j2 = j2 < 0 ? 0 : j2 >= n ? n - 1 : j2;
    texel(c, a, i2, j2, base + f2, out);
}

/* The 2x2 footprint of a linear filter on a cube face, across its edges;
 * a corner outside the face in both directions is the mean of the other
 * three texels. */
static int cube_footprint(const sample_cx *c, const stex_view_access *a, int64_t layer,
                          const int64_t *i0, const int64_t *i1, stex_vec4 *t)
{
    int64_t base = layer - layer % 6;
    uint32_t face = (uint32_t)(layer % 6), n = a->width;
    int corner = -1;
    for (int q = 0; q < 4; q++) {
        int64_t i = q & 1 ? i1[0] : i0[0], j = q & 2 ? i1[1] : i0[1];
        if ((i < 0 || i >= n) && (j < 0 || j >= n)) {
            corner = q;
            continue;
        }
        cube_texel(c, a, base, face, i, j, &t[q]);
    }
    if (corner < 0)
        return corner;
    for (int ch = 0; ch < 4; ch++) {
        float sum = 0;
        for (int q = 0; q < 4; q++)
            if (q != corner)
                sum += t[q].f[ch];
        t[corner].f[ch] = sum / 3.0f;
    }
    return corner;
}

static void filter_level(const sample_cx *c, const stex_view_access *a, stex_filter_mode filter,
                         const float *u, int64_t layer, stex_vec4 *out)
{
    uint32_t n[3] = {a->width, a->height, c->naxes == 3 ? a->depth : 1};
    if (filter == STEX_FILTER_NEAREST) {
        int64_t i[3] = {0, 0, layer};
        for (uint32_t k = 0; k < c->naxes; k++)
            i[k] = nearest_index(c, (int)k, u[k], n[k]);
        texel(c, a, i[0], i[1], i[2], out);
        return;
    }
    int64_t i0[3] = {0, 0, layer}, i1[3] = {0, 0, layer};
    float w[3] = {0, 0, 0};
    for (uint32_t k = 0; k < c->naxes; k++)
        linear_index(c, (int)k, u[k], n[k], &i0[k], &i1[k], &w[k]);
    stex_vec4 t[8]; /* t[x + 2y + 4z]: x, y, z = 0 for i0, 1 for i1 */
    int cube_corner = -1;
    uint32_t corners = c->naxes == 3 ? 8 : 4;
    if (c->cube) { /* indices unclamped: the footprint may cross an edge */
        for (int k = 0; k < 2; k++) {
            float cc = tame(u[k] * (float)n[k] - 0.5f), f = ffloor(cc);
            w[k] = cc - f;
            i0[k] = (int64_t)f;
            i1[k] = (int64_t)f + 1;
        }
        cube_corner = cube_footprint(c, a, layer, i0, i1, t);
    } else {
        for (uint32_t q = 0; q < corners; q++)
            texel(c, a, q & 1 ? i1[0] : i0[0], q & 2 ? i1[1] : i0[1], q & 4 ? i1[2] : i0[2],
                  &t[q]);
    }
    for (int ch = 0; ch < 4; ch++) {
        if (c->lavapipe && c->cube) {
            /* llvmpipe's seamless cube filter: a weighted sum in f32, the
             * weights (1 - wx)(1 - wy), wx(1 - wy), (1 - wx)wy, wx wy */
            float wx0 = 1.0f - w[0], wy0 = 1.0f - w[1];
            float W[4] = {wx0 * wy0, w[0] * wy0, wx0 * w[1], w[0] * w[1]};
            if (cube_corner >= 0) { /* a corner's weight goes a third to each other texel */
                float third = W[cube_corner] * (1.0f / 3.0f);
                for (int q = 0; q < 4; q++)
                    W[q] = q == cube_corner ? 0 : W[q] + third;
            }
            float acc = W[0] * t[0].f[ch];
            for (int q = 1; q < 4; q++)
                acc = acc + W[q] * t[q].f[ch]; /* unfused (measured) */
            out->f[ch] = acc;
            continue;
        }
        if (c->lavapipe) { /* lerp along x, then y, then z */
            float r[2];
            for (uint32_t z = 0; z < corners / 4; z++)
                r[z] = lerp86(w[1], lerp86(w[0], t[4 * z].f[ch], t[4 * z + 1].f[ch]),
                              lerp86(w[0], t[4 * z + 2].f[ch], t[4 * z + 3].f[ch]));
            out->f[ch] = corners == 8 ? lerp86(w[2], r[0], r[1]) : r[0];
            continue;
        }
        double W[8], A = w[0], B = w[1], C = w[2];
        float T[8];
        for (uint32_t q = 0; q < corners; q++) {
            W[q] = (q & 1 ? A : 1 - A) * (q & 2 ? B : 1 - B) * (corners == 8 ? (q & 4 ? C : 1 - C) : 1);
            T[q] = t[q].f[ch];
        }
        out->f[ch] = spec_sum(W, T, (int)corners);
    }
}

/* ---- cube maps: face selection (Vulkan's table, WebGPU's cube rules) ---- */

/* Face 0..5 (+x, -x, +y, -y, +z, -z) of direction d, and the face
 * coordinates s, t in [0, 1]; ties go to z, then y. */
static uint32_t cube_face(const float *d, float *s, float *t, float *ma_out, float *sc_out,
                          float *tc_out)
{
    float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);
    uint32_t face;
    float ma, sc, tc;
    if (az >= ax && az >= ay) {
        face = d[2] >= 0 ? 4 : 5;
        ma = d[2];
        sc = d[2] >= 0 ? d[0] : -d[0];
        tc = -d[1];
    } else if (ay >= ax) {
        face = d[1] >= 0 ? 2 : 3;
        ma = d[1];
        sc = d[0];
        tc = d[1] >= 0 ? d[2] : -d[2];
    } else {
        face = d[0] >= 0 ? 0 : 1;
        ma = d[0];
        sc = d[0] >= 0 ? -d[2] : d[2];
        tc = -d[1];
    }
    float am = fabsf(ma);
    /* s = sc * (0.5 / |ma|) + 0.5, unfused (llvmpipe's order, measured) */
    float ima = 0.5f / am;
    *s = sc * ima + 0.5f;
    *t = tc * ima + 0.5f;

    if (ma_out) {
        *ma_out = ma;
        *sc_out = sc;
        *tc_out = tc;
    }
    return face;
}

/* ---- level of detail ---- */

/* Vulkan's scale factor from the derivatives: log2 of the longer of the
 * two derivative vectors in texels of the view's first level. */
static float grad_lod(const sample_cx *c, const stex_view_access *a0, const stex_sample_args *g)
{
    float n[3] = {(float)a0->width, (float)a0->height, (float)a0->depth};
    float dx[3] = {g->ddx[0], g->ddx[1], g->ddx[2]}, dy[3] = {g->ddy[0], g->ddy[1], g->ddy[2]};
    uint32_t axes = c->naxes;
    if (c->cube) { /* derivatives of the face coordinates s, t */
        float s, t, ma, sc, tc;
        uint32_t face = cube_face(g->coord, &s, &t, &ma, &sc, &tc);
        int major = face / 2, sa = major == 0 ? 2 : 0, ta = major == 1 ? 2 : 1;
        float ssign = (face == 0 || face == 5) ? -1.0f : 1.0f;
        float tsign = face == 2 ? 1.0f : face == 3 ? -1.0f : -1.0f;
        float am = fabsf(ma), sgn = ma >= 0 ? 1.0f : -1.0f;
        float *d[2] = {dx, dy};
        for (int k = 0; k < 2; k++) {
            float dsc = ssign * d[k][sa], dtc = tsign * d[k][ta], dma = sgn * d[k][major];
            float ds = 0.5f * (dsc * am - sc * dma) / (ma * ma);
            float dt = 0.5f * (dtc * am - tc * dma) / (ma * ma);
            d[k][0] = ds;
            d[k][1] = dt;
            d[k][2] = 0;
        }
        axes = 2;
    }
    float rx = 0, ry = 0;
    for (uint32_t k = 0; k < axes; k++) {
        rx += (dx[k] * n[k]) * (dx[k] * n[k]);
        ry += (dy[k] * n[k]) * (dy[k] * n[k]);
    }
    float rho = sqrtf(rx > ry ? rx : ry);
    return log2f(rho);
}

/* Mip selection and the filters of the level(s): lod clamped to
 * [lodMinClamp, lodMaxClamp]; at or below 0 the magFilter, above it the
 * minFilter; mipmapFilter nearest takes level ceil(lod + 0.5) - 1, linear
 * blends floor(lod) and the next level. */
static void sample_lod(const sample_cx *c, const stex_texture_view *v, float lod, const float *u,
                       int64_t layer, stex_vec4 *out)
{
    const stex_sampler_desc *sd = c->sd;
    lod = isnan(lod) ? 0 : lod;
    lod = lod < sd->lod_min_clamp ? sd->lod_min_clamp : lod;
    lod = lod > sd->lod_max_clamp ? sd->lod_max_clamp : lod;
    stex_filter_mode filter = lod <= 0 ? sd->mag_filter : sd->min_filter;
    uint32_t q = v->desc.mip_level_count - 1;
    if (sd->mipmap_filter == STEX_FILTER_NEAREST || q == 0 || lod <= 0) {
        float d = nearest_level(lod, c->lavapipe);
        uint32_t m = d > (float)q ? q : (uint32_t)d;
        filter_level(c, &v->level[m], filter, u, layer, out);
        return;
    }
    float f = ffloor(lod);
    uint32_t lo = f >= (float)q ? q : (uint32_t)f;
    uint32_t hi = lo + 1 > q ? q : lo + 1;
    float delta = lo == q ? 0 : lod - f;
    stex_vec4 t0, t1;
    filter_level(c, &v->level[lo], filter, u, layer, &t0);
    filter_level(c, &v->level[hi], filter, u, layer, &t1);
    for (int ch = 0; ch < 4; ch++)
        out->f[ch] = c->lavapipe ? lerp86(delta, t0.f[ch], t1.f[ch])
                                 : spec_mip(delta, t0.f[ch], t1.f[ch]);
}

/* textureGather(Compare): the four texels of the linear footprint on the
 * view's first level, (i0, j1), (i1, j1), (i1, j0), (i0, j0), component k. */
static void gather(const sample_cx *c, const stex_view_access *a, const float *u, int64_t layer,
                   uint32_t k, stex_vec4 *out)
{
    int64_t i0[2], i1[2];
    float w[2];
    if (c->cube) { /* across the face's edges, as the filters */
        stex_vec4 q[4];
        for (int ax = 0; ax < 2; ax++) {
            float cc = tame(u[ax] * (float)a->width - 0.5f), f = ffloor(cc);
            i0[ax] = (int64_t)f;
            i1[ax] = (int64_t)f + 1;
        }
        cube_footprint(c, a, layer, i0, i1, q);
        const int order[4] = {2, 3, 1, 0};
        for (int k2 = 0; k2 < 4; k2++)
            out->f[k2] = q[order[k2]].f[k & 3];
        return;
    }
    for (int ax = 0; ax < 2; ax++)
        linear_index(c, ax, u[ax], ax ? a->height : a->width, &i0[ax], &i1[ax], &w[ax]);
    stex_vec4 t;
    const int64_t xs[4] = {i0[0], i1[0], i1[0], i0[0]}, ys[4] = {i1[1], i1[1], i0[1], i0[1]};
    for (int q = 0; q < 4; q++) {
        texel(c, a, xs[q], ys[q], layer, &t);
        out->f[q] = t.f[k & 3];
    }
}

void stex_view_sample(const stex_texture_view *v, const stex_sampler *s, const stex_profile *p,
                      const stex_sample_args *a, stex_vec4 *out)
{
    memset(out, 0, sizeof *out);
    if (!v->access.decode)
        return;
    /* integer texels are only gathered, never filtered (WGSL has no such overload) */
    const stex_format_info *fi = stex_format_get(v->desc.format);
    if ((fi->scalar != STEX_SCALAR_F32 || v->desc.aspect == STEX_ASPECT_STENCIL_ONLY) &&
        a->fn != STEX_SAMPLE_GATHER)
        return;
    sample_cx c = {.sd = &s->desc, .p = p ? p : stex_device_profile(v->texture->device)};
    const stex_sampler_desc *sd = c.sd;
    c.lavapipe = sd->precision == STEX_FILTER_PRECISION_LAVAPIPE ||
                 (sd->precision == STEX_FILTER_PRECISION_AUTO &&
                  stex_profile_id_of(c.p) == STEX_PROFILE_LAVAPIPE);
    stex_view_dimension dim = v->desc.dimension;
    c.cube = dim == STEX_VIEW_DIMENSION_CUBE || dim == STEX_VIEW_DIMENSION_CUBE_ARRAY;
    c.naxes = dim == STEX_VIEW_DIMENSION_3D ? 3 : 2;
    c.cube_array = dim == STEX_VIEW_DIMENSION_CUBE_ARRAY;
    c.mode[0] = sd->address_mode_u;
    c.mode[1] = sd->address_mode_v;
    c.mode[2] = sd->address_mode_w;
    if (!c.cube)
        memcpy(c.off, a->offset, sizeof c.off);
    c.compare = a->fn == STEX_SAMPLE_COMPARE_LEVEL || a->fn == STEX_SAMPLE_GATHER_COMPARE;
    c.gather = a->fn == STEX_SAMPLE_GATHER || a->fn == STEX_SAMPLE_GATHER_COMPARE;
    c.cmp = sd->compare;
    c.dref = a->depth_ref;
    /* Vulkan: a unorm depth format compares against depth_ref clamped to [0, 1] */
    if (c.compare && stex_format_get(v->desc.format)->type == STEX_CHANNEL_UNORM)
        c.dref = c.dref < 0 ? 0 : c.dref > 1 ? 1 : c.dref;

    float u[3] = {a->coord[0], a->coord[1], a->coord[2]};
    if (dim == STEX_VIEW_DIMENSION_1D) /* one coordinate: v is the one row's centre */
        u[1] = 0.5f;
    int64_t layer = 0;
    if (c.cube) { /* the face's coordinates, clamped to the face (not seamless) */
        uint32_t face = cube_face(a->coord, &u[0], &u[1], NULL, NULL, NULL);
        c.mode[0] = c.mode[1] = STEX_ADDRESS_CLAMP_TO_EDGE;
        int64_t cubes = dim == STEX_VIEW_DIMENSION_CUBE_ARRAY ? v->desc.array_layer_count / 6 : 1;
        int64_t i = a->array_index < 0 ? 0 : a->array_index >= cubes ? cubes - 1 : a->array_index;
        layer = dim == STEX_VIEW_DIMENSION_CUBE_ARRAY ? i * 6 + face : face;
    } else if (dim == STEX_VIEW_DIMENSION_2D_ARRAY) {
        int64_t n = v->desc.array_layer_count;
        layer = a->array_index < 0 ? 0 : a->array_index >= n ? n - 1 : a->array_index;
    }
    const stex_view_access *a0 = &v->level[0];
    bool plain = !c.cube && c.naxes == 2 && !c.off[0] && !c.off[1];
    if (plain && a->fn == STEX_SAMPLE_LEVEL) { /* the 2d path, lavapipe's 8-bit one included */
        stex_view_sample_level(v, s, c.p, u[0], u[1], layer, a->level, out);
        return;
    }
    switch (a->fn) {
    case STEX_SAMPLE_GATHER:
    case STEX_SAMPLE_GATHER_COMPARE:
        gather(&c, a0, u, layer, a->fn == STEX_SAMPLE_GATHER ? a->component : 0, out);
        return;
    case STEX_SAMPLE_GRAD:
        sample_lod(&c, v, grad_lod(&c, a0, a), u, layer, out);
        return;
    case STEX_SAMPLE_BASE_CLAMP_TO_EDGE:
        for (int k = 0; k < 2; k++) { /* WGSL: clamped to [half a texel, 1 - half a texel] */
            float half = 0.5f / (float)(k ? a0->height : a0->width);
            u[k] = u[k] < half ? half : u[k] > 1.0f - half ? 1.0f - half : u[k];
        }
        stex_view_sample_level(v, s, c.p, u[0], u[1], layer, 0, out);
        return;
    case STEX_SAMPLE_COMPARE_LEVEL:
        sample_lod(&c, v, 0, u, layer, out);
        out->f[1] = out->f[2] = out->f[3] = 0;
        return;
    default:
        sample_lod(&c, v, a->level, u, layer, out);
        return;
    }
}
