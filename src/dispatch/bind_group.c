/* createBindGroup against a pipeline's layout, and the per-dispatch table
 * the builtins index by binding number. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "convert/fast.h"
#include "dispatch/dispatch_internal.h"

static const stex_bind_group_entry *entry_for(const stex_bind_group_entry *e, uint32_t n,
                                              uint32_t binding)
{
    for (uint32_t i = 0; i < n; i++)
        if (e[i].binding == binding)
            return &e[i];
    return NULL;
}

static stex_status check_sample_type(const stex_layout_entry *le, const stex_view_desc *vd,
                                     uint32_t features);

static stex_status validate_texture_entry(const stex_pipeline *p, const stex_layout_entry *le,
                                          const stex_bind_group_entry *be)
{
    if (!be->view)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u expects a "
                         "GPUTextureView", le->binding);
    const stex_texture *t = stex_view_texture(be->view);
    const stex_texture_desc *td = stex_texture_get_desc(t);
    const stex_view_desc *vd = stex_view_get_desc(be->view);
    if (stex_texture_device(t) != p->dev)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: the view's texture "
                         "belongs to another device", le->binding);
    if (le->type == STEX_BINDING_STORAGE_TEXTURE) {
        stex_status st = stex_validate_storage_binding(p->dev, &le->storage_texture, td, vd);
        if (st)
            return st;
        if (!stex_encoder(vd->format) || !stex_decoder(vd->format))
            return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: format %s "
                             "cannot be a storage texture", le->binding,
                             stex_format_name(vd->format));
        return STEX_OK;
    }
    if (!(td->usage & STEX_USAGE_TEXTURE_BINDING))
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u is a texture "
                         "binding, but the texture lacks the TEXTURE_BINDING usage", le->binding);
    /* stex keeps BC blocks as raw bytes: a shader would read zeros */
    if (stex_format_get(vd->format)->kind == STEX_KIND_COMPRESSED)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: stex does not "
                         "decode compressed format %s, so it cannot be sampled or loaded (copies "
                         "move its blocks as raw bytes)", le->binding,
                         stex_format_name(vd->format));
    stex_view_dimension want = le->texture_view_dimension ? le->texture_view_dimension
                                                          : STEX_VIEW_DIMENSION_2D;
    if (vd->dimension != want)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: view dimension "
                         "\"%s\" does not match the layout's \"%s\"", le->binding,
                         stex_view_dimension_name(vd->dimension), stex_view_dimension_name(want));
    if (le->texture_multisampled != (td->sample_count > 1))
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: the layout's "
                         "multisampled is %s but the texture's sampleCount is %u", le->binding,
                         le->texture_multisampled ? "true" : "false", td->sample_count);
    return check_sample_type(le, vd, stex_device_features(p->dev));
}

/* The sample types a view's format and aspect are compatible with (WebGPU's
 * texture format capabilities tables): filterable float colours, the 32-bit
 * floats filterable only under float32-filterable, depth, sint and uint. */
static stex_status check_sample_type(const stex_layout_entry *le, const stex_view_desc *vd,
                                     uint32_t features)
{
    const stex_format_info *fi = stex_format_get(vd->format);
    stex_texture_sample_type want = le->texture_sample_type ? le->texture_sample_type
                                                            : STEX_SAMPLE_TYPE_FLOAT;
    uint32_t ok = 0; /* bit per stex_texture_sample_type */
    bool stencil = vd->aspect == STEX_ASPECT_STENCIL_ONLY || fi->kind == STEX_KIND_STENCIL;
    if (fi->kind == STEX_KIND_DEPTH && fi->stencil && vd->aspect == STEX_ASPECT_ALL)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: a view of "
                         "depth-stencil format %s bound as a texture must select one aspect "
                         "(\"depth-only\" or \"stencil-only\")", le->binding, fi->name);
    if (stencil)
        ok = 1u << STEX_SAMPLE_TYPE_UINT;
    else if (fi->kind == STEX_KIND_DEPTH)
        ok = 1u << STEX_SAMPLE_TYPE_DEPTH | 1u << STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT;
    else if (fi->scalar == STEX_SCALAR_I32)
        ok = 1u << STEX_SAMPLE_TYPE_SINT;
    else if (fi->scalar == STEX_SCALAR_U32)
        ok = 1u << STEX_SAMPLE_TYPE_UINT;
    else if (fi->type == STEX_CHANNEL_FLOAT && fi->bits[0] == 32 &&
             !(features & STEX_FEATURE_FLOAT32_FILTERABLE))
        ok = 1u << STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT;
    else
        ok = 1u << STEX_SAMPLE_TYPE_FLOAT | 1u << STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT;
    if (!(ok >> want & 1u))
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: the layout's "
                         "sampleType \"%s\" is not compatible with view format %s%s%s",
                         le->binding, stex_sample_type_name(want), fi->name,
                         vd->aspect ? " aspect " : "",
                         vd->aspect ? stex_texture_aspect_name(vd->aspect) : "");
    return STEX_OK;
}

