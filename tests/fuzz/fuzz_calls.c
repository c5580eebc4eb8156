/* A fuzz target over sequences of the calls the Node provider makes
 * (bindings/node/src/addon*.c): the bytes decode as a program of calls on one
 * device - create a buffer, texture, view, sampler, shader module (from a
 * small pool of WGSL), bind group layout, compute pipeline or bind group;
 * writeBuffer, writeTexture, the copies and clearBuffer (each run or only
 * checked, as the encoder checks at finish()); dispatches with small counts
 * (larger ones are only checked); destroy() of buffers and textures; and a
 * drop of any object - in any order, with arguments the bytes choose,
 * out-of-range ones included.  Objects are freed as the addon frees them:
 * when nothing (the "JavaScript" side or a dependent object) holds them, in
 * whatever order that happens.  Enum members stay in range, as the addon
 * reads them from WebGPU's strings; numbers, flags, indices and sizes do not.
 *
 * Built with libFuzzer (tools/fuzz.sh calls) and as a plain program
 * replaying tests/fuzz/corpus_calls (the `fuzz_calls_corpus` test, under
 * ASan/UBSan in CI).  Besides "no crash, leak or sanitizer report": a call
 * that fails returns one of stex's statuses and no object. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stex/stex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    MAX_OBJECTS = 48,
    MAX_DEPS = 8,
    MAX_CALLS = 96,
    MAX_WORKGROUPS = 16,        /* a dispatch with more is only checked */
    MAX_STEPS = 2000,           /* instructions of one sub-group per workgroup */
    MAX_BYTES = 4u << 20        /* a valid resource larger than this is not made */
};

/* ---- the bytes, read as arguments ---- */

typedef struct input {
    const uint8_t *p, *end;
} input;

static uint32_t u8(input *in) { return in->p < in->end ? *in->p++ : 0; }

static uint32_t u32raw(input *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | u8(in);
    return v;
}

/* A count, size or index: mostly small, sometimes a limit's edge or any. */
static uint64_t num(input *in)
{
    static const uint64_t edges[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 32, 64, 255, 256, 257, 1024,
                                     2048, 4096, 8192, 8193, 65535, 65536, 1u << 27,
                                     (1u << 28) + 4, 0x7fffffff, 0xfffffffe, 0xffffffff,
                                     1ull << 32, 1ull << 53, UINT64_MAX - 3, UINT64_MAX};
    uint32_t c = u8(in);
    if (c < 128)
        return c % 17;
    if (c < 224)
        return edges[c % (sizeof edges / sizeof *edges)];
    if (c < 240)
        return u32raw(in);
    return (uint64_t)u32raw(in) << 32 | u32raw(in);
}

static uint32_t num32(input *in) { return (uint32_t)num(in); }

static double real(input *in)
{
    static const double v[] = {0, 1, -1, 0.5, 32, 1000, 1e30, -1e30, 4294967295.0, 4294967296.0,
                               -2147483649.0, INFINITY, -INFINITY, NAN};
    uint32_t c = u8(in);
    if (c < 200)
        return v[c % (sizeof v / sizeof *v)];
    uint64_t bits = (uint64_t)u32raw(in) << 32 | u32raw(in);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* ---- objects, held as the addon's handles hold them ---- */

typedef enum kind {
    K_NONE, K_BUFFER, K_TEXTURE, K_VIEW, K_SAMPLER, K_MODULE, K_LAYOUT, K_PIPELINE, K_GROUP
} kind;

typedef struct object {
    kind kind;
    void *ptr;
    bool js; /* the caller still holds it */
    int deps[MAX_DEPS], ndeps;
} object;

typedef struct world {
    stex_adapter *adapter;
    stex_device *device;
    object o[MAX_OBJECTS];
} world;

static void free_object(object *o)
{
    switch (o->kind) {
    case K_BUFFER: stex_buffer_destroy(o->ptr); break;
    case K_TEXTURE: stex_texture_destroy(o->ptr); break;
    case K_VIEW: stex_texture_view_destroy(o->ptr); break;
    case K_SAMPLER: stex_sampler_destroy(o->ptr); break;
    case K_MODULE: stex_wgsl_module_destroy(o->ptr); break;
    case K_LAYOUT: case K_PIPELINE: stex_pipeline_destroy(o->ptr); break;
    case K_GROUP: stex_bind_group_destroy(o->ptr); break;
    case K_NONE: break;
    }
    memset(o, 0, sizeof *o);
}

static bool held(const world *w, int i)
{
    if (w->o[i].js)
        return true;
    for (int k = 0; k < MAX_OBJECTS; k++)
        for (int d = 0; d < w->o[k].ndeps; d++)
            if (w->o[k].kind && w->o[k].deps[d] == i)
                return true;
    return false;
}

/* Frees whatever nothing holds, dependents before what they hold. */
static void collect(world *w)
{
    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i < MAX_OBJECTS; i++)
            if (w->o[i].kind && !held(w, i)) {
                free_object(&w->o[i]);
                again = true;
            }
    }
}

