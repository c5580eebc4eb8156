/* Allowed mode in the provider (flag allowed=1): the shadows a device's
 * pipelines keep (stex_allowed, stex/wgsl.h), the bounds of a texture
 * level or a buffer's texels read from them (an allowed golden's, stex/io.h)
 * and a readback judged against those bounds - device.stex.allowedBounds
 * in lib/webgpu.js. */
#include "addon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char CHANNEL[4] = {'r', 'g', 'b', 'a'};

/* allowedCreate(): the shadows of one device's pipelines */
static napi_value allowed_create(napi_env env, napi_callback_info info)
{
    (void)info;
    stex_allowed *a;
    stex_status st = stex_allowed_create(&a);
    if (st)
        return addon_throw_status(env, st);
    return addon_wrap(env, addon_handle_new(ADDON_ALLOWED, a, NULL, 0));
}

/* A buffer's bytes from `offset` as w x h tightly packed texels of f; false
 * (with why) when they do not fit. */
static bool buffer_image(stex_buffer *b, uint64_t offset, stex_format f, uint32_t w, uint32_t h,
                         stex_image *img, char *why, size_t n)
{
    const stex_format_info *fi = stex_format_get(f);
    uint64_t row = (uint64_t)w * fi->bytes, need = row * h, size = stex_buffer_size(b);
    if (fi->block_width != 1 || offset > size || need > size - offset) {
        snprintf(why, n, "allowedBounds: offset %llu + %ux%u %s texels exceed the buffer's %llu "
                         "bytes", (unsigned long long)offset, w, h, fi->name,
                 (unsigned long long)size);
        return false;
    }
    if (stex_image_init(img, f, w, h, 1)) {
        snprintf(why, n, "allowedBounds: %ux%u %s texels: %s", w, h, fi->name, stex_last_error());
        return false;
    }
    for (uint32_t y = 0; y < h; y++)
        memcpy(stex_image_texel(img, 0, y, 0), stex_buffer_data(b) + offset + y * row, row);
    return true;
}

/* allowedBounds(allowed, texture, {mipLevel})
 * allowedBounds(allowed, buffer, {offset, format, width, height}):
 * a handle on the bounds of what a conformant device may leave there */
static napi_value allowed_bounds(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(3);
    addon_handle *a = addon_unwrap(env, argv[0], ADDON_ALLOWED, "allowedBounds");
    addon_handle *r = a ? addon_peek(env, argv[1]) : NULL;
    if (!a)
        return NULL;
    if (!r || (r->kind != ADDON_TEXTURE && r->kind != ADDON_BUFFER))
        return addon_throw_type(env, "allowedBounds: not a GPUTexture or GPUBuffer");
    napi_valuetype t = napi_undefined;
    napi_typeof(env, argv[2], &t);
    if (t != napi_object)
        return addon_throw_type(env, "allowedBounds: options must be an object");
    stex_image img = {0};
    stex_allowed_output ao = {0};
    stex_bounds *b = calloc(1, sizeof *b);
    stex_status st = STEX_OK;
    if (!b) {
        napi_throw_error(env, "out of memory", "allowedBounds: out of memory");
        return NULL;
    }
    if (r->kind == ADDON_TEXTURE) {
        uint32_t mip = 0;
        if (!addon_get_u32(env, argv[2], "mipLevel", &mip)) {
            free(b);
            return NULL;
        }
        if (!(st = stex_image_from_texture(r->ptr, mip, &img)))
            st = stex_allowed_texture(a->ptr, r->ptr, mip, &ao);
    } else {
        uint64_t offset = 0;
        uint32_t w = 0, h = 1;
        char fmt[64] = "";
        bool has_fmt = false;
        if (!addon_get_u64(env, argv[2], "offset", &offset) ||
            !addon_get_u32(env, argv[2], "width", &w) ||
            !addon_get_u32(env, argv[2], "height", &h) ||
            !addon_get_string(env, argv[2], "format", fmt, sizeof fmt, &has_fmt)) {
            free(b);
            return NULL;
        }
        stex_format f = has_fmt ? stex_format_from_name(fmt) : STEX_FORMAT_UNDEFINED;
        if (f == STEX_FORMAT_UNDEFINED || !w || !h) {
            free(b);
            return addon_throw_type(env, "allowedBounds: a buffer's texels need format (a "
                                         "texture format), width and height");
        }
        char why[256];
        if (!buffer_image(r->ptr, offset, f, w, h, &img, why, sizeof why)) {
            free(b);
            return addon_throw_type(env, "%s", why);
        }
        st = stex_allowed_buffer(a->ptr, r->ptr, offset,
                                 (uint64_t)w * h * stex_format_get(f)->bytes, &ao);
    }
    if (!st)
        st = stex_bounds_from_allowed(&ao, &img, b);
    stex_allowed_output_free(&ao);
    stex_image_free(&img);
    if (st) {
        free(b);
        return addon_throw_status(env, st);
    }
    return addon_wrap(env, addon_handle_new(ADDON_BOUNDS, b, NULL, 0));
}