/* GPUSamplerBindingType against the sampler: "comparison" takes exactly the
 * samplers with compare, "non-filtering" no sampler with a linear filter. */
static stex_status validate_sampler_entry(const stex_pipeline *p, const stex_layout_entry *le,
                                          const stex_sampler *s)
{
    if (!s)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u expects a "
                         "GPUSampler", le->binding);
    if (stex_sampler_device(s) != p->dev)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: the sampler "
                         "belongs to another device", le->binding);
    const stex_sampler_desc *sd = stex_sampler_get_desc(s);
    bool comparison = sd->compare != STEX_COMPARE_UNDEFINED;
    bool filtering = sd->mag_filter == STEX_FILTER_LINEAR || sd->min_filter == STEX_FILTER_LINEAR ||
                     sd->mipmap_filter == STEX_FILTER_LINEAR;
    stex_sampler_binding_type t = le->sampler_type ? le->sampler_type
                                                   : STEX_SAMPLER_BINDING_FILTERING;
    if (comparison != (t == STEX_SAMPLER_BINDING_COMPARISON))
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: a %s sampler "
                         "on a \"%s\" layout entry", le->binding,
                         comparison ? "comparison" : "non-comparison",
                         stex_sampler_binding_type_name(t));
    if (t == STEX_SAMPLER_BINDING_NON_FILTERING && filtering)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: a filtering "
                         "sampler (a linear filter) on a \"non-filtering\" layout entry",
                         le->binding);
    return STEX_OK;
}

static stex_status validate_buffer_entry(const stex_pipeline *p, const stex_layout_entry *le,
                                         stex_bind_group_entry *be)
{
    const stex_limits *l = stex_device_limits(p->dev);
    bool uniform = le->type == STEX_BINDING_UNIFORM_BUFFER;
    if (!be->buffer)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u expects a "
                         "GPUBuffer", le->binding);
    if (stex_buffer_device(be->buffer) != p->dev) /* "valid to use with" the device */
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: the buffer "
                         "belongs to another device", le->binding);
    uint32_t need = uniform ? STEX_BUFFER_USAGE_UNIFORM : STEX_BUFFER_USAGE_STORAGE;
    if (!(stex_buffer_usage(be->buffer) & need))
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: the buffer lacks "
                         "the %s usage its layout entry needs", le->binding,
                         uniform ? "UNIFORM" : "STORAGE");
    uint64_t bsize = stex_buffer_size(be->buffer);
    uint64_t align = uniform ? l->min_uniform_buffer_offset_alignment
                             : l->min_storage_buffer_offset_alignment;
    if (be->offset % align)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: offset %llu is not "
                         "a multiple of %s (%llu)", le->binding, (unsigned long long)be->offset,
                         uniform ? "minUniformBufferOffsetAlignment"
                                 : "minStorageBufferOffsetAlignment", (unsigned long long)align);
    if (be->offset > bsize)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: offset %llu is "
                         "beyond the buffer's %llu bytes", le->binding,
                         (unsigned long long)be->offset, (unsigned long long)bsize);
    uint64_t size = be->size == STEX_BINDING_SIZE_ZERO ? 0
                  : be->size                         ? be->size
                                                     : bsize - be->offset;
    if (size > bsize - be->offset)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: range [%llu, "
                         "%llu) is outside the buffer's %llu bytes", le->binding,
                         (unsigned long long)be->offset, (unsigned long long)(be->offset + size),
                         (unsigned long long)bsize);
    if (size == 0)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: the bound range "
                         "is empty", le->binding);
    if (!uniform && size % 4)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: storage buffer "
                         "binding size %llu is not a multiple of 4", le->binding,
                         (unsigned long long)size);
    uint64_t max = uniform ? l->max_uniform_buffer_binding_size : l->max_storage_buffer_binding_size;
    if (size > max)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: size %llu exceeds "
                         "%s (%llu)", le->binding, (unsigned long long)size,
                         uniform ? "maxUniformBufferBindingSize" : "maxStorageBufferBindingSize",
                         (unsigned long long)max);
    if (size < le->buffer.min_binding_size)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u: the bound range of "
                         "%llu bytes is smaller than the layout's minBindingSize (%llu)",
                         le->binding, (unsigned long long)size,
                         (unsigned long long)le->buffer.min_binding_size);
    be->size = size;
    return STEX_OK;
}

