/* bench_allowed: allowed mode (stex_wgsl_options.allowed) beside the plain
 * WGSL interpreter on the four perf kernels (decaer, generar,
 * box3x3-texture, box3x3-buffer), the kernel's WGSL on the same resources:
 * the process's CPU time of one dispatch on one thread, fastest of REPS
 * (CPU time, not wall time: this machine is shared), and their ratio.
 *
 *     ./build/bench/bench_allowed [SIZE [REPS [KERNEL]]]   # default 256 5, all four
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stex/stex.h"

static stex_allowed *allowed; /* the run's, or NULL: the plain interpreter */

static stex_status make_wgsl(void *user, stex_device *d, const stex_kernel_pass *pass,
                             stex_pipeline **out)
{
    (void)user;
    stex_wgsl_module *m;
    stex_status st = stex_wgsl_module_create(pass->wgsl, pass->entry_point, &m);
    if (st) {
        stex_wgsl_module_destroy(m);
        return st;
    }
    stex_wgsl_options o = {.allowed = allowed};
    st = stex_wgsl_pipeline_create(d, m, pass->entry_point, &o, out);
    stex_wgsl_module_destroy(m);
    return st;
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The fastest of reps dispatches, plain (mode 0) or allowed (1); < 0: failed. */
static double fastest(const char *name, uint32_t size, int reps, int mode)
{
    double best = -1;
    for (int r = 0; r < reps; r++) {
        if (mode && stex_allowed_create(&allowed))
            return -1;
        stex_kernel_setup s = {.width = size, .height = size, .time = 0.75f,
                               .create_pipeline = make_wgsl};
        stex_kernel_instance *ki;
        stex_dispatch_options o = {.threads = 1};
        double t = -1;
        if (!stex_kernel_instance_create(stex_kernel_find(name), &s, &ki)) {
            double t0 = cpu_seconds();
            if (!stex_kernel_instance_dispatch(ki, &o))
                t = cpu_seconds() - t0;
            stex_kernel_instance_destroy(ki);
        }
        stex_allowed_destroy(allowed);
        allowed = NULL;
        if (t < 0) {
            fprintf(stderr, "bench_allowed: %s: %s\n", name, stex_last_error());
            return -1;
        }
        best = best < 0 || t < best ? t : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    uint32_t size = argc > 1 ? (uint32_t)atoi(argv[1]) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (!size || reps < 1) {
        fprintf(stderr, "usage: bench_allowed [SIZE [REPS [KERNEL]]]\n");
        return 2;
    }
    static const char *const names[] = {"decaer", "generar", "box3x3-texture", "box3x3-buffer"};
    printf("%-15s %9s %9s %6s   (%ux%u, 1 thread, CPU ms, fastest of %d)\n", "kernel", "plain",
           "allowed", "ratio", size, size, reps);
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        if (argc > 3 && strcmp(argv[3], names[k]))
            continue;
        double p = fastest(names[k], size, reps, 0), a = fastest(names[k], size, reps, 1);
        if (p < 0 || a < 0)
            return 1;
        printf("%-15s %9.2f %9.2f %5.0fx\n", names[k], p * 1e3, a * 1e3, a / p);
    }
    return 0;
}
