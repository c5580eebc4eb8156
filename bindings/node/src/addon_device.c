/*
 * bindings/node/src/addon_device.c - adapters, devices, buffers, textures,
 * views and the queue's and encoder's copies, behind N-API.  Descriptors
 * arrive as the JavaScript layer normalised them (sizes and origins as
 * {width, height, depthOrArrayLayers} and {x, y, z}); WebGPU's string enums
 * are read here with stex's own name tables (stex/webgpu.h, stex/format.h).
 */
#include "addon.h"
#include "run/names.h" /* WebGPU's enum spellings, as run files read them */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- limits and features as WebGPU names ---- */

typedef struct limit_field {
    const char *c_name;
    size_t offset;
} limit_field;

static const limit_field LIMITS[] = {
#define LIMIT_(name, dflt) {#name, offsetof(stex_limits, name)},
    STEX_LIMITS(LIMIT_) STEX_ALIGNMENT_LIMITS(LIMIT_)
#undef LIMIT_
};

/* "max_texture_dimension_2d" -> "maxTextureDimension2D" (WebGPU's names). */
static void camel(const char *c, char *out, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; c[i] && n + 1 < size; i++) {
        char ch = c[i];
        if (ch == '_')
            continue;
        bool up = i > 0 && (c[i - 1] == '_' || (ch == 'd' && c[i - 1] >= '0' && c[i - 1] <= '9'));
        out[n++] = up && ch >= 'a' && ch <= 'z' ? (char)(ch - 'a' + 'A') : ch;
    }
    out[n] = 0;
}

static napi_value limits_object(napi_env env, const stex_limits *l)
{
    napi_value o, v;
    napi_create_object(env, &o);
    for (size_t i = 0; i < sizeof LIMITS / sizeof LIMITS[0]; i++) {
        char name[96];
        camel(LIMITS[i].c_name, name, sizeof name);
        uint64_t x;
        memcpy(&x, (const char *)l + LIMITS[i].offset, sizeof x);
        napi_create_double(env, (double)x, &v);
        napi_set_named_property(env, o, name, v);
    }
    return o;
}

/* requiredLimits: every key must be a limit stex knows (WebGPU: an
 * unknown key is an OperationError at requestDevice). */
static bool read_limits(napi_env env, napi_value obj, stex_limits *l)
{
    if (addon_is_undefined(env, obj))
        return true;
    napi_value keys = NULL;
    uint32_t n = 0;
    if (napi_get_property_names(env, obj, &keys) != napi_ok ||
        napi_get_array_length(env, keys, &n) != napi_ok)
        return false; /* an ownKeys trap threw, or not an object */
    for (uint32_t k = 0; k < n; k++) {
        napi_value key = addon_element(env, keys, k);
        char name[96] = "";
        size_t len;
        napi_get_value_string_utf8(env, key, name, sizeof name, &len);
        size_t i = 0;
        char want[96];
        for (; i < sizeof LIMITS / sizeof LIMITS[0]; i++) {
            camel(LIMITS[i].c_name, want, sizeof want);
            if (!strcmp(want, name))
                break;
        }
        if (i == sizeof LIMITS / sizeof LIMITS[0]) {
            napi_throw_error(env, "OperationError", "requestDevice: requiredLimits names an "
                                                    "unknown limit");
            return false;
        }
        uint64_t v = 0;
        if (!addon_get_u64(env, obj, name, &v))
            return false;
        memcpy((char *)l + LIMITS[i].offset, &v, sizeof v);
    }
    return true;
}

static napi_value names_array(napi_env env, uint32_t bits, bool language)
{
    napi_value a, s;
    uint32_t n = 0;
    napi_create_array(env, &a);
    for (uint32_t b = 0; b < 32; b++)
        if (bits >> b & 1) {
            const char *name = language ? stex_language_feature_name((stex_language_feature)(1u << b))
                                        : stex_feature_name((stex_feature)(1u << b));
            napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &s);
            napi_set_element(env, a, n++, s);
        }
    return a;
}

static napi_value info_object(napi_env env, uint32_t features, uint32_t language,
                              const stex_limits *limits, const stex_profile *p)
{
    napi_value o, s;
    napi_create_object(env, &o);
    napi_set_named_property(env, o, "features", names_array(env, features, false));
    napi_set_named_property(env, o, "languageFeatures", names_array(env, language, true));
    napi_set_named_property(env, o, "limits", limits_object(env, limits));
    if (p) {
        napi_create_string_utf8(env, stex_profile_name(stex_profile_id_of(p)), NAPI_AUTO_LENGTH, &s);
        napi_set_named_property(env, o, "profile", s);
    }
    return o;
}