stex_status stex_bind_group_create(const stex_pipeline *p, const stex_bind_group_entry *entries,
                                   uint32_t count, stex_bind_group **out)
{
    return stex_bind_group_create_in_group(p, 0, entries, count, out);
}

stex_status stex_bind_group_create_in_group(const stex_pipeline *p, uint32_t group,
                                            const stex_bind_group_entry *entries, uint32_t count,
                                            stex_bind_group **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_bind_group_create: out is NULL");
    *out = NULL;
    if (!p || (count && !entries))
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_bind_group_create: pipeline or entries is NULL");
    /* A group the layout has no entries in has an empty bind group layout:
     * an 'auto' layout's getBindGroupLayout(i) gives one for every i below
     * maxBindGroups (Dawn's does; the spec's default pipeline layout makes
     * the groups below the highest one used empty). */
    uint64_t max_groups = stex_device_limits(p->dev)->max_bind_groups;
    if (group >= STEX__MAX_GROUPS || group >= max_groups)
        return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: @group(%u) is not below "
                         "maxBindGroups (%llu)", group, (unsigned long long)max_groups);
    uint32_t first = 0, n = 0;
    while (first < p->n && p->entries[first].group < group)
        first++;
    while (first + n < p->n && p->entries[first + n].group == group)
        n++;
    const stex_layout_entry *layout = p->entries + first;
    for (uint32_t i = 0; i < count; i++) {
        bool known = false;
        for (uint32_t k = 0; k < n; k++)
            known |= layout[k].binding == entries[i].binding;
        if (!known)
            return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: entry binding %u is not in "
                             "the bind group layout", entries[i].binding);
        for (uint32_t j = 0; j < i; j++)
            if (entries[j].binding == entries[i].binding)
                return stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: binding %u is given "
                                 "twice", entries[i].binding);
    }
    stex_bind_group *g = calloc(1, sizeof *g);
    if (!g || !(g->e = calloc(n ? n : 1, sizeof *g->e))) {
        free(g);
        return stex_fail(STEX_OUT_OF_MEMORY, "createBindGroup: out of memory");
    }
    g->p = p;
    g->group = group;
    g->first = first;
    g->n = n;
    for (uint32_t k = 0; k < n; k++) {
        const stex_layout_entry *le = &layout[k];
        const stex_bind_group_entry *be = entry_for(entries, count, le->binding);
        stex_status st = STEX_OK;
        if (!be)
            st = stex_fail(STEX_VALIDATION_ERROR, "createBindGroup: the layout's binding %u has "
                           "no entry (the bind group must cover every layout entry)", le->binding);
        else {
            g->e[k] = *be;
            switch (le->type) {
            case STEX_BINDING_STORAGE_TEXTURE:
            case STEX_BINDING_TEXTURE:
                st = validate_texture_entry(p, le, be);
                break;
            case STEX_BINDING_SAMPLER:
                st = validate_sampler_entry(p, le, be->sampler);
                break;
            default:
                st = validate_buffer_entry(p, le, &g->e[k]);
                g->dynamic_count += le->buffer.has_dynamic_offset;
            }
        }
        if (st) {
            stex_bind_group_destroy(g);
            return st;
        }
    }
    *out = g;
    return STEX_OK;
}