static void put_num(napi_env env, napi_value o, const char *key, double v)
{
    napi_value n;
    napi_create_double(env, v, &n);
    napi_set_named_property(env, o, key, n);
}

static void put_str(napi_env env, napi_value o, const char *key, const char *s)
{
    napi_value v;
    if (s)
        napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v);
    else
        napi_get_null(env, &v);
    napi_set_named_property(env, o, key, v);
}

/* A Uint32Array (or Uint8Array) of n values, field by field of the bounds. */
static napi_value typed(napi_env env, const stex_bounds *b, size_t n, int field)
{
    void *data;
    napi_value ab, arr;
    size_t elem = field == 2 ? 1 : 4;
    if (napi_create_arraybuffer(env, n * elem, &data, &ab) != napi_ok)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        const stex_bound *v = &b->v[i];
        if (field == 2)
            ((uint8_t *)data)[i] = (uint8_t)v->flags;
        else
            ((uint32_t *)data)[i] = field == 0 ? v->lo : field == 1 ? v->hi : v->reason;
    }
    napi_create_typedarray(env, field == 2 ? napi_uint8_array : napi_uint32_array, n, ab, 0, &arr);
    return arr;
}

/* boundsInfo(bounds): {format, size, channels, lo, hi, flags, reason, reasons} */
static napi_value bounds_info(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(1);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_BOUNDS, "boundsInfo");
    if (!h)
        return NULL;
    const stex_bounds *b = h->ptr;
    size_t n = (size_t)b->width * b->height * b->depth * b->channels;
    napi_value o, size, reasons, v;
    napi_create_object(env, &o);
    put_str(env, o, "format", stex_format_name(b->format));
    napi_create_array_with_length(env, 3, &size);
    uint32_t dims[3] = {b->width, b->height, b->depth};
    for (uint32_t i = 0; i < 3; i++) {
        napi_create_uint32(env, dims[i], &v);
        napi_set_element(env, size, i, v);
    }
    napi_set_named_property(env, o, "size", size);
    put_num(env, o, "channels", b->channels);
    static const char *const keys[4] = {"lo", "hi", "flags", "reason"};
    for (int f = 0; f < 4; f++) {
        napi_value arr = typed(env, b, n, f == 3 ? 3 : f);
        if (!arr) {
            napi_throw_error(env, "out of memory", "boundsInfo: out of memory");
            return NULL;
        }
        napi_set_named_property(env, o, keys[f], arr);
    }
    napi_create_array_with_length(env, b->nreasons, &reasons);
    for (uint32_t i = 0; i < b->nreasons; i++) {
        napi_create_string_utf8(env, b->reasons[i], NAPI_AUTO_LENGTH, &v);
        napi_set_element(env, reasons, i, v);
    }
    napi_set_named_property(env, o, "reasons", reasons);
    return o;
}

static const char *verdict_name(stex_bound_verdict v)
{
    return v == STEX_BOUND_NAN_OUTSIDE ? "nan_outside"
           : v == STEX_BOUND_NUMBER_OUTSIDE ? "number_outside" : "outside";
}

/* The readback bytes of a TypedArray, DataView or ArrayBuffer. */
static bool bytes_of(napi_env env, napi_value v, const uint8_t **p, size_t *n)
{
    bool is;
    void *data = NULL;
    if (napi_is_arraybuffer(env, v, &is) == napi_ok && is)
        return napi_get_arraybuffer_info(env, v, &data, n) == napi_ok && (*p = data, true);
    if (napi_is_typedarray(env, v, &is) == napi_ok && is) {
        napi_typedarray_type t;
        size_t len, off;
        napi_value ab;
        if (napi_get_typedarray_info(env, v, &t, &len, &data, &ab, &off) != napi_ok)
            return false;
        static const size_t width[] = {[napi_int8_array] = 1, [napi_uint8_array] = 1,
                                       [napi_uint8_clamped_array] = 1, [napi_int16_array] = 2,
                                       [napi_uint16_array] = 2, [napi_int32_array] = 4,
                                       [napi_uint32_array] = 4, [napi_float32_array] = 4,
                                       [napi_float64_array] = 8, [napi_bigint64_array] = 8,
                                       [napi_biguint64_array] = 8};
        *n = len * ((size_t)t < sizeof width / sizeof width[0] ? width[t] : 1);
        *p = data;
        return true;
    }
    if (napi_is_dataview(env, v, &is) == napi_ok && is) {
        napi_value ab;
        size_t off;
        if (napi_get_dataview_info(env, v, n, &data, &ab, &off) != napi_ok)
            return false;
        *p = data;
        return true;
    }
    return false;
}

/* boundsCheck(bounds, readback, bytesPerRow | undefined, rowsPerImage | undefined):
 * the readback (copyTextureToBuffer's layout; default bytesPerRow: one
 * unpadded row) against the bounds, as `stex compare` judges it */