/* A live object of kind k chosen by the bytes (index -1 and NULL if none). */
static void *pick(world *w, input *in, kind k, int *index)
{
    int n = 0, idx[MAX_OBJECTS];
    for (int i = 0; i < MAX_OBJECTS; i++)
        if (w->o[i].kind == k)
            idx[n++] = i;
    *index = n ? idx[u8(in) % n] : -1;
    return n ? w->o[*index].ptr : NULL;
}

static void keep(world *w, kind k, void *ptr, const int *deps, int ndeps)
{
    for (int i = 0; i < MAX_OBJECTS; i++)
        if (!w->o[i].kind) {
            w->o[i] = (object){.kind = k, .ptr = ptr, .js = true, .ndeps = 0};
            for (int d = 0; d < ndeps && d < MAX_DEPS; d++)
                if (deps[d] >= 0)
                    w->o[i].deps[w->o[i].ndeps++] = deps[d];
            return;
        }
    free_object(&(object){.kind = k, .ptr = ptr}); /* table full: dropped at once */
}

static void fail(const char *why)
{
    fprintf(stderr, "fuzz_calls: %s\n", why);
    abort();
}

/* A failed call returns a refusal and no object. */
static void check(stex_status st, const void *out)
{
    if (getenv("FUZZ_VERBOSE")) /* what each call came to, for seeding */
        fprintf(stderr, "  -> %s%s%s\n", stex_status_name(st), st ? ": " : "",
                st ? stex_last_error() : "");
    if (st < STEX_OK || st >= STEX_STATUS_COUNT || (st && out)) {
        fprintf(stderr, "fuzz_calls: status %d with object %p\n", (int)st, out);
        abort();
    }
}

/* ---- the WGSL pool ---- */

