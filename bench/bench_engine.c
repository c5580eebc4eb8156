/* The dispatch engine's own costs, measured in one run:
 *   decaer (r32float read_write, v * 0.98 in place) at 4096x4096 through the
 *   plain-loop fast path, against a bare C loop over the same tiled memory;
 *   the price of each schedule, of snapshot visibility, of the race detector,
 *   and of fibers (a pipeline with uses_barriers).
 * Usage: bench_engine [size] (default 4096). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stex/stex.h"

static void decaer(const stex_invocation *inv)
{
    stex_uvec2 size = stex_textureDimensions_2d(inv, 0);
    uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    if (x >= size.x || y >= size.y)
        return;
    stex_value v = stex_textureLoad_2d(inv, 0, x, y);
    stex_textureStore_2d(inv, 0, x, y, stex_f32x4(v.v.f[0] * 0.98f, 0, 0, 0));
}

static void die(const char *what)
{
    fprintf(stderr, "bench_engine: %s: %s\n", what, stex_last_error());
    exit(1);
}

static double best_of(int reps, stex_pipeline *p, stex_bind_group *g, uint32_t n,
                      const stex_dispatch_options *o)
{
    double best = 1e9;
    for (int r = 0; r < reps; r++) {
        double t0 = omp_get_wtime();
        if (stex_dispatch(p, g, n, n, 1, o))
            die("dispatch");
        double t = omp_get_wtime() - t0;
        best = t < best ? t : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    uint32_t size = argc > 1 ? (uint32_t)atoi(argv[1]) : 4096;
    stex_adapter *a;
    stex_device *d;
    if (stex_adapter_create(NULL, &a) || stex_device_create(a, &(stex_device_desc){0}, &d))
        die("device");
    stex_texture_desc td = {.size = {size, size, 1}, .format = STEX_FORMAT_R32FLOAT,
                            .usage = STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_DST};
    stex_texture *t;
    stex_texture_view *v;
    if (stex_texture_create(d, &td, &t) || stex_texture_create_view(t, NULL, &v))
        die("texture");
    stex_layout_entry e = {.binding = 0, .visibility = STEX_STAGE_COMPUTE,
                           .type = STEX_BINDING_STORAGE_TEXTURE,
                           .storage_texture = {STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0}};
    stex_pipeline_desc pd = {.kernel = decaer, .workgroup_size = {8, 8, 1}, .entries = &e,
                             .entry_count = 1};
    stex_pipeline *p, *pf;
    stex_bind_group *g, *gf;
    if (stex_pipeline_create(d, &pd, &p))
        die("pipeline");
    pd.uses_barriers = true;
    if (stex_pipeline_create(d, &pd, &pf))
        die("pipeline (fibers)");
    stex_bind_group_entry be = {.binding = 0, .view = v};
    if (stex_bind_group_create(p, &be, 1, &g) || stex_bind_group_create(pf, &be, 1, &gf))
        die("bind group");
    uint32_t n = (size + 7) / 8;
    double inv = (double)size * size;

    /* the floor: the same multiply over the same memory, no engine */
    uint8_t *mem = stex_texture_memory(t);
    size_t bytes = stex_texture_memory_size(t);
    double bare = 1e9;
    for (int r = 0; r < 3; r++) {
        double t0 = omp_get_wtime();
        float *f = (float *)mem;
        for (size_t i = 0; i < bytes / 4; i++)
            f[i] *= 0.98f;
        double dt = omp_get_wtime() - t0;
        bare = dt < bare ? dt : bare;
    }
    stex_dispatch_options o1 = {.threads = 1};
    double fast = best_of(3, p, g, n, &o1);
    printf("decaer %ux%u, 1 thread\n", size, size);
    printf("  bare C loop over the texture memory   %8.2f ms  (%.2f ns/texel)\n", bare * 1e3,
           bare * 1e9 / inv);
    printf("  stex fast path, in-order              %8.2f ms  (%.2f ns/invocation, x%.1f bare)\n",
           fast * 1e3, fast * 1e9 / inv, fast / bare);
    stex_dispatch_options os = {.threads = 1, .schedule = STEX_SCHEDULE_SHUFFLED, .seed = 1};
    double shuf = best_of(3, p, g, n, &os);
    printf("  shuffled (seed 1)                     %8.2f ms  (x%.2f in-order)\n", shuf * 1e3,
           shuf / fast);
    stex_dispatch_options oall = {.threads = 0};
    double par = best_of(3, p, g, n, &oall);
    printf("  in-order, %d threads                   %8.2f ms  (x%.2f speed-up)\n",
           omp_get_num_procs(), par * 1e3, fast / par);
    stex_dispatch_options osnap = {.threads = 1, .visibility = STEX_VISIBILITY_SNAPSHOT};
    double snap = best_of(1, p, g, n, &osnap);
    printf("  snapshot visibility                   %8.2f ms  (x%.1f fast path)\n", snap * 1e3,
           snap / fast);
    stex_race_detector *rd;
    if (stex_race_detector_create(NULL, &rd))
        die("race detector");
    stex_dispatch_options orace = {.threads = 1, .races = rd};
    double race = best_of(3, p, g, n, &orace); /* the summary detector: no barriers */
    printf("  race detector on                      %8.2f ms  (x%.2f fast path), %llu races\n",
           race * 1e3, race / fast, (unsigned long long)stex_race_count(rd, STEX_RACE_ANY));
    uint32_t rn = n > 128 ? 128 : n; /* fibers: 1024x1024 texels */
    double fast_small = best_of(3, p, g, rn, &o1);
    double fib = best_of(1, pf, gf, rn, &o1);
    printf("  fibers (uses_barriers) (%ux%u)      %8.2f ms  (x%.1f fast path)\n", rn * 8, rn * 8,
           fib * 1e3, fib / fast_small);
    stex_race_detector_destroy(rd);
    stex_bind_group_destroy(g);
    stex_bind_group_destroy(gf);
    stex_pipeline_destroy(p);
    stex_pipeline_destroy(pf);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
    return 0;
}