/* adapterCreate(profile: string) */
static napi_value adapter_create(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(1);
    char name[64] = "spec";
    size_t len;
    napi_valuetype t;
    napi_typeof(env, argv[0], &t);
    if (t == napi_string)
        napi_get_value_string_utf8(env, argv[0], name, sizeof name, &len);
    stex_profile_id id;
    if (!stex_profile_from_name(name, &id))
        return addon_throw_type(env, "profile '%s': not one of stex's profiles (spec, lavapipe, "
                                     "nvidia)", name);
    stex_adapter_desc d = stex_adapter_desc_for_profile(id);
    stex_adapter *a;
    stex_status st = stex_adapter_create(&d, &a);
    if (st)
        return addon_throw_status(env, st);
    return addon_wrap(env, addon_handle_new(ADDON_ADAPTER, a, NULL, 0));
}

static napi_value adapter_info(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(1);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_ADAPTER, "adapterInfo");
    if (!h)
        return NULL;
    stex_adapter *a = h->ptr;
    return info_object(env, stex_adapter_features(a), stex_adapter_language_features(a),
                       stex_adapter_limits(a), NULL);
}

/* deviceCreate(adapter, requiredFeatures: string[], requiredLimits: object) */
static napi_value device_create(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(3);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_ADAPTER, "requestDevice");
    if (!h)
        return NULL;
    stex_device_desc d = {0};
    uint32_t n = 0;
    bool is_array = false;
    napi_is_array(env, argv[1], &is_array);
    if (is_array)
        napi_get_array_length(env, argv[1], &n);
    for (uint32_t i = 0; i < n; i++) {
        napi_value v = addon_element(env, argv[1], i);
        char name[64];
        size_t len;
        stex_feature f;
        if (napi_get_value_string_utf8(env, v, name, sizeof name, &len) != napi_ok ||
            !stex_feature_from_name(name, &f))
            return addon_throw_type(env, "requestDevice: requiredFeatures[%u] is not a "
                                         "GPUFeatureName", i);
        d.required_features |= (uint32_t)f;
    }
    if (!read_limits(env, argv[2], &d.required_limits))
        return NULL;
    stex_device *dev;
    stex_status st = stex_device_create(h->ptr, &d, &dev);
    if (st) {
        napi_throw_error(env, "OperationError", stex_last_error());
        return NULL;
    }
    return addon_wrap(env, addon_handle_new(ADDON_DEVICE, dev, &h, 1));
}

static napi_value device_info(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(1);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_DEVICE, "deviceInfo");
    if (!h)
        return NULL;
    stex_device *d = h->ptr;
    return info_object(env, stex_device_features(d), stex_device_language_features(d),
                       stex_device_limits(d), stex_device_profile(d));
}

/* ---- buffers ---- */

/* bufferCreate(device, size, usage, label) */
static napi_value buffer_create(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(2);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_DEVICE, "createBuffer");
    if (!h)
        return NULL;
    stex_buffer_desc d = {0};
    if (!addon_get_u64(env, argv[1], "size", &d.size) ||
        !addon_get_u32(env, argv[1], "usage", &d.usage))
        return NULL;
    stex_buffer *b;
    stex_status st = stex_buffer_create(h->ptr, &d, &b);
    if (st)
        return addon_throw_status(env, st);
    return addon_wrap(env, addon_handle_new(ADDON_BUFFER, b, &h, 1));
}

/* The bytes of a TypedArray, DataView or ArrayBuffer. */
static bool bytes_of(napi_env env, napi_value v, uint8_t **data, size_t *size)
{
    bool is;
    if (napi_is_typedarray(env, v, &is) == napi_ok && is) {
        napi_typedarray_type t;
        size_t length, offset;
        napi_value ab;
        void *p;
        napi_get_typedarray_info(env, v, &t, &length, &p, &ab, &offset);
        static const size_t width[] = {1, 1, 1, 2, 2, 4, 4, 4, 8, 8, 8};
        *data = p, *size = length * (t < sizeof width / sizeof width[0] ? width[t] : 1);
        return true;
    }
    if (napi_is_dataview(env, v, &is) == napi_ok && is) {
        void *p;
        napi_value ab;
        size_t offset;
        napi_get_dataview_info(env, v, size, &p, &ab, &offset);
        *data = p;
        return true;
    }
    if (napi_is_arraybuffer(env, v, &is) == napi_ok && is) {
        void *p;
        napi_get_arraybuffer_info(env, v, &p, size);
        *data = p;
        return true;
    }
    addon_throw_type(env, "data: not an ArrayBuffer, TypedArray or DataView");
    return false;
}