/* Equal layout entries but for .group, as WebGPU compares them (the
 * defaults a descriptor may leave out count as given). */
static bool same_entry(const stex_layout_entry *a, const stex_layout_entry *b)
{
    if (a->binding != b->binding || a->visibility != b->visibility || a->type != b->type)
        return false;
    switch (a->type) {
    case STEX_BINDING_STORAGE_TEXTURE: /* access and view dimension resolved at creation */
        return a->storage_texture.access == b->storage_texture.access &&
               a->storage_texture.format == b->storage_texture.format &&
               a->storage_texture.view_dimension == b->storage_texture.view_dimension;
    case STEX_BINDING_TEXTURE: {
        stex_view_dimension da = a->texture_view_dimension ? a->texture_view_dimension
                                                           : STEX_VIEW_DIMENSION_2D;
        stex_view_dimension db = b->texture_view_dimension ? b->texture_view_dimension
                                                           : STEX_VIEW_DIMENSION_2D;
        stex_texture_sample_type sa = a->texture_sample_type ? a->texture_sample_type
                                                             : STEX_SAMPLE_TYPE_FLOAT;
        stex_texture_sample_type sb = b->texture_sample_type ? b->texture_sample_type
                                                             : STEX_SAMPLE_TYPE_FLOAT;
        return da == db && sa == sb && a->texture_multisampled == b->texture_multisampled;
    }
    case STEX_BINDING_SAMPLER:
        return (a->sampler_type ? a->sampler_type : STEX_SAMPLER_BINDING_FILTERING) ==
               (b->sampler_type ? b->sampler_type : STEX_SAMPLER_BINDING_FILTERING);
    default: /* the buffers */
        return a->buffer.has_dynamic_offset == b->buffer.has_dynamic_offset &&
               a->buffer.min_binding_size == b->buffer.min_binding_size;
    }
}

bool bind_group_compatible(const stex_bind_group *g, const stex_pipeline *p, uint32_t group)
{
    if (g->p == p && g->group == group)
        return true;
    /* another group of the same 'auto' layout serves if its entries are
     * equal (Dawn makes one bind group layout of equal groups; the CTS's
     * default_bind_group_layouts_never_match swaps @group(2) and @group(3)) */
    if (g->p != p && (!g->p->shared_layout || !p->shared_layout))
        return false;
    uint32_t first = 0, n = 0; /* p's entries of `group`: one run, sorted by binding as g's */
    while (first < p->n && p->entries[first].group < group)
        first++;
    while (first + n < p->n && p->entries[first + n].group == group)
        n++;
    if (n != g->n)
        return false;
    for (uint32_t k = 0; k < n; k++)
        if (!same_entry(&p->entries[first + k], &g->p->entries[g->first + k]))
            return false;
    return true;
}

void stex_bind_group_destroy(stex_bind_group *g)
{
    if (!g)
        return;
    free(g->e);
    free(g);
}

/* ---- the dispatch's usage scope ---- */

/* One binding of a dispatch as its usage scope sees it: a buffer range or
 * a view's texture subresources, and whether it is writable storage. */
typedef struct scope_use {
    const stex_buffer *buffer;
    const stex_texture *texture;
    uint64_t lo, hi;              /* buffer: [lo, hi) bytes, dynamic offset applied */
    uint32_t mip0, mip1, layer0, layer1;
    stex_texture_aspect aspect;
    uint32_t visibility, group, binding;
    bool writable;
} scope_use;

static bool scope_use_of(const stex_layout_entry *le, const stex_bind_group_entry *be,
                         uint64_t dynamic_offset, scope_use *u)
{
    memset(u, 0, sizeof *u);
    u->visibility = le->visibility, u->group = le->group, u->binding = le->binding;
    if (be->buffer) {
        u->buffer = be->buffer;
        u->lo = be->offset + dynamic_offset;
        u->hi = u->lo + be->size;
        u->writable = le->type == STEX_BINDING_STORAGE_BUFFER;
        return true;
    }
    if (!be->view)
        return false; /* a sampler */
    const stex_view_desc *vd = stex_view_get_desc(be->view);
    u->texture = stex_view_texture(be->view);
    u->mip0 = vd->base_mip_level, u->mip1 = u->mip0 + vd->mip_level_count;
    u->layer0 = vd->base_array_layer, u->layer1 = u->layer0 + vd->array_layer_count;
    u->aspect = vd->aspect;
    u->writable = le->type == STEX_BINDING_STORAGE_TEXTURE &&
                  le->storage_texture.access != STEX_ACCESS_READ_ONLY;
    return true;
}