static const char *const shaders[] = {
    "@group(0) @binding(0) var<storage, read_write> b : array<u32>;\n"
    "@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) id : vec3u) {\n"
    "  b[id.x] = b[id.x] * 2u + id.x; }\n",

    "@group(0) @binding(0) var<uniform> u : vec4u;\n"
    "@group(0) @binding(1) var<storage, read_write> b : array<atomic<u32>, 8>;\n"
    "@compute @workgroup_size(8) fn main(@builtin(local_invocation_index) i : u32) {\n"
    "  atomicAdd(&b[(i + u.x) % 8u], u.y); }\n",

    "@group(0) @binding(0) var t : texture_storage_2d<rgba8unorm, write>;\n"
    "@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) id : vec3u) {\n"
    "  textureStore(t, id.xy, vec4f(vec2f(id.xy) / 16.0, 0.5, 1.0)); }\n",

    "@group(0) @binding(0) var t : texture_storage_2d<r32float, read_write>;\n"
    "@compute @workgroup_size(4, 4) fn main(@builtin(global_invocation_id) id : vec3u) {\n"
    "  let v = textureLoad(t, id.xy); textureStore(t, id.xy, v * 0.98); }\n",

    "@group(0) @binding(0) var s : sampler;\n"
    "@group(0) @binding(1) var t : texture_2d<f32>;\n"
    "@group(1) @binding(0) var<storage, read_write> o : array<vec4f>;\n"
    "@compute @workgroup_size(2) fn main(@builtin(global_invocation_id) id : vec3u) {\n"
    "  o[id.x] = textureSampleLevel(t, s, vec2f(f32(id.x) / 2.0, 0.5), 0.0)\n"
    "          + textureLoad(t, vec2u(id.x, 0u), 0); }\n",

    "var<workgroup> acc : array<u32, 64>;\n"
    "@group(0) @binding(0) var<storage, read_write> o : array<u32>;\n"
    "override n : u32 = 64;\n"
    "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i : u32,\n"
    "                                     @builtin(workgroup_id) g : vec3u) {\n"
    "  acc[i] = i; workgroupBarrier();\n"
    "  for (var s = n / 2u; s > 0u; s /= 2u) { if (i < s) { acc[i] += acc[i + s]; }\n"
    "    workgroupBarrier(); }\n"
    "  if (i == 0u) { o[g.x] = acc[0]; } }\n",

    "@group(0) @binding(0) var<storage, read_write> o : array<u32>;\n"
    "@compute @workgroup_size(1) fn spin() { var i = 0u; loop { i++; o[i % 4u] = i; } }\n"
    "@compute @workgroup_size(1) fn main() { o[12345678] = 1u; o[0] = arrayLength(&o); }\n",

    "@group(0) @binding(0) var t : texture_storage_3d<rgba32uint, read>;\n"
    "@group(0) @binding(1) var<storage, read_write> o : array<vec4u>;\n"
    "@group(2) @binding(3) var d : texture_depth_2d;\n"
    "@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id : vec3u) {\n"
    "  o[id.x] = textureLoad(t, vec3i(id)) + vec4u(u32(textureLoad(d, vec2i(0), 0) * 9.0)); }\n",

    "@compute @workgroup_size(1) fn main() {}\n",

    "@compute @workgroup_size(1) fn main() { let x : u32 = ; }\n", /* refused */
};
enum { SHADER_COUNT = sizeof shaders / sizeof *shaders };

static const char *const entry_names[] = {NULL, "main", "spin", "nope", ""};
static const char *const override_names[] = {"n", "0", "nope", ""};

/* ---- the calls ---- */

static void buffer_create(world *w, input *in)
{
    stex_buffer_desc d = {.size = num(in), .usage = u8(in) < 200 ? (u8(in) | 0x8c) : u32raw(in)};
    if (d.size <= stex_device_limits(w->device)->max_buffer_size && d.size > MAX_BYTES)
        return; /* valid but too big to be quick */
    stex_buffer *b = NULL;
    stex_status st = stex_buffer_create(w->device, &d, &b);
    check(st, st ? b : NULL);
    if (!st)
        keep(w, K_BUFFER, b, NULL, 0);
}

static void texture_create(world *w, input *in)
{
    stex_format vf[2];
    stex_texture_desc d = {
        .dimension = (stex_texture_dimension)(u8(in) % STEX_TEXTURE_DIMENSION_COUNT),
        .size = {num32(in), num32(in), num32(in)},
        .format = (stex_format)(u8(in) % STEX_FORMAT_COUNT),
        .mip_level_count = num32(in),
        .sample_count = num32(in),
        .usage = u8(in) < 200 ? u8(in) % 32 : u32raw(in),
    };
    if (u8(in) & 1) {
        vf[0] = (stex_format)(u8(in) % STEX_FORMAT_COUNT), vf[1] = d.format;
        d.view_formats = vf, d.view_format_count = 1 + (u8(in) & 1);
    }
    if (!stex_validate_texture(w->device, &d)) {
        uint64_t texels = (uint64_t)d.size.width * (d.size.height ? d.size.height : 1) *
                          (d.size.depth_or_array_layers ? d.size.depth_or_array_layers : 1) *
                          (d.sample_count ? d.sample_count : 1);
        if (texels * 16 > MAX_BYTES)
            return;
    }
    stex_texture *t = NULL;
    stex_status st = stex_texture_create(w->device, &d, &t);
    check(st, st ? t : NULL);
    if (!st)
        keep(w, K_TEXTURE, t, NULL, 0);
}