static bool u64_arg(napi_env env, napi_value v, const char *what, uint64_t *out)
{
    double d;
    if (napi_get_value_double(env, v, &d) != napi_ok || !(d >= 0) || d > 9007199254740991.0 ||
        d != (double)(uint64_t)d) {
        addon_throw_type(env, "%s: not an integer in [0, 2^53)", what);
        return false;
    }
    *out = (uint64_t)d;
    return true;
}

/* bufferRead(buffer, offset, size) -> ArrayBuffer: a copy of the range. */
static napi_value buffer_read(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(3);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_BUFFER, "getMappedRange");
    uint64_t off, size;
    if (!h || !u64_arg(env, argv[1], "offset", &off) || !u64_arg(env, argv[2], "size", &size))
        return NULL;
    uint64_t total = stex_buffer_size(h->ptr);
    if (off > total || size > total - off)
        return addon_throw_type(env, "range [%llu, %llu) is outside the buffer's %llu bytes",
                                (unsigned long long)off, (unsigned long long)(off + size),
                                (unsigned long long)total);
    napi_value ab;
    void *p;
    if (napi_create_arraybuffer(env, (size_t)size, &p, &ab) != napi_ok)
        return NULL;
    memcpy(p, stex_buffer_data(h->ptr) + off, (size_t)size);
    return ab;
}

/* bufferWrite(buffer, offset, bytes): queue.writeBuffer's rules; with
 * `mapped` true, the unmap of a mapping (no usage rule). */
static napi_value buffer_write(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(4);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_BUFFER, "writeBuffer");
    uint64_t off;
    uint8_t *data;
    size_t size;
    if (!h || !u64_arg(env, argv[1], "bufferOffset", &off) || !bytes_of(env, argv[2], &data, &size))
        return NULL;
    bool mapped = false;
    napi_get_value_bool(env, argv[3], &mapped);
    if (mapped) {
        uint64_t total = stex_buffer_size(h->ptr);
        if (off > total || size > total - off)
            return addon_throw_type(env, "mapped range outside the buffer");
        memcpy(stex_buffer_data(h->ptr) + off, data, size);
        return NULL;
    }
    stex_status st = stex_queue_write_buffer(h->ptr, off, data, size);
    return st ? addon_throw_status(env, st) : NULL;
}

/* A trailing argument `check` true: the command's rules only, as the
 * encoder checks them at finish() (stex_check_*); false: run it. */
static bool check_only(napi_env env, napi_value v)
{
    bool b = false;
    napi_valuetype t;
    if (napi_typeof(env, v, &t) == napi_ok && t == napi_boolean)
        napi_get_value_bool(env, v, &b);
    return b;
}

/* copyBufferToBuffer(src, srcOffset, dst, dstOffset, size, check) */
static napi_value buffer_copy(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(6);
    addon_handle *s = addon_unwrap(env, argv[0], ADDON_BUFFER, "copyBufferToBuffer source");
    addon_handle *d = s ? addon_unwrap(env, argv[2], ADDON_BUFFER, "copyBufferToBuffer destination") : NULL;
    uint64_t so, dof, size;
    if (!d || !u64_arg(env, argv[1], "sourceOffset", &so) ||
        !u64_arg(env, argv[3], "destinationOffset", &dof) || !u64_arg(env, argv[4], "size", &size))
        return NULL;
    stex_status st = check_only(env, argv[5])
                         ? stex_check_copy_buffer_to_buffer(s->ptr, so, d->ptr, dof, size)
                         : stex_copy_buffer_to_buffer(s->ptr, so, d->ptr, dof, size);
    return st ? addon_throw_status(env, st) : NULL;
}

/* clearBuffer(buffer, offset, size, check) */
static napi_value buffer_clear(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(4);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_BUFFER, "clearBuffer");
    uint64_t off, size;
    if (!h || !u64_arg(env, argv[1], "offset", &off) || !u64_arg(env, argv[2], "size", &size))
        return NULL;
    stex_status st = check_only(env, argv[3]) ? stex_check_clear_buffer(h->ptr, off, size)
                                              : stex_clear_buffer(h->ptr, off, size);
    return st ? addon_throw_status(env, st) : NULL;
}