/* Same buffer (any ranges) or intersecting texture subresources. */
static bool same_resource(const scope_use *a, const scope_use *b)
{
    if (a->buffer || b->buffer)
        return a->buffer == b->buffer;
    return a->texture == b->texture && a->mip0 < b->mip1 && b->mip0 < a->mip1 &&
           a->layer0 < b->layer1 && b->layer0 < a->layer1 &&
           (a->aspect == STEX_ASPECT_ALL || b->aspect == STEX_ASPECT_ALL || a->aspect == b->aspect);
}

/* Two bindings' conflict, if any:
 * - a writable storage binding and a read-only one of one buffer or texture
 *   subresource: WebGPU's compatible usage list lets "storage" meet only
 *   "storage" in a usage scope (a buffer is one subresource, whatever the
 *   ranges);
 * - two writable ones of overlapping buffer ranges or texture subresources
 *   seen by one shader stage: "Encoder bind groups alias a writable
 *   resource", which limits the usage scope storage exception. */
static stex_status scope_conflict(const scope_use *a, const scope_use *b)
{
    if (!(a->writable || b->writable) || !same_resource(a, b))
        return STEX_OK;
    if (a->writable != b->writable) {
        const scope_use *w = a->writable ? a : b, *r = a->writable ? b : a;
        return stex_fail(STEX_VALIDATION_ERROR,
                         "dispatchWorkgroups: %s of @group(%u) @binding(%u) is used as writable "
                         "storage and, through @group(%u) @binding(%u), read-only in the same "
                         "usage scope", w->buffer ? "the buffer" : "a texture subresource",
                         w->group, w->binding, r->group, r->binding);
    }
    if (!(a->visibility & b->visibility))
        return STEX_OK;
    if (a->buffer && (a->hi <= b->lo || b->hi <= a->lo))
        return STEX_OK; /* disjoint ranges: the storage exception allows them */
    if (a->buffer)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "dispatchWorkgroups: @group(%u) @binding(%u) and @group(%u) @binding(%u) "
                         "bind overlapping ranges [%llu, %llu) and [%llu, %llu) of one buffer as "
                         "writable storage (the bind groups alias a writable resource)",
                         a->group, a->binding, b->group, b->binding, (unsigned long long)a->lo,
                         (unsigned long long)a->hi, (unsigned long long)b->lo,
                         (unsigned long long)b->hi);
    return stex_fail(STEX_VALIDATION_ERROR,
                     "dispatchWorkgroups: @group(%u) @binding(%u) and @group(%u) @binding(%u) "
                     "bind the same texture subresource as writable storage (the bind groups "
                     "alias a writable resource)", a->group, a->binding, b->group, b->binding);
}

stex_status bind_group_check_scope(const stex_pipeline *p, const stex_bound_group *groups)
{
    scope_use *u = malloc((p->n ? p->n : 1) * sizeof *u);
    if (!u)
        return stex_fail(STEX_OUT_OF_MEMORY, "dispatchWorkgroups: out of memory");
    uint32_t n = 0;
    for (uint32_t gi = 0; gi < STEX__MAX_GROUPS; gi++) {
        const stex_bind_group *g = p->groups >> gi & 1u ? groups[gi].group : NULL;
        uint32_t dyn = 0;
        for (uint32_t k = 0; g && k < g->n && n < p->n; k++) {
            stex_layout_entry le = g->p->entries[g->first + k];
            uint64_t off = le.buffer.has_dynamic_offset ? groups[gi].dynamic_offsets[dyn++] : 0;
            le.group = gi; /* the index it is set at */
            n += scope_use_of(&le, &g->e[k], off, &u[n]);
        }
    }
    stex_status st = STEX_OK;
    for (uint32_t i = 0; i < n && !st; i++)
        for (uint32_t j = i + 1; j < n && !st; j++)
            st = scope_conflict(&u[i], &u[j]);
    free(u);
    return st;
}