static void view_create(world *w, input *in)
{
    int ti;
    stex_texture *t = pick(w, in, K_TEXTURE, &ti);
    if (!t)
        return;
    stex_view_desc d = {
        .format = (stex_format)(u8(in) % STEX_FORMAT_COUNT),
        .dimension = (stex_view_dimension)(u8(in) % STEX_VIEW_DIMENSION_COUNT),
        .base_mip_level = num32(in), .mip_level_count = num32(in),
        .base_array_layer = num32(in), .array_layer_count = num32(in),
        .usage = u8(in) % 32, .aspect = (stex_texture_aspect)(u8(in) % 3),
    };
    if (u8(in) & 1)
        d.format = STEX_FORMAT_UNDEFINED;
    stex_texture_view *v = NULL;
    stex_status st = stex_texture_create_view(t, &d, &v);
    check(st, st ? v : NULL);
    if (!st)
        keep(w, K_VIEW, v, &ti, 1);
}

static void sampler_create(world *w, input *in)
{
    stex_sampler_desc d = {
        .address_mode_u = (stex_address_mode)(u8(in) % 3),
        .address_mode_v = (stex_address_mode)(u8(in) % 3),
        .address_mode_w = (stex_address_mode)(u8(in) % 3),
        .mag_filter = (stex_filter_mode)(u8(in) % 2), .min_filter = (stex_filter_mode)(u8(in) % 2),
        .mipmap_filter = (stex_filter_mode)(u8(in) % 2),
        .lod_min_clamp = (float)real(in), .lod_max_clamp = (float)real(in),
        .compare = (stex_compare_function)(u8(in) % 9), .max_anisotropy = num32(in),
    };
    stex_sampler *s = NULL;
    stex_status st = stex_sampler_create(w->device, &d, &s);
    check(st, st ? s : NULL);
    if (!st)
        keep(w, K_SAMPLER, s, NULL, 0);
}

static void module_create(world *w, input *in)
{
    stex_wgsl_module *m = NULL;
    stex_status st = stex_wgsl_module_create_for(stex_device_profile(w->device),
                                                 shaders[u8(in) % SHADER_COUNT], "fuzz.wgsl", &m);
    if (!m) /* a refused module still comes back, holding its diagnostics */
        check(st ? st : STEX_INVALID_ARGUMENT, NULL);
    else
        keep(w, K_MODULE, m, NULL, 0);
}

static void layout_entry(input *in, stex_layout_entry *e, bool grouped)
{
    memset(e, 0, sizeof *e);
    e->group = grouped ? num32(in) : 0;
    e->binding = num32(in);
    e->visibility = u8(in) < 200 ? STEX_STAGE_COMPUTE : u32raw(in);
    switch (u8(in) % 4) {
    case 0: {
        static const stex_binding_type T[] = {STEX_BINDING_UNIFORM_BUFFER, STEX_BINDING_STORAGE_BUFFER,
                                              STEX_BINDING_READ_ONLY_STORAGE_BUFFER};
        e->type = T[u8(in) % 3];
        e->buffer.has_dynamic_offset = u8(in) & 1;
        e->buffer.min_binding_size = num(in);
        break;
    }
    case 1:
        e->type = STEX_BINDING_SAMPLER;
        e->sampler_type = (stex_sampler_binding_type)(1 + u8(in) % 3);
        break;
    case 2:
        e->type = STEX_BINDING_TEXTURE;
        e->texture_sample_type = (stex_texture_sample_type)(1 + u8(in) % 5);
        e->texture_view_dimension = (stex_view_dimension)(1 + u8(in) % 6);
        e->texture_multisampled = u8(in) & 1;
        break;
    default:
        e->type = STEX_BINDING_STORAGE_TEXTURE;
        e->storage_texture = (stex_storage_texture_layout){
            (stex_access)(1 + u8(in) % 3), (stex_format)(1 + u8(in) % (STEX_FORMAT_COUNT - 1)),
            (stex_view_dimension)(1 + u8(in) % 6)};
    }
}

