/*
 * bench_kernels - the lessons' kernels at 4096x4096, race detection off and
 * on, 1 and 2 threads: median of --reps after one warm-up, setup and
 * readback outside the timed region (the peer harness's method).  Ratios
 * against wgpu or Dawn on lavapipe come only from bench/peer.py, which runs
 * this program and the peer side by side in one run: this machine's speed
 * drifts too much for a stored peer figure to be a baseline.
 *
 * Dispatches use the default options (in-order schedule, immediate
 * visibility): the engine's fast path.  "cpu ms" is the process's CPU time
 * for the same run: on a shared machine, wall time over CPU time shows how
 * much of the cores the run actually got (column "cores" = cpu / wall).  A
 * 1-thread row can read a little above 1: 1- and 2-thread runs take turns,
 * and the idle OpenMP thread of a 2-thread run spins for a while after it
 * (libgomp's default wait policy).
 *
 * Targets checked here: 2 threads at least 1.8x faster than 1; race
 * detection on at most 2x its own off time.  Against the peer (bench/peer.py):
 * race detection off at most 0.5x wgpu's time, on at most 1.5x.
 *
 *     ./build/bench/bench_kernels                    # all kernels, 4096x4096
 *     ./build/bench/bench_kernels --kernel decaer --reps 3 --size 1024
 *     ./build/bench/bench_kernels --kernel decaer --threads 2 --races off --json
 * (--json: one JSON object per measured row; bench/peer.py reads it)
 *
 * Where the time goes (callgrind, --size 256 --threads 1 --reps 1, the whole
 * dispatch - stex_kernel_instance_dispatch and below - per texel; the figure
 * one invocation at a time in brackets):
 *   decaer 6.6 (80): an 8x8 workgroup is one Morton block of 64 contiguous
 *     floats (src/shader/tile.h), multiplied in one vectorised loop (~2.6);
 *     the engine's per-workgroup work (order, prefetch, ids) is the rest;
 *   generar 34 (128): the workgroup's 8 + 8 + 64 sines at once (stex_sin_n,
 *     AVX2: ~10.5); r's codes per column, g's per row, alpha's once and b's
 *     per texel, 8 values per instruction (src/convert/unorm8_row.c), the
 *     texels assembled in row order and copied into the block's Morton
 *     order;
 *   box3x3-texture 51 (417) and box3x3-buffer 42 (377): a 10x10 window of
 *     source texels decoded once each (AVX2 gathers from the decode table,
 *     ~6), the nine taps summed for 8 invocations per instruction in the
 *     kernel's order and divided by 9 (AVX2 clone of the block function),
 *     the encode (~11.5); the texture variant's window addresses come from
 *     the per-dispatch column and row tables;
 *   blur: the exact emulation of lavapipe's bilinear filter, ~290 per sample
 *     and nine samples per pass;
 *   histogram 939: the scatter's atomics (out of line, one binding lookup
 *     each) and the present pass's logf and rgba16float store;
 *   difundir 44 (138): the racy variant's outcome depends on the order, so
 *     its workgroup function runs the invocations in the engine's order, with
 *     the texels addressed directly (the workgroup's neighbourhood in
 *     bounds); difundir-pingpong 139: four loads and a store per invocation
 *     through the inline builtins.
 * With race detection on (same method): decaer 17, generar 45, box3x3 61 /
 * 53 - the block marks its 64 words at once (SSE2, ~6 per texel) - plus the
 * detector's per-dispatch set-up (its calloc is ~2.7 per texel at this small
 * size); histogram 1246 (atomics always take the race summary's pairs);
 * difundir-pingpong 169; the racy difundir 327 (806 one access at a time):
 * every texel is touched by five invocations, so it lives in the shared
 * pairs; the workgroup records each of its 96 locations once with the keys
 * of all its accesses (race_note_set: the keys of one kind go into the pair
 * together, one compare-and-swap per kind; ~178 per texel, 222 key by key)
 * and the end-of-dispatch scan judges every texel, each one a race (~104,
 * 122 before the threads' words were folded into local copies of the
 * pairs).  In wall time the rest is memory: the per-thread words (4 bytes per
 * location, read and written once per access of a race-free kernel; the
 * end-of-dispatch scan of a race-free kernel reads only the touch marks -
 * the words are not cleared, later dispatches read them as stale).  Words
 * and pairs stay mapped between dispatches, so the warm-up run pays their
 * page faults.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stex/stex.h"

/* The kernels, in lesson order. */
static const char *const BENCH[] = {"generar", "decaer", "difundir", "difundir-pingpong",
                                    "blur", "histogram", "box3x3-texture", "box3x3-buffer"};