stex_status bind_group_check_indirect(const stex_pipeline *p, const stex_bound_group *groups,
                                      const stex_buffer *indirect)
{
    for (uint32_t gi = 0; gi < STEX__MAX_GROUPS; gi++) {
        const stex_bind_group *g = p->groups >> gi & 1u ? groups[gi].group : NULL;
        for (uint32_t k = 0; g && k < g->n; k++) {
            const stex_layout_entry *le = &g->p->entries[g->first + k];
            if (le->type == STEX_BINDING_STORAGE_BUFFER && g->e[k].buffer == indirect)
                return stex_fail(STEX_VALIDATION_ERROR,
                                 "dispatchWorkgroupsIndirect: the indirect buffer is also bound "
                                 "as writable storage at @group(%u) @binding(%u) in the same "
                                 "usage scope", gi, le->binding);
        }
    }
    return STEX_OK;
}

/* ---- per-dispatch table ---- */

/* The layout layer's tiled address, stex_level_offset(l, x, y, z), is
 * base + z * slice + (a term in x) + (a term in y): the macro-tile index is
 * linear in (x >> s) and (y >> s), and a Morton index interleaves disjoint
 * bits.  Tabulating the two terms once per dispatch turns every address into
 * two loads and three adds (tests/shader/test_texels.c checks every texel
 * against stex_view_texel). */
static bool split_layout(exec_binding *b)
{
    const stex_level_layout *l = &b->acc.layout;
    uint64_t *col = malloc(b->f.w * sizeof *col), *row = malloc(b->f.h * sizeof *row);
    b->f.col = col, b->f.row = row; /* freed by bind_group_release, even if one failed */
    if (!col || !row)
        return false;
    uint64_t origin = stex_level_offset(l, 0, 0, 0);
    for (uint64_t x = 0; x < b->f.w; x++)
        col[x] = stex_level_offset(l, (uint32_t)x, 0, 0);
    for (uint64_t y = 0; y < b->f.h; y++)
        row[y] = stex_level_offset(l, 0, (uint32_t)y, 0) - origin;
    return true;
}

static void fill_texture(exec_binding *b, const stex_layout_entry *le, stex_texture_view *v,
                         const stex_profile *prof)
{
    const stex_view_desc *vd = stex_view_get_desc(v);
    const stex_format_info *fi = stex_format_get(vd->format);
    stex_extent3d ext = stex_view_dimensions(v);
    b->view = v;
    stex_view_get_access(v, &b->acc);
    b->texture = stex_view_texture(v);
    b->format = vd->format;
    b->dim = vd->dimension;
    b->mip = vd->base_mip_level;
    b->mip_count = vd->mip_level_count ? vd->mip_level_count : 1;
    b->base_layer = vd->base_array_layer;
    b->f.scalar = fi->scalar;
    b->bpp = fi->bytes;
    b->f.w = ext.width ? ext.width : 1;
    b->f.h = b->dim == STEX_VIEW_DIMENSION_1D ? 1 : (ext.height ? ext.height : 1);
    b->f.d = b->dim == STEX_VIEW_DIMENSION_3D ? ext.depth_or_array_layers
           : b->dim == STEX_VIEW_DIMENSION_2D_ARRAY || b->dim == STEX_VIEW_DIMENSION_CUBE ||
                     b->dim == STEX_VIEW_DIMENSION_CUBE_ARRAY
               ? stex_view_num_layers(v) : 1;
    if (!b->f.d)
        b->f.d = 1;
    b->f.dims_tag = b->dim;
    b->mem_base = stex_texture_memory(b->texture);
    b->mem_size = stex_texture_memory_size(b->texture);
    if (le->type != STEX_BINDING_STORAGE_TEXTURE) {
        /* a stencil aspect reads u32; the decoded zero texel for the OOB policy */
        if (vd->aspect == STEX_ASPECT_STENCIL_ONLY)
            b->f.scalar = STEX_SCALAR_U32;
        static const uint8_t zero_texel[16];
        if (b->acc.decode)
            b->acc.decode(prof, zero_texel, &b->zero_value);
        return;
    }
    b->access = le->storage_texture.access;
    b->f.enc = stex_encoder(vd->format);
    b->f.dec = stex_decoder(vd->format);
    bool rd = b->access == STEX_ACCESS_READ_ONLY || b->access == STEX_ACCESS_READ_WRITE;
    bool wr = b->access == STEX_ACCESS_WRITE_ONLY || b->access == STEX_ACCESS_READ_WRITE;
    b->f.load_tag = rd ? (uint32_t)b->dim : EXEC_TAG_NONE;
    b->f.store_tag = wr ? EXEC_STORE_TAG(b->dim, b->f.scalar) : EXEC_TAG_NONE;
    static const uint8_t zeros[16];
    b->f.dec(prof, zeros, &b->zero_value);
}