/* ---- textures and views ---- */

static bool extent(napi_env env, napi_value obj, stex_extent3d *e)
{
    e->height = e->depth_or_array_layers = 1;
    return addon_get_u32(env, obj, "width", &e->width) &&
           addon_get_u32(env, obj, "height", &e->height) &&
           addon_get_u32(env, obj, "depthOrArrayLayers", &e->depth_or_array_layers);
}

/* A copy's GPUExtent3D (webgpu.js gives every member, defaults applied),
 * read as it is: copy_texture marks the copy STEX_COPY_EXACT. */
static bool copy_extent(napi_env env, napi_value obj, stex_extent3d *e)
{
    return extent(env, obj, e);
}

static bool format_of(napi_env env, napi_value obj, const char *key, stex_format *f)
{
    char name[64];
    bool present;
    if (!addon_get_string(env, obj, key, name, sizeof name, &present))
        return false;
    if (!present)
        return true;
    *f = stex_format_from_name(name);
    if (*f == STEX_FORMAT_UNDEFINED) {
        addon_throw_type(env, "%s: '%s' is not a GPUTextureFormat", key, name);
        return false;
    }
    return true;
}

/* isTextureFormat(value) -> whether value is a string naming a
 * GPUTextureFormat (one holding U+0000 names none). */
static napi_value is_texture_format(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(1);
    char name[64];
    size_t n = 0;
    napi_valuetype t;
    bool yes = napi_typeof(env, argv[0], &t) == napi_ok && t == napi_string &&
               napi_get_value_string_utf8(env, argv[0], name, sizeof name, &n) == napi_ok &&
               n + 1 < sizeof name && strlen(name) == n &&
               stex_format_from_name(name) != STEX_FORMAT_UNDEFINED;
    napi_value r;
    napi_get_boolean(env, yes, &r);
    return r;
}

/* textureCreate(device, {dimension, size, format, mipLevelCount, sampleCount, usage}) */
static napi_value texture_create(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(2);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_DEVICE, "createTexture");
    if (!h)
        return NULL;
    stex_texture_desc d = {.dimension = STEX_TEXTURE_DIMENSION_2D, .mip_level_count = 1,
                           .sample_count = 1};
    char dim[16];
    bool present;
    if (!addon_get_string(env, argv[1], "dimension", dim, sizeof dim, &present))
        return NULL;
    if (present && !stex_texture_dimension_from_name(dim, &d.dimension))
        return addon_throw_type(env, "dimension: '%s' is not a GPUTextureDimension", dim);
    if (!extent(env, addon_get(env, argv[1], "size"), &d.size) ||
        !format_of(env, argv[1], "format", &d.format) ||
        !addon_get_u32(env, argv[1], "mipLevelCount", &d.mip_level_count) ||
        !addon_get_u32(env, argv[1], "sampleCount", &d.sample_count) ||
        !addon_get_u32(env, argv[1], "usage", &d.usage))
        return NULL;
    if (d.format == STEX_FORMAT_UNDEFINED)
        return addon_throw_type(env, "createTexture: format is required");
    stex_texture *t;
    stex_status st = stex_texture_create(h->ptr, &d, &t);
    if (st)
        return addon_throw_status(env, st);
    return addon_wrap(env, addon_handle_new(ADDON_TEXTURE, t, &h, 1));
}

/* viewCreate(texture, {format, dimension, aspect, baseMipLevel, mipLevelCount, ...}) */
static napi_value view_create(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(2);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_TEXTURE, "createView");
    if (!h)
        return NULL;
    stex_view_desc d = {0};
    char s[32];
    bool present;
    if (!format_of(env, argv[1], "format", &d.format) ||
        !addon_get_string(env, argv[1], "dimension", s, sizeof s, &present))
        return NULL;
    if (present && !stex_view_dimension_from_name(s, &d.dimension))
        return addon_throw_type(env, "dimension: '%s' is not a GPUTextureViewDimension", s);
    int aspect = STEX_ASPECT_ALL;
    if (!addon_get_name(env, argv[1], "aspect", RUN_ASPECTS, 0, &aspect))
        return NULL;
    d.aspect = (stex_texture_aspect)aspect;
    if (!addon_get_u32(env, argv[1], "baseMipLevel", &d.base_mip_level) ||
        !addon_get_u32(env, argv[1], "mipLevelCount", &d.mip_level_count) ||
        !addon_get_u32(env, argv[1], "baseArrayLayer", &d.base_array_layer) ||
        !addon_get_u32(env, argv[1], "arrayLayerCount", &d.array_layer_count) ||
        !addon_get_u32(env, argv[1], "usage", &d.usage))
        return NULL;
    stex_texture_view *v;
    stex_status st = stex_texture_create_view(h->ptr, &d, &v);
    if (st)
        return addon_throw_status(env, st);
    return addon_wrap(env, addon_handle_new(ADDON_VIEW, v, &h, 1));
}