static void no_kernel(const stex_invocation *inv) { (void)inv; }

/* createBindGroupLayout, or createPipelineLayout's whole layout (grouped). */
static void layout_create(world *w, input *in)
{
    stex_layout_entry e[6];
    bool grouped = u8(in) & 1;
    uint32_t n = u8(in) % 7;
    for (uint32_t i = 0; i < n; i++)
        layout_entry(in, &e[i], grouped);
    stex_pipeline_desc pd = {.kernel = no_kernel, .entries = e, .entry_count = n,
                             .shared_layout = true, .label = "bind group layout"};
    stex_pipeline *p = NULL;
    stex_status st = stex_pipeline_create(w->device, &pd, &p);
    check(st, st ? p : NULL);
    if (!st)
        keep(w, K_LAYOUT, p, NULL, 0);
}

static void pipeline_create(world *w, input *in)
{
    int mi;
    stex_wgsl_module *m = pick(w, in, K_MODULE, &mi);
    if (!m)
        return;
    stex_wgsl_override ov[3];
    uint32_t nov = u8(in) % 4;
    for (uint32_t i = 0; i < nov; i++)
        ov[i] = (stex_wgsl_override){override_names[u8(in) % 4], real(in)};
    stex_layout_entry layout[6];
    uint32_t nlayout = 0;
    bool explicit_layout = u8(in) & 1;
    if (explicit_layout) {
        nlayout = u8(in) % 7;
        for (uint32_t i = 0; i < nlayout; i++)
            layout_entry(in, &layout[i], true);
    }
    stex_wgsl_options o = {.subgroup_width = u8(in) < 200 ? 1u << (u8(in) % 8) : u32raw(in),
                           .max_steps = MAX_STEPS, .overrides = ov, .override_count = nov,
                           .layout = explicit_layout ? layout : NULL, .layout_count = nlayout};
    stex_pipeline *p = NULL;
    stex_status st = stex_wgsl_pipeline_create(w->device, m, entry_names[u8(in) % 5], &o, &p);
    check(st, st ? p : NULL);
    if (!st)
        keep(w, K_PIPELINE, p, NULL, 0); /* the module is not needed once it exists */
}

static void group_create(world *w, input *in)
{
    int pi;
    stex_pipeline *p = pick(w, in, u8(in) & 1 ? K_LAYOUT : K_PIPELINE, &pi);
    if (!p)
        return;
    uint32_t group = u8(in) < 200 ? u8(in) % 5 : num32(in), n = u8(in) % 7;
    stex_bind_group_entry e[6] = {{0}};
    int deps[7] = {pi, -1, -1, -1, -1, -1, -1};
    for (uint32_t i = 0; i < n; i++) {
        e[i].binding = u8(in) < 200 ? u8(in) % 4 : num32(in);
        switch (u8(in) % 3) {
        case 0:
            e[i].buffer = pick(w, in, K_BUFFER, &deps[i + 1]);
            e[i].offset = num(in);
            e[i].size = u8(in) & 1 ? num(in) : u8(in) & 1 ? STEX_BINDING_SIZE_ZERO : 0;
            break;
        case 1: e[i].view = pick(w, in, K_VIEW, &deps[i + 1]); break;
        default: e[i].sampler = pick(w, in, K_SAMPLER, &deps[i + 1]);
        }
    }
    stex_bind_group *g = NULL;
    stex_status st = stex_bind_group_create_in_group(p, group, e, n, &g);
    check(st, st ? g : NULL);
    if (!st)
        keep(w, K_GROUP, g, deps, (int)n + 1);
}