/* Does this binding's format store and load one 32-bit channel bit for bit
 * under profile p?  Probed with the values profiles treat specially (signed
 * zeros, subnormals, infinities, NaN payloads) and a spread of others. */
static bool raw32_format(const exec_binding *b, const stex_profile *p)
{
    const stex_format_info *fi = stex_format_get(b->format);
    if (!b->f.enc || !b->f.dec || fi->channels != 1 || fi->bytes != 4 || fi->bits[0] != 32)
        return false;
    static const uint32_t probes[] = {0, 0x80000000u, 1, 0x807fffffu, 0x00800000u, 0x3f800000u,
                                      0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                      0x7f800001u, 0xffc12345u, 0x7fa00000u, 0xdeadbeefu,
                                      0x12345678u, 0xffffffffu, 0x7fffffffu, 0x477fe000u};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        stex_vec4 in = {.u = {probes[i], 7, 7, 7}}, out;
        uint8_t bytes[16];
        uint32_t w;
        b->f.enc(p, &in, bytes);
        memcpy(&w, bytes, 4);
        if (w != probes[i])
            return false;
        b->f.dec(p, bytes, &out);
        uint32_t one = fi->scalar == STEX_SCALAR_F32 ? 0x3f800000u : 1u;
        if (out.u[0] != probes[i] || out.u[1] || out.u[2] || out.u[3] != one)
            return false;
    }
    return true;
}