enum { NBENCH = sizeof BENCH / sizeof BENCH[0] };

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of `reps` timed dispatches after one warm-up, for each thread count
 * from..to (wall clock in t[], the process's CPU time of the same runs in
 * cpu[]); false on failure.  The thread counts take turns, run after run:
 * this machine's speed drifts over seconds, and interleaving puts the 1- and
 * 2-thread runs under the same conditions. */
static bool time_kernel(stex_kernel_instance *ki, int from, int to, bool races, int reps,
                        double t[2], double cpu[2])
{
    double w[2][64], c[2][64];
    for (int r = -1; r < reps; r++) /* r = -1: the warm-up (also faults in the race words) */
        for (int threads = from; threads <= to; threads++) {
            stex_race_detector *rd = NULL;
            if (races && stex_race_detector_create(NULL, &rd)) {
                fprintf(stderr, "race detector: %s\n", stex_last_error());
                return false;
            }
            stex_dispatch_options o = {.threads = threads, .races = rd};
            double c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = clock_ms(CLOCK_MONOTONIC);
            stex_status st = stex_kernel_instance_dispatch(ki, &o);
            double t1 = clock_ms(CLOCK_MONOTONIC), c1 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
            if (rd)
                stex_race_detector_destroy(rd);
            if (st) {
                fprintf(stderr, "dispatch: %s: %s\n", stex_status_name(st), stex_last_error());
                return false;
            }
            if (r >= 0) {
                w[threads - 1][r] = t1 - t0;
                c[threads - 1][r] = c1 - c0;
            }
        }
    for (int threads = from; threads <= to; threads++) {
        qsort(w[threads - 1], (size_t)reps, sizeof w[0][0], cmp_double);
        qsort(c[threads - 1], (size_t)reps, sizeof c[0][0], cmp_double);
        t[threads - 1] = w[threads - 1][reps / 2];
        cpu[threads - 1] = c[threads - 1][reps / 2];
    }
    return true;
}

static void usage(FILE *f)
{
    fputs("usage: bench_kernels [--size N] [--reps N] [--kernel NAME]... [--races off|on|both]\n"
          "                     [--threads 1|2] [--race-reps N] [--json]\n"
          "  --size N     square size (default 4096, the harness's)\n"
          "  --reps N     timed runs per configuration, median reported (default 5)\n"
          "  --kernel K   only this kernel (repeatable)\n"
          "  --races M    race detection off, on or both (default both)\n"
          "  --race-reps N  timed runs with race detection, after one warm-up (default 1)\n"
          "  --threads N  only 1 or only 2 threads (default both)\n"
          "  --json       one JSON object per row and line (kernel, threads, races, ms,\n"
          "               cpu_ms), no table\n",
          f);
}

