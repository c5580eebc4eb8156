/* bench_race - the race detector's cost, measured in one run: the lessons'
 * kernels at 4096x4096 (src/kernels), race detection off and on, 1 and 2
 * threads; the ratio on / off of the same run, the shadow memory per texel
 * (bytes of shadow resident after the dispatch, from mincore), and the
 * target: detection on at most 2x its own off time (ratios against a WebGPU
 * stack come from bench/peer.py, measured side by side).  CPU time is
 * printed beside wall time: on a shared machine cpu / wall shows how much of
 * the cores we got.
 *
 *     ./build/bench/bench_race [size] [reps] [kernel]   (default 4096 5, all)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "race/race_internal.h"
#include "stex/stex.h"

static const struct {
    const char *kernel;
} K[] = {
    {"decaer"}, {"difundir"}, {"box3x3-texture"}, {"box3x3-buffer"}, {"generar"},
};

static double now_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct timing {
    double wall, cpu;
    uint64_t shadow, races;
} timing;

static timing run(stex_kernel_instance *ki, int threads, bool races, int reps)
{
    double w[32], c[32];
    timing t = {0};
    for (int r = -1; r < reps; r++) { /* one warm-up */
        stex_race_detector *rd = NULL;
        if (races && stex_race_detector_create(NULL, &rd))
            exit(1);
        stex_dispatch_options o = {.threads = threads, .races = rd};
        double c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = now_ms(CLOCK_MONOTONIC);
        if (stex_kernel_instance_dispatch(ki, &o)) {
            fprintf(stderr, "bench_race: %s\n", stex_last_error());
            exit(1);
        }
        double t1 = now_ms(CLOCK_MONOTONIC), c1 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
        if (rd) {
            t.shadow = race_detector_shadow_bytes(rd);
            t.races = stex_race_count(rd, STEX_RACE_ANY);
            stex_race_detector_destroy(rd);
        }
        if (r >= 0) {
            w[r] = t1 - t0;
            c[r] = c1 - c0;
        }
    }
    qsort(w, (size_t)reps, sizeof w[0], cmp);
    qsort(c, (size_t)reps, sizeof c[0], cmp);
    t.wall = w[reps / 2];
    t.cpu = c[reps / 2];
    return t;
}

int main(int argc, char **argv)
{
    uint32_t size = argc > 1 ? (uint32_t)atoi(argv[1]) : 4096;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    reps = reps < 1 ? 1 : reps > 32 ? 32 : reps;
    printf("bench_race %ux%u, median of %d after 1 warm-up; ms wall (cpu)\n", size, size, reps);
    printf("%-15s %-17s %-17s %-17s %-17s %6s %6s %7s %8s %s\n", "kernel", "off 1 thread",
           "on 1 thread", "off 2 threads", "on 2 threads", "on/off", "2t/1t", "B/texel",
           "races", "on/off <= 2");
    for (size_t i = 0; i < sizeof K / sizeof K[0]; i++) {
        if (argc > 3 && strcmp(argv[3], K[i].kernel))
            continue;
        stex_kernel_setup s = {.width = size, .height = size, .time = 0.75f};
        stex_kernel_instance *ki;
        if (stex_kernel_instance_create(stex_kernel_find(K[i].kernel), &s, &ki)) {
            fprintf(stderr, "bench_race: %s: %s\n", K[i].kernel, stex_last_error());
            return 1;
        }
        timing off1 = run(ki, 1, false, reps), on1 = run(ki, 1, true, reps);
        timing off2 = run(ki, 2, false, reps), on2 = run(ki, 2, true, reps);
        char a[4][32], target[64] = "-";
        const timing *tt[4] = {&off1, &on1, &off2, &on2};
        for (int k = 0; k < 4; k++)
            snprintf(a[k], sizeof a[k], "%7.1f (%7.1f)", tt[k]->wall, tt[k]->cpu);
        snprintf(target, sizeof target, "%s", on2.wall <= 2.0 * off2.wall ? "ok" : "MISS");
        printf("%-15s %-17s %-17s %-17s %-17s %6.2f %6.2f %7.2f %8llu %s\n", K[i].kernel, a[0],
               a[1], a[2], a[3], on2.wall / off2.wall, on1.wall / on2.wall,
               (double)on2.shadow / ((double)size * size), (unsigned long long)on2.races, target);
        fflush(stdout);
        stex_kernel_instance_destroy(ki);
    }
    return 0;
}