/* A GPUTexelCopyTextureInfo as normalised: {texture, mipLevel, origin: {x, y, z}}. */
static bool copy_texture(napi_env env, napi_value obj, stex_copy_texture *c)
{
    addon_handle *h = addon_unwrap(env, addon_get(env, obj, "texture"), ADDON_TEXTURE, "texture");
    if (!h)
        return false;
    napi_value o = addon_get(env, obj, "origin");
    c->texture = h->ptr;
    int aspect = STEX_ASPECT_ALL;
    bool ok = addon_get_u32(env, obj, "mipLevel", &c->mip_level) &&
              addon_get_u32(env, o, "x", &c->origin[0]) &&
              addon_get_u32(env, o, "y", &c->origin[1]) &&
              addon_get_u32(env, o, "z", &c->origin[2]) &&
              addon_get_name(env, obj, "aspect", RUN_ASPECTS, 0, &aspect);
    c->aspect = (stex_texture_aspect)aspect;
    c->exact = STEX_COPY_EXACT; /* WebGPU's numbers: 0 and 4294967295 are themselves */
    return ok;
}

/* bytesPerRow or rowsPerImage: an unset bit in *exact when not given,
 * else every GPUSize32 as itself (WebGPU checks a given 0, and 4294967295
 * is a value). */
static bool layout_stride(napi_env env, napi_value obj, const char *key, uint32_t *out,
                          uint32_t unset, uint32_t *exact)
{
    *out = 0;
    if (addon_is_undefined(env, addon_get(env, obj, key))) {
        *exact |= unset;
        return true;
    }
    return addon_get_u32(env, obj, key, out);
}

/* The layout, and its "not given" bits for the copy's texture c. */
static bool copy_layout(napi_env env, napi_value obj, stex_copy_layout *l, stex_copy_texture *c)
{
    return addon_get_u64(env, obj, "offset", &l->offset) &&
           layout_stride(env, obj, "bytesPerRow", &l->bytes_per_row,
                         STEX_COPY_BYTES_PER_ROW_UNSET, &c->exact) &&
           layout_stride(env, obj, "rowsPerImage", &l->rows_per_image,
                         STEX_COPY_ROWS_PER_IMAGE_UNSET, &c->exact);
}

/* writeTexture(destination, data, dataLayout, size) */
static napi_value texture_write(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(4);
    stex_copy_texture c = {0};
    stex_copy_layout l = {0};
    stex_extent3d e;
    uint8_t *data;
    size_t size;
    if (!copy_texture(env, argv[0], &c) || !bytes_of(env, argv[1], &data, &size) ||
        !copy_layout(env, argv[2], &l, &c) || !copy_extent(env, argv[3], &e))
        return NULL;
    stex_status st = stex_queue_write_texture(&c, data, size, &l, e);
    return st ? addon_throw_status(env, st) : NULL;
}

/* copyBufferToTexture({buffer, offset, bytesPerRow, rowsPerImage}, destination, size, check)
 * and copyTextureToBuffer(source, {buffer, ...}, size, check): argument
 * `linear` of the two is the buffer side. */
static napi_value buffer_texture_copy(napi_env env, napi_callback_info info, bool to_texture)
{
    ADDON_ARGS(4);
    napi_value linear = argv[to_texture ? 0 : 1], tex = argv[to_texture ? 1 : 0];
    addon_handle *b = addon_unwrap(env, addon_get(env, linear, "buffer"), ADDON_BUFFER, "buffer");
    stex_copy_texture c = {0};
    stex_copy_layout l = {0};
    stex_extent3d e;
    if (!b || !copy_texture(env, tex, &c) || !copy_layout(env, linear, &l, &c) ||
        !copy_extent(env, argv[2], &e))
        return NULL;
    bool check = check_only(env, argv[3]);
    stex_status st = to_texture ? (check ? stex_check_copy_buffer_to_texture(b->ptr, &l, &c, e)
                                         : stex_copy_buffer_to_texture(b->ptr, &l, &c, e))
                                : (check ? stex_check_copy_texture_to_buffer(&c, b->ptr, &l, e)
                                         : stex_copy_texture_to_buffer(&c, b->ptr, &l, e));
    return st ? addon_throw_status(env, st) : NULL;
}