int main(int argc, char **argv)
{
    uint32_t size = 4096;
    int reps = 5;
    const char *only[NBENCH];
    int nonly = 0;
    int races_from = 0, races_to = 1, race_reps = 1, threads_from = 1, threads_to = 2;
    bool json = false;
    static const struct option longopts[] = {
        {"races", required_argument, NULL, 'R'}, {"threads", required_argument, NULL, 'T'}, {"race-reps", required_argument, NULL, 'Q'},
        {"size", required_argument, NULL, 's'}, {"reps", required_argument, NULL, 'r'},
        {"kernel", required_argument, NULL, 'k'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 's': size = (uint32_t)strtoul(optarg, NULL, 10); break;
        case 'r': reps = atoi(optarg); break;
        case 'k':
            if (nonly < NBENCH)
                only[nonly++] = optarg;
            break;
        case 'j': json = true; break;
        case 'Q': race_reps = atoi(optarg); break;
        case 'T': threads_from = threads_to = atoi(optarg) == 1 ? 1 : 2; break;
        case 'R':
            races_from = strcmp(optarg, "on") ? 0 : 1;
            races_to = strcmp(optarg, "off") ? 1 : 0;
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (size == 0 || reps < 1 || reps > 64 || race_reps < 1 || race_reps > 64) {
        usage(stderr);
        return 2;
    }
    if (!json) {
        printf("stex %s, %ux%u, median of %d after 1 warm-up (race detection on: %d run%s after 1 "
               "warm-up), 1 and 2 threads in turn; ratios to a WebGPU stack: bench/peer.py\n\n",
               STEX_VERSION, size, size, reps, race_reps, race_reps == 1 ? "" : "s");
        printf("%-18s %7s %5s %10s %10s %6s %10s\n", "kernel", "threads", "races", "ms",
               "cpu ms", "cores", "Mtexel/s");
    }
    int misses = 0;
    for (int b = 0; b < NBENCH; b++) {
        bool chosen = nonly == 0;
        for (int i = 0; i < nonly; i++)
            chosen = chosen || !strcmp(only[i], BENCH[b]);
        if (!chosen)
            continue;
        const stex_kernel *k = stex_kernel_find(BENCH[b]);
        stex_kernel_setup s = {.width = size, .height = size, .time = 0.75f};
        stex_kernel_instance *ki;
        if (stex_kernel_instance_create(k, &s, &ki)) {
            fprintf(stderr, "%s: %s\n", k->name, stex_last_error());
            return 1;
        }
        double ms[2][2] = {{0, 0}, {0, 0}}; /* [races][threads-1] */
        for (int races = races_from; races <= races_to; races++) {
            double tt[2], cc[2];
            if (!time_kernel(ki, threads_from, threads_to, races, races ? race_reps : reps, tt,
                             cc))
                return 1;
            for (int threads = threads_from; threads <= threads_to; threads++) {
                double t = tt[threads - 1], cpu = cc[threads - 1];
                ms[races][threads - 1] = t;
                if (json) {
                    printf("{\"kernel\": \"%s\", \"size\": [%u, %u], \"threads\": %d, "
                           "\"races\": \"%s\", \"reps\": %d, \"ms\": %.3f, \"cpu_ms\": %.3f}\n",
                           k->name, size, size, threads, races ? "on" : "off",
                           races ? race_reps : reps, t, cpu);
                    continue;
                }
                /* cores = cpu / wall: below `threads`, other processes had the cores */
                printf("%-18s %7d %5s %10.1f %10.1f %6.2f %10.1f\n", k->name, threads,
                       races ? "on" : "off", t, cpu, cpu / t, (double)size * size / (t * 1e3));
            }
        }
        stex_kernel_instance_destroy(ki);
        if (json)
            continue;
        for (int races = races_from; races <= races_to && threads_from < threads_to; races++) {
            double sp = ms[races][0] / ms[races][1];
            printf("%-18s speedup 1 -> 2 threads, races %-3s: %.2fx %s\n", k->name,
                   races ? "on" : "off", sp, sp >= 1.8 ? "(>= 1.8)" : "(MISS: target 1.8)");
            misses += sp < 1.8;
        }
        if (races_from == 0 && races_to == 1 && threads_to == 2) {
            double over = ms[1][1] / ms[0][1];
            printf("%-18s race detection overhead (2 threads): %.2fx %s\n", k->name, over,
                   over <= 2.0 ? "(<= 2)" : "(MISS: target 2)");
            misses += over > 2.0;
        }
        putchar('\n');
    }
    if (!json)
        printf("%d target(s) missed\n", misses);
    return 0;
}