static uint8_t scratch[4096];

static void buffer_write(world *w, input *in)
{
    int bi;
    stex_buffer *b = pick(w, in, K_BUFFER, &bi);
    uint64_t off = num(in);
    size_t n = num(in) % (sizeof scratch + 1);
    if (!b)
        return;
    stex_status st = stex_queue_write_buffer(b, off, scratch, n);
    check(st, NULL);
    if (!st && stex_buffer_discarded(b))
        fail("writeBuffer wrote into a destroyed buffer");
    if (!st && n && memcmp(stex_buffer_data(b) + off, scratch, n) != 0)
        fail("writeBuffer succeeded, but the bytes are not in the buffer");
}

static stex_copy_texture copy_texture(world *w, input *in)
{
    int ti;
    stex_copy_texture c = {.texture = pick(w, in, K_TEXTURE, &ti), .mip_level = num32(in),
                           .origin = {num32(in), num32(in), num32(in)},
                           .aspect = (stex_texture_aspect)(u8(in) % 3)};
    /* the provider's copies are exact (WebGPU's numbers, "not given" bits);
     * a run file's are not */
    uint32_t x = u8(in);
    c.exact = x < 192 ? STEX_COPY_EXACT | (x & (STEX_COPY_BYTES_PER_ROW_UNSET |
                                                STEX_COPY_ROWS_PER_IMAGE_UNSET)) : 0;
    return c;
}

static stex_copy_layout copy_layout(input *in)
{
    stex_copy_layout l = {.offset = num(in), .bytes_per_row = num32(in),
                          .rows_per_image = num32(in)};
    if (u8(in) % 4 == 0)
        l.bytes_per_row = STEX_LAYOUT_ZERO;
    if (u8(in) % 4 == 0)
        l.rows_per_image = STEX_LAYOUT_ZERO;
    return l;
}

static stex_extent3d extent(input *in)
{
    uint32_t w = num32(in), h = num32(in), d = num32(in);
    return (stex_extent3d){.width = w, .height = h, .depth_or_array_layers = d};
}

static void texture_write(world *w, input *in)
{
    stex_copy_texture c = copy_texture(w, in);
    stex_copy_layout l = copy_layout(in);
    stex_extent3d e = extent(in);
    size_t n = num(in) % (sizeof scratch + 1);
    if (c.texture)
        check(stex_queue_write_texture(&c, scratch, n, &l, e), NULL);
}

