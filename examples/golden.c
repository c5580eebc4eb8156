/*
 * golden.c - produce a golden file with stex and check a readback against it.
 *
 * A compute kernel written against stex/shader.h (the C twin of this WGSL)
 *
 *     @group(0) @binding(0) var output : texture_storage_2d<rgba8unorm, write>;
 *     @compute @workgroup_size(8, 8)
 *     fn gradient(@builtin(global_invocation_id) id : vec3<u32>) {
 *       let size = textureDimensions(output);
 *       if (any(id.xy >= size)) { return; }
 *       let uv = vec2<f32>(id.xy) / vec2<f32>(size - 1);
 *       textureStore(output, vec2<i32>(id.xy), vec4<f32>(uv, 1.5 - uv.x, 1.0));
 *     }
 *
 * runs on the emulated device; its output is read back exactly as
 * copyTextureToBuffer lays it out, written as a .bin golden (+ sidecar), a
 * .npy and a .png, then read back and compared.  A second readback with one
 * texel nudged by one LSB shows what a mismatch report looks like.
 *
 * usage: golden [OUTPUT_DIR]      (default: the current directory)
 * Built by meson as examples/golden; the `example_golden` test runs it.
 */
#include <stdio.h>
#include <string.h>

#include "stex/stex.h"

static void gradient(const stex_invocation *inv)
{
    stex_uvec2 size = stex_textureDimensions_2d(inv, 0);
    uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    if (x >= size.x || y >= size.y)
        return;
    float u = (float)x / (float)(size.x - 1), v = (float)y / (float)(size.y - 1);
    stex_textureStore_2d(inv, 0, x, y, stex_f32x4(u, v, 1.5f - u, 1.0f));
}

/* The same kernel with the engine's invocation loop compiled around it: the
 * kernel is inlined instead of called once per invocation (optional). */
STEX_WORKGROUP_FN(gradient_workgroup, gradient)

#define CHECK(call)                                                                     \
    do {                                                                                \
        stex_status st_ = (call);                                                       \
        if (st_ != STEX_OK) {                                                           \
            fprintf(stderr, "%s failed: %s: %s\n", #call, stex_status_name(st_),        \
                    stex_last_error());                                                 \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const uint32_t W = 40, H = 24;

    /* adapter -> device -> a storage texture we can copy from */
    stex_adapter *adapter;
    stex_device *device;
    CHECK(stex_adapter_create(NULL, &adapter));
    CHECK(stex_device_create(adapter, &(stex_device_desc){0}, &device));
    stex_texture_desc td = {.size = {W, H, 1}, .format = STEX_FORMAT_RGBA8UNORM,
                            .usage = STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC};
    stex_texture *tex;
    stex_texture_view *view;
    CHECK(stex_texture_create(device, &td, &tex));
    CHECK(stex_texture_create_view(tex, NULL, &view));

    /* pipeline + bind group, as createComputePipeline / createBindGroup */
    stex_layout_entry entry = {.binding = 0, .visibility = STEX_STAGE_COMPUTE,
                               .type = STEX_BINDING_STORAGE_TEXTURE,
                               .storage_texture = {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA8UNORM,
                                                   STEX_VIEW_DIMENSION_2D}};
    stex_pipeline_desc pd = {.kernel = gradient, .workgroup = gradient_workgroup,
                             .workgroup_size = {8, 8, 1}, .entries = &entry, .entry_count = 1,
                             .label = "gradient"};
    stex_pipeline *pipe;
    stex_bind_group *group;
    CHECK(stex_pipeline_create(device, &pd, &pipe));
    CHECK(stex_bind_group_create(pipe, &(stex_bind_group_entry){.binding = 0, .view = view}, 1,
                                 &group));

    /* dispatchWorkgroups(ceil(W/8), ceil(H/8)) in a shuffled order */
    stex_dispatch_options opt = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = 42};
    CHECK(stex_dispatch(pipe, group, (W + 7) / 8, (H + 7) / 8, 1, &opt));

    /* read back (bytesPerRow padded to 256) and write the golden files */
    stex_image img;
    CHECK(stex_image_from_texture(tex, 0, &img));
    char bin[4096], npy[4096], png[4096];
    snprintf(bin, sizeof bin, "%s/gradient.bin", dir);
    snprintf(npy, sizeof npy, "%s/gradient.npy", dir);
    snprintf(png, sizeof png, "%s/gradient.png", dir);
    stex_io_meta meta = {.kernel = "gradient", .profile = "spec", .schedule = "shuffled",
                         .seed = 42, .has_seed = true};
    CHECK(stex_write_image(bin, &img, &meta));
    CHECK(stex_write_image(npy, &img, NULL));
    CHECK(stex_write_image(png, &img, NULL));
    printf("wrote %s (+ .json), %s, %s: %ux%u rgba8unorm, bytesPerRow %u\n", bin, npy, png, W, H,
           img.bytes_per_row);

    /* texel (0,0): u = v = 0, b = 1.5 clamps to 1: bytes 00 00 ff ff */
    const uint8_t *t = stex_image_texel(&img, 0, 0, 0);
    printf("texel (0,0) = %02x %02x %02x %02x\n", t[0], t[1], t[2], t[3]);

    /* the golden against itself, then against a readback one LSB off */
    stex_image golden;
    CHECK(stex_read_bin(bin, &golden, NULL));
    stex_compare_result r;
    stex_tolerance exact = {STEX_TOLERANCE_EXACT, 0};
    CHECK(stex_compare(&golden, &img, exact, NULL, &r));
    printf("readback vs golden: %llu texels, %llu mismatches\n", (unsigned long long)r.texels,
           (unsigned long long)r.mismatches);
    stex_image_texel(&img, 7, 3, 0)[1] += 1;
    stex_status st = stex_compare(&golden, &img, exact, NULL, &r);
    printf("nudged readback, exact: %s, %llu mismatch at (%u, %u), %llu %s\n",
           stex_status_name(st), (unsigned long long)r.mismatches, r.first[0].x, r.first[0].y,
           (unsigned long long)r.max_diff, r.unit);
    st = stex_compare(&golden, &img, (stex_tolerance){STEX_TOLERANCE_ULP, 1}, NULL, &r);
    printf("nudged readback, ulp:1: %s\n", stex_status_name(st));
    int ok = st == STEX_OK && r.differing == 1 && t[0] == 0 && t[2] == 0xff;

    stex_image_free(&golden);
    stex_image_free(&img);
    stex_bind_group_destroy(group);
    stex_pipeline_destroy(pipe);
    stex_texture_view_destroy(view);
    stex_texture_destroy(tex);
    stex_device_destroy(device);
    stex_adapter_destroy(adapter);
    return ok ? 0 : 1;
}
