/* bench_wgsl_compile: how long compiling a lesson's shader takes, source to
 * bytecode - stex_wgsl_module_create (lex, parse, check, reflect) plus
 * stex_wgsl_pipeline_create (lowering, the optimisation pass, the
 * interpreter's register analysis) - for every pass of every lesson kernel:
 * the median and the maximum over the repetitions, in ms.  Target: at most
 * 2 ms per shader.
 * `./build/bench/bench_wgsl_compile [REPS]` (default 50). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "stex/stex.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 50;
    if (reps < 1)
        reps = 1;
    stex_adapter *a;
    stex_device *d;
    if (stex_adapter_create(NULL, &a) || stex_device_create(a, NULL, &d)) {
        fprintf(stderr, "bench_wgsl_compile: %s\n", stex_last_error());
        return 1;
    }
    double *t = malloc((size_t)reps * sizeof *t), worst = 0;
    if (!t)
        return 1;
    printf("%-20s %-12s %10s %10s\n", "kernel", "entry", "median ms", "max ms");
    for (size_t k = 0; k < stex_kernel_count(); k++) {
        const stex_kernel *ker = stex_kernel_at(k);
        for (uint32_t ps = 0; ps < ker->pass_count; ps++) {
            const stex_kernel_pass *pass = &ker->passes[ps];
            for (int r = 0; r < reps; r++) {
                double t0 = now_ms();
                stex_wgsl_module *m = NULL;
                stex_pipeline *p = NULL;
                if (stex_wgsl_module_create(pass->wgsl, ker->name, &m) ||
                    stex_wgsl_pipeline_create(d, m, pass->entry_point, NULL, &p)) {
                    fprintf(stderr, "bench_wgsl_compile: %s: %s\n", ker->name, stex_last_error());
                    return 1;
                }
                t[r] = now_ms() - t0;
                stex_pipeline_destroy(p);
                stex_wgsl_module_destroy(m);
            }
            qsort(t, (size_t)reps, sizeof *t, cmp_double);
            printf("%-20s %-12s %10.3f %10.3f\n", ker->name, pass->entry_point, t[reps / 2],
                   t[reps - 1]);
            if (t[reps / 2] > worst)
                worst = t[reps / 2];
        }
    }
    printf("slowest median: %.3f ms (target: at most 2 ms)\n", worst);
    free(t);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
    return 0;
}