stex_status bind_group_prepare(const stex_bound_group *groups, exec_dispatch *ctx)
{
    const stex_pipeline *p = ctx->pipeline;
    ctx->nb = p->nb;
    ctx->slots = p->slots;
    ctx->b = calloc(p->nb ? p->nb : 1, sizeof *ctx->b);
    ctx->fb = calloc(p->nb ? p->nb : 1, sizeof *ctx->fb);
    if (!ctx->b || !ctx->fb)
        return stex_fail(STEX_OUT_OF_MEMORY, "dispatchWorkgroups: out of memory");
    for (uint32_t i = 0; i < p->nb; i++) /* slots no layout entry fills: nothing bound */
        ctx->b[i].f.load_tag = ctx->b[i].f.store_tag = ctx->b[i].f.dims_tag = EXEC_TAG_NONE;
    for (uint32_t gi = 0; gi < STEX__MAX_GROUPS; gi++) {
        const stex_bind_group *g = p->groups >> gi & 1u ? groups[gi].group : NULL;
        uint32_t dyn = 0; /* the next dynamic offset, in binding order */
        for (uint32_t k = 0; g && k < g->n; k++) {
            /* the group's own layout entry: equal to p's but for .group */
            const stex_layout_entry *le = &g->p->entries[g->first + k];
            const stex_bind_group_entry *be = &g->e[k];
            exec_binding *b = &ctx->b[p->slots.first[gi] + le->binding];
            b->type = le->type;
            b->ref = STEX_BINDING(gi, le->binding);
            if ((be->buffer && stex_buffer_discarded(be->buffer)) ||
                (be->view && stex_texture_discarded(stex_view_texture(be->view))))
                return stex_fail(STEX_VALIDATION_ERROR, "dispatchWorkgroups: @group(%u) "
                                 "@binding(%u) is a destroyed %s (the queue refuses destroyed "
                                 "resources at submit)", gi, le->binding,
                                 be->buffer ? "buffer" : "texture");
            switch (le->type) {
            case STEX_BINDING_STORAGE_TEXTURE:
            case STEX_BINDING_TEXTURE:
                fill_texture(b, le, be->view, ctx->profile);
                if (!split_layout(b))
                    return stex_fail(STEX_OUT_OF_MEMORY, "dispatchWorkgroups: out of memory");
                break;
            case STEX_BINDING_SAMPLER:
                b->sampler = be->sampler;
                break;
            default:
                b->buffer = be->buffer;
                b->mem_base = stex_buffer_data(be->buffer);
                b->mem_size = stex_buffer_size(be->buffer);
                b->offset = be->offset;
                if (le->buffer.has_dynamic_offset)
                    b->offset += groups[gi].dynamic_offsets[dyn++];
                b->bytes = b->mem_base + b->offset;
                b->words = be->size / 4;
            }
        }
    }
    for (uint32_t i = 0; i < ctx->nb; i++) { /* the rest of what the inline builtins read */
        exec_binding *b = &ctx->b[i];
        stex_fast_binding *f = &b->f;
        f->slot = i;
        f->memory = b->acc.memory;
        f->slice = b->acc.layout.slice_bytes;
        f->raw32 = b->type == STEX_BINDING_STORAGE_TEXTURE && raw32_format(b, ctx->profile);
        f->alpha_one = f->scalar == STEX_SCALAR_F32 ? 0x3f800000u : 1u;
        /* the inline codecs, sampled texture loads and buffer words (shader/fast.h) */
        if (b->type == STEX_BINDING_STORAGE_TEXTURE || b->type == STEX_BINDING_TEXTURE) {
            stex_fast_codec c = stex__fast_codec(ctx->profile, b->format);
            f->enc_codec = c.enc;
            f->dec_codec = c.dec;
            f->u8_round = c.u8_round;
            f->f16_even = c.f16_even;
            f->u8_nan = c.u8_nan;
            f->u8_value = c.u8_value;
        }
        if (b->type == STEX_BINDING_TEXTURE && b->dim == STEX_VIEW_DIMENSION_2D && b->acc.decode) {
            f->dec = b->acc.decode;
            f->sampled_2d = true;
        }
        f->buf_load = b->type == STEX_BINDING_STORAGE_BUFFER
                              || b->type == STEX_BINDING_READ_ONLY_STORAGE_BUFFER
                              || b->type == STEX_BINDING_UNIFORM_BUFFER
                          ? STEX__BUF_WORDS : 0;
        f->buf_store = b->type == STEX_BINDING_STORAGE_BUFFER ? STEX__BUF_WORDS : 0;
        f->buf = f->buf_load ? b->bytes : NULL;
        f->buf_words = f->buf_load ? b->words : 0;
        ctx->fb[i] = *f; /* the copy the threads start from */
    }
    if (ctx->opt.visibility == STEX_VISIBILITY_SNAPSHOT)
        for (uint32_t i = 0; i < ctx->nb; i++) {
            exec_binding *b = &ctx->b[i];
            bool rw = b->type == STEX_BINDING_STORAGE_BUFFER
                      || (b->type == STEX_BINDING_STORAGE_TEXTURE
                          && b->access == STEX_ACCESS_READ_WRITE);
            if (!rw)
                continue;
            b->snap_base = malloc(b->mem_size ? b->mem_size : 1);
            if (!b->snap_base)
                return stex_fail(STEX_OUT_OF_MEMORY, "dispatchWorkgroups: out of memory for "
                                 "the snapshot of slot %u", i);
            memcpy(b->snap_base, b->mem_base, b->mem_size);
        }
    return STEX_OK;
}

void bind_group_release(exec_dispatch *ctx)
{
    for (uint32_t i = 0; ctx->b && i < ctx->nb; i++) {
        free(ctx->b[i].snap_base);
        free((void *)(uintptr_t)ctx->b[i].f.col); /* split_layout's tables */
        free((void *)(uintptr_t)ctx->b[i].f.row);
    }
    free(ctx->b);
    free(ctx->fb);
    ctx->b = NULL;
    ctx->fb = NULL;
}