static napi_value bounds_check(napi_env env, napi_callback_info info)
{
    ADDON_ARGS(4);
    addon_handle *h = addon_unwrap(env, argv[0], ADDON_BOUNDS, "boundsCheck");
    if (!h)
        return NULL;
    const stex_bounds *b = h->ptr;
    const stex_format_info *fi = stex_format_get(b->format);
    const uint8_t *bytes = NULL;
    size_t n = 0;
    if (!bytes_of(env, argv[1], &bytes, &n))
        return addon_throw_type(env, "boundsCheck: the readback must be an ArrayBuffer, a "
                                     "TypedArray or a DataView");
    uint32_t bpr = b->width * fi->bytes, rpi = b->height;
    if (!addon_is_undefined(env, argv[2]) && napi_get_value_uint32(env, argv[2], &bpr) != napi_ok)
        return addon_throw_type(env, "boundsCheck: bytesPerRow must be a number");
    if (!addon_is_undefined(env, argv[3]) && napi_get_value_uint32(env, argv[3], &rpi) != napi_ok)
        return addon_throw_type(env, "boundsCheck: rowsPerImage must be a number");
    uint64_t row = (uint64_t)b->width * fi->bytes;
    uint64_t need = b->depth ? (uint64_t)bpr * rpi * (b->depth - 1) + (uint64_t)bpr * (b->height - 1) + row : 0;
    if (bpr < row || rpi < b->height || n < need)
        return addon_throw_type(env, "boundsCheck: %zu bytes do not hold %ux%ux%u %s texels in "
                                     "rows of %u bytes (%u rows an image)", n, b->width,
                                b->height, b->depth, fi->name, bpr, rpi);
    stex_image img;
    stex_status st = stex_image_init(&img, b->format, b->width, b->height, b->depth);
    if (st)
        return addon_throw_status(env, st);
    for (uint32_t z = 0; z < b->depth; z++)
        for (uint32_t y = 0; y < b->height; y++)
            memcpy(stex_image_texel(&img, 0, y, z), bytes + ((uint64_t)z * rpi + y) * bpr, row);
    stex_bounds_result r;
    st = stex_compare_bounds(b, &img, &r);
    stex_image_free(&img);
    if (st && st != STEX_MISMATCH)
        return addon_throw_status(env, st);
    napi_value o, v, list, why;
    napi_create_object(env, &o);
    napi_get_boolean(env, !r.outside, &v);
    napi_set_named_property(env, o, "inside", v);
    put_num(env, o, "values", (double)r.values);
    put_num(env, o, "insideValues", (double)r.inside);
    put_num(env, o, "outside", (double)r.outside);
    put_num(env, o, "outsideTexels", (double)r.outside_texels);
    put_num(env, o, "unconstrained", (double)r.unconstrained);
    if (r.max_distance_unbounded)
        put_str(env, o, "maxDistance", NULL);
    else
        put_num(env, o, "maxDistance", (double)r.max_distance);
    put_str(env, o, "unit", r.unit);
    napi_create_array_with_length(env, r.listed, &list);
    for (uint32_t i = 0; i < r.listed; i++) {
        const stex_bound_miss *m = &r.first[i];
        napi_value e;
        char ch[2] = {CHANNEL[m->channel & 3], 0};
        napi_create_object(env, &e);
        put_num(env, e, "x", m->x);
        put_num(env, e, "y", m->y);
        put_num(env, e, "z", m->z);
        put_str(env, e, "channel", ch);
        put_num(env, e, "actualBits", m->code);
        put_num(env, e, "lo", m->bound.lo);
        put_num(env, e, "hi", m->bound.hi);
        put_str(env, e, "verdict", verdict_name(m->verdict));
        if (m->distance == UINT64_MAX)
            put_str(env, e, "distance", NULL);
        else
            put_num(env, e, "distance", (double)m->distance);
        napi_set_element(env, list, i, e);
    }
    napi_set_named_property(env, o, "firstOutside", list);
    napi_create_array_with_length(env, r.reasons_listed, &why);
    for (uint32_t i = 0; i < r.reasons_listed; i++) {
        napi_value e;
        uint32_t k = r.by_reason[i].reason;
        napi_create_object(env, &e);
        put_str(env, e, "reason", k && k <= b->nreasons ? b->reasons[k - 1] : NULL);
        put_num(env, e, "values", (double)r.by_reason[i].values);
        napi_set_element(env, why, i, e);
    }
    napi_set_named_property(env, o, "unconstrainedByReason", why);
    return o;
}

void addon_define_allowed(napi_env env, napi_value exports)
{
    addon_export(env, exports, "allowedCreate", allowed_create);
    addon_export(env, exports, "allowedBounds", allowed_bounds);
    addon_export(env, exports, "boundsInfo", bounds_info);
    addon_export(env, exports, "boundsCheck", bounds_check);
}