static void copies(world *w, input *in, uint32_t which)
{
    bool only_check = u8(in) & 1;
    int i;
    stex_buffer *a = pick(w, in, K_BUFFER, &i), *b = pick(w, in, K_BUFFER, &i);
    uint64_t o1 = num(in), o2 = num(in), size = num(in);
    stex_copy_texture s = copy_texture(w, in), d = copy_texture(w, in);
    stex_copy_layout l = copy_layout(in);
    stex_extent3d e = extent(in);
    /* The encoder's check (at finish()) and the command's own run agree,
     * except that the run may also refuse what was destroyed since. */
    stex_status checked = STEX_OK, ran = STEX_OK;
    switch (which) {
    case 0:
        if (!a || !b)
            return;
        checked = stex_check_copy_buffer_to_buffer(a, o1, b, o2, size);
        if (!only_check) {
            uint8_t *want = malloc(size && size < MAX_BYTES ? size : 1);
            if (!want)
                return;
            if (stex_buffer_data(a) && size < MAX_BYTES && o1 < stex_buffer_size(a) &&
                size <= stex_buffer_size(a) - o1)
                memcpy(want, stex_buffer_data(a) + o1, size);
            ran = stex_copy_buffer_to_buffer(a, o1, b, o2, size);
            if (!ran && size && memcmp(stex_buffer_data(b) + o2, want, size) != 0)
                fail("copyBufferToBuffer succeeded, but the bytes did not arrive");
            free(want);
        }
        break;
    case 1:
        if (!a)
            return;
        checked = stex_check_clear_buffer(a, o1, size);
        if (!only_check && !(ran = stex_clear_buffer(a, o1, size)))
            for (uint64_t k = o1; k < (size == UINT64_MAX ? stex_buffer_size(a) : o1 + size); k++)
                if (stex_buffer_data(a)[k])
                    fail("clearBuffer succeeded, but left a byte that is not zero");
        break;
    case 2:
        if (!a || !d.texture)
            return;
        checked = stex_check_copy_buffer_to_texture(a, &l, &d, e);
        if (!only_check)
            ran = stex_copy_buffer_to_texture(a, &l, &d, e);
        break;
    case 3:
        if (!a || !s.texture)
            return;
        checked = stex_check_copy_texture_to_buffer(&s, a, &l, e);
        if (!only_check)
            ran = stex_copy_texture_to_buffer(&s, a, &l, e);
        break;
    default:
        if (!s.texture || !d.texture)
            return;
        checked = stex_check_copy_texture_to_texture(&s, &d, e);
        if (!only_check)
            ran = stex_copy_texture_to_texture(&s, &d, e);
    }
    check(checked, NULL);
    check(ran, NULL);
    if (checked && !only_check && !ran)
        fail("a copy ran that the encoder's check refuses");
    /* submit refuses a command on a destroyed buffer or texture */
    bool gone = (which <= 3 && stex_buffer_discarded(a)) ||
                (which == 0 && stex_buffer_discarded(b)) ||
                (which == 2 && stex_texture_discarded(d.texture)) ||
                (which >= 3 && stex_texture_discarded(s.texture)) ||
                (which == 4 && stex_texture_discarded(d.texture));
    if (gone && !only_check && !ran)
        fail("a copy ran on a destroyed buffer or texture");
}

static void dispatch(world *w, input *in)
{
    int i;
    stex_pipeline *p = pick(w, in, K_PIPELINE, &i);
    stex_bound_group bg[4] = {{0}};
    uint32_t offs[4][16], n = u8(in) % 5;
    for (uint32_t k = 0; k < n; k++) {
        if (u8(in) % 4 == 0)
            continue; /* a hole: no group at this index */
        bg[k].group = pick(w, in, K_GROUP, &i);
        bg[k].dynamic_offset_count = u8(in) % 4 == 0 ? u8(in) % 17 : 0;
        for (uint32_t j = 0; j < bg[k].dynamic_offset_count; j++)
            offs[k][j] = num32(in);
        bg[k].dynamic_offsets = offs[k];
    }
    uint32_t x = num32(in), y = num32(in), z = num32(in);
    uint32_t how = u8(in);
    stex_buffer *indirect = pick(w, in, K_BUFFER, &i);
    if (!p)
        return;
    if (how % 4 == 0 && indirect) {
        check(stex_check_dispatch_indirect(p, bg, n, indirect), NULL);
        return;
    }
    if (how % 4 == 1 || (uint64_t)x * y * z > MAX_WORKGROUPS) {
        check(stex_check_dispatch(p, bg, n, x, y, z), NULL);
        return;
    }
    stex_race_detector *rd = NULL;
    if (how & 8)
        check(stex_race_detector_create(NULL, &rd), NULL);
    /* sometimes stopped before it starts, as a lost device stops the queue:
     * what it leaves must serve the calls after it */
    stex_cancel *cancel = how % 4 == 2 && (how & 4) ? stex_cancel_create() : NULL;
    if (cancel)
        stex_cancel_request(cancel, STEX_CANCEL_INTERRUPTED);
    stex_dispatch_options o = {.schedule = (stex_schedule)((how >> 4) % 3), .seed = u32raw(in),
                               .threads = 1, .visibility = (stex_visibility)((how >> 6) % 2),
                               .races = rd, .cancel = cancel};
    stex_status checked = stex_check_dispatch(p, bg, n, x, y, z);
    stex_status ran = stex_dispatch_bound(p, bg, n, x, y, z, &o);
    check(checked, NULL);
    check(ran, NULL);
    if (checked && !ran)
        fail("a dispatch ran that the encoder's check refuses");
    stex_race_detector_destroy(rd);
    stex_cancel_destroy(cancel);
}