static napi_value buffer_to_texture(napi_env env, napi_callback_info info)
{
    return buffer_texture_copy(env, info, true);
}

static napi_value texture_to_buffer(napi_env env, napi_callback_info info)
{
    return buffer_texture_copy(env, info, false);
}

/* copyTextureToTexture(source, destination, size, check) */
static napi_value texture_to_texture(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(4);
    stex_copy_texture s = {0}, d = {0};
    stex_extent3d e;
    if (!copy_texture(env, argv[0], &s) || !copy_texture(env, argv[1], &d) ||
        !copy_extent(env, argv[2], &e))
        return NULL;
    stex_status st = check_only(env, argv[3]) ? stex_check_copy_texture_to_texture(&s, &d, e)
                                              : stex_copy_texture_to_texture(&s, &d, e);
    return st ? addon_throw_status(env, st) : NULL;
}

/* ---- samplers ---- */

/* samplerCreate(device, GPUSamplerDescriptor) */
static napi_value sampler_create(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(2);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_DEVICE, "createSampler");
    if (!h)
        return NULL;
    int au = 0, av = 0, aw = 0, mag = 0, min = 0, mip = 0, cmp = 0;
    double lo = 0, hi = 32;
    bool has_lo, has_hi;
    stex_sampler_desc d = {0};
    napi_value o = argv[1];
    if (!addon_get_name(env, o, "addressModeU", RUN_ADDRESS_MODES, 0, &au) ||
        !addon_get_name(env, o, "addressModeV", RUN_ADDRESS_MODES, 0, &av) ||
        !addon_get_name(env, o, "addressModeW", RUN_ADDRESS_MODES, 0, &aw) ||
        !addon_get_name(env, o, "magFilter", RUN_FILTERS, 0, &mag) ||
        !addon_get_name(env, o, "minFilter", RUN_FILTERS, 0, &min) ||
        !addon_get_name(env, o, "mipmapFilter", RUN_FILTERS, 0, &mip) ||
        !addon_get_name(env, o, "compare", RUN_COMPARE_FUNCTIONS, 1, &cmp) ||
        !addon_get_f64(env, o, "lodMinClamp", &lo, &has_lo) ||
        !addon_get_f64(env, o, "lodMaxClamp", &hi, &has_hi) ||
        !addon_get_u32(env, o, "maxAnisotropy", &d.max_anisotropy))
        return NULL;
    d.address_mode_u = (stex_address_mode)au, d.address_mode_v = (stex_address_mode)av;
    d.address_mode_w = (stex_address_mode)aw;
    d.mag_filter = (stex_filter_mode)mag, d.min_filter = (stex_filter_mode)min;
    d.mipmap_filter = (stex_filter_mode)mip;
    d.compare = (stex_compare_function)cmp;
    d.lod_min_clamp = (float)lo, d.lod_max_clamp = (float)hi;
    stex_sampler *s;
    stex_status st = stex_sampler_create(h->ptr, &d, &s);
    if (st)
        return addon_throw_status(env, st);
    return addon_wrap(env, addon_handle_new(ADDON_SAMPLER, s, &h, 1));
}

void addon_define_device(napi_env env, napi_value exports)
{
    addon_export(env, exports, "adapterCreate", adapter_create);
    addon_export(env, exports, "adapterInfo", adapter_info);
    addon_export(env, exports, "deviceCreate", device_create);
    addon_export(env, exports, "deviceInfo", device_info);
    addon_export(env, exports, "bufferCreate", buffer_create);
    addon_export(env, exports, "bufferRead", buffer_read);
    addon_export(env, exports, "bufferWrite", buffer_write);
    addon_export(env, exports, "bufferCopy", buffer_copy);
    addon_export(env, exports, "bufferClear", buffer_clear);
    addon_export(env, exports, "textureCreate", texture_create);
    addon_export(env, exports, "isTextureFormat", is_texture_format);
    addon_export(env, exports, "viewCreate", view_create);
    addon_export(env, exports, "samplerCreate", sampler_create);
    addon_export(env, exports, "textureWrite", texture_write);
    addon_export(env, exports, "bufferToTexture", buffer_to_texture);
    addon_export(env, exports, "textureToBuffer", texture_to_buffer);
    addon_export(env, exports, "textureToTexture", texture_to_texture);
}