/* destroy() of a buffer or texture: its memory goes, the object stays. */
static void discard(world *w, input *in)
{
    int i;
    if (u8(in) & 1) {
        stex_buffer *b = pick(w, in, K_BUFFER, &i);
        if (b)
            stex_buffer_discard(b);
    } else {
        stex_texture *t = pick(w, in, K_TEXTURE, &i);
        if (t)
            stex_texture_discard(t);
    }
}

/* The caller lets go of an object (garbage collection). */
static void drop(world *w, input *in)
{
    int n = 0, idx[MAX_OBJECTS];
    for (int i = 0; i < MAX_OBJECTS; i++)
        if (w->o[i].kind && w->o[i].js)
            idx[n++] = i;
    if (n) {
        w->o[idx[u8(in) % n]].js = false;
        collect(w);
    }
}

/* Reads a buffer's bytes, as mapAsync(READ) does (nothing once destroyed). */
static void buffer_read(world *w, input *in)
{
    int i;
    stex_buffer *b = pick(w, in, K_BUFFER, &i);
    const uint8_t *d = b ? stex_buffer_data(b) : NULL;
    if (d)
        memcpy(scratch, d, stex_buffer_size(b) < sizeof scratch ? stex_buffer_size(b) : sizeof scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    input in = {data, data + size};
    for (size_t i = 0; i < sizeof scratch; i++) /* what writes write */
        scratch[i] = (uint8_t)(i * 31 + 7);
    static const stex_profile_id profiles[] = {STEX_PROFILE_SPEC, STEX_PROFILE_LAVAPIPE,
                                               STEX_PROFILE_NVIDIA};
    world w = {0};
    stex_adapter_desc ad = stex_adapter_desc_for_profile(profiles[u8(&in) % 3]);
    stex_device_desc dd = {.required_features = stex_adapter_desc_for_profile(STEX_PROFILE_SPEC)
                                                    .features & ad.features};
    if (stex_adapter_create(&ad, &w.adapter) || stex_device_create(w.adapter, &dd, &w.device))
        abort();
    for (int c = 0; c < MAX_CALLS && in.p < in.end; c++) {
        uint32_t op = u8(&in) % 18;
        if (getenv("FUZZ_VERBOSE"))
            fprintf(stderr, "call %d: op %u\n", c, op);
        switch (op) {
        case 0: buffer_create(&w, &in); break;
        case 1: texture_create(&w, &in); break;
        case 2: view_create(&w, &in); break;
        case 3: sampler_create(&w, &in); break;
        case 4: module_create(&w, &in); break;
        case 5: layout_create(&w, &in); break;
        case 6: pipeline_create(&w, &in); break;
        case 7: group_create(&w, &in); break;
        case 8: buffer_write(&w, &in); break;
        case 9: texture_write(&w, &in); break;
        case 10: case 11: case 12: case 13: case 14: copies(&w, &in, op - 10); break;
        case 15: dispatch(&w, &in); break;
        case 16: discard(&w, &in); break;
        default: u8(&in) & 1 ? drop(&w, &in) : buffer_read(&w, &in);
        }
    }
    /* the caller lets go of everything, in table order */
    for (int i = 0; i < MAX_OBJECTS; i++)
        w.o[i].js = false;
    collect(&w);
    stex_device_destroy(w.device);
    stex_adapter_destroy(w.adapter);
    return 0;
}
