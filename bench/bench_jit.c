/* bench_jit: the JIT (--executor jit) beside the WGSL interpreter, in one
 * run:
 *  1. compile time: each lesson kernel's WGSL, and the largest programs of
 *     tests/data/difftest (corpus.wgsl.gz and regress/, the tests' largest
 *     shaders): the JIT's compile (LLVM IR, passes, machine code) of one
 *     pipeline, ms, with the program's instructions;
 *  2. run time: the four perf kernels (decaer, box3x3-texture,
 *     box3x3-buffer, generar) as their WGSL on the same resources, one
 *     dispatch on one thread, the process's CPU time (the machine is
 *     shared), fastest of REPS, race detection off and on.
 *
 *     ./build/bench/bench_jit [SIZE [REPS]]     # default 1024 5
 *
 * STEX_TEST_DATA names tests/data (default: tests/data from the current
 * folder); STEX_JIT_OPT=0..3 the passes' level (default 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zlib.h>

#include "stex/stex.h"
#include "wgsl/executor.h"

static stex_wgsl_executor executor;

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
    stex_wgsl_options o = {.executor = executor};
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

/* The fastest of reps dispatches under ex; races: with the detector; < 0: failed. */
static double fastest(const char *name, uint32_t size, int reps, stex_wgsl_executor ex,
                      bool races)
{
    double best = -1;
    executor = ex;
    stex_kernel_setup s = {.width = size, .height = size, .time = 0.75f,
                           .create_pipeline = make_wgsl};
    stex_kernel_instance *ki;
    if (stex_kernel_instance_create(stex_kernel_find(name), &s, &ki)) {
        fprintf(stderr, "bench_jit: %s: %s\n", name, stex_last_error());
        return -1;
    }
    for (int r = 0; r < reps; r++) {
        stex_race_detector *rd = NULL;
        if (races && stex_race_detector_create(NULL, &rd))
            return -1;
        stex_dispatch_options o = {.threads = 1, .races = rd};
        double t0 = cpu_seconds(), t = -1;
        if (!stex_kernel_instance_dispatch(ki, &o))
            t = cpu_seconds() - t0;
        stex_race_detector_destroy(rd);
        if (t < 0) {
            fprintf(stderr, "bench_jit: %s: %s\n", name, stex_last_error());
            stex_kernel_instance_destroy(ki);
            return -1;
        }
        best = best < 0 || t < best ? t : best;
    }
    stex_kernel_instance_destroy(ki);
    return best;
}

/* The JIT's compile of every entry point of src (spec profile, width 64):
 * ms in all and instructions; false when nothing was compiled (cached, or
 * refused). */
static bool compile_ms(stex_device *d, const char *src, const char *name, double *ms,
                       uint64_t *ins)
{
    stex_wgsl_module *m;
    bool ok = false;
    *ms = 0;
    *ins = 0;
    if (stex_wgsl_module_create(src, name, &m) == STEX_OK) {
        for (uint32_t k = 0; k < stex_wgsl_entry_point_count(m); k++) {
            wg_executor_counts a, b;
            wg_executor_get_counts(&a);
            stex_pipeline *p;
            stex_wgsl_options o = {.executor = STEX_WGSL_EXECUTOR_JIT};
            if (stex_wgsl_pipeline_create(d, m, stex_wgsl_entry_point_at(m, k)->name, &o, &p))
                continue;
            stex_pipeline_destroy(p);
            wg_executor_get_counts(&b);
            if (b.compiled > a.compiled) {
                *ms += b.compile_ms - a.compile_ms;
                *ins += (b.native - a.native) + (b.stepped - a.stepped);
                ok = true;
            }
        }
    }
    stex_wgsl_module_destroy(m);
    return ok;
}

static char *read_gz(const char *path)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, len = 0;
    char *all = malloc(cap);
    int got;
    while (all && (got = gzread(f, all + len, (unsigned)(cap - len - 1))) > 0) {
        len += (size_t)got;
        if (cap - len < 2)
            all = realloc(all, cap *= 2);
    }
    gzclose(f);
    if (all)
        all[len] = 0;
    return all;
}

/* Part 1: the lesson shaders one by one, then the test corpus's largest. */
static void compile_times(void)
{
    stex_adapter *a;
    stex_device *d;
    stex_adapter_desc ad = stex_adapter_desc_default();
    uint32_t features = STEX_FEATURE_SHADER_F16 | STEX_FEATURE_SUBGROUPS;
    if (stex_adapter_create(&ad, &a) ||
        stex_device_create(a, &(stex_device_desc){.required_features = features}, &d)) {
        fprintf(stderr, "bench_jit: %s\n", stex_last_error());
        return;
    }
    printf("compile time of the JIT (LLVM: IR, passes, machine code), spec, width 64\n");
    printf("%-28s %8s %12s\n", "shader", "ms", "instructions");
    double ms0;
    uint64_t ins0;
    if (compile_ms(d, "@compute @workgroup_size(1) fn main() {}", "empty.wgsl", &ms0, &ins0))
        printf("%-28s %8.1f %12llu  (the first: LLVM's start-up)\n", "empty", ms0,
               (unsigned long long)ins0);
    for (size_t i = 0; i < stex_kernel_count(); i++) {
        const stex_kernel *k = stex_kernel_at(i);
        for (uint32_t p = 0; p < k->pass_count; p++) {
            double ms;
            uint64_t ins;
            char name[96];
            snprintf(name, sizeof name, "%s:%s", k->name, k->passes[p].entry_point);
            if (k->passes[p].wgsl && compile_ms(d, k->passes[p].wgsl, name, &ms, &ins))
                printf("%-28s %8.1f %12llu\n", name, ms, (unsigned long long)ins);
        }
    }
    const char *dir = getenv("STEX_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/difftest/corpus.wgsl.gz", dir ? dir : "tests/data");
    char *all = read_gz(path);
    if (!all) {
        printf("(no %s: the tests' shaders left out)\n", path);
    } else {
        double worst = 0, sum = 0;
        uint64_t worst_ins = 0, max_ins = 0;
        double max_ins_ms = 0;
        unsigned n = 0;
        char worst_name[128] = "", max_name[128] = "";
        char *p = strstr(all, "//! case ");
        while (p) {
            char *next = strstr(p + 1, "\n//! case ");
            if (next)
                *next++ = 0;
            char name[128] = "";
            sscanf(p + 9, "%127s", name);
            double ms;
            uint64_t ins;
            if (compile_ms(d, p, name, &ms, &ins)) {
                n++;
                sum += ms;
                if (ms > worst)
                    worst = ms, worst_ins = ins, snprintf(worst_name, sizeof worst_name, "%s", name);
                if (ins > max_ins)
                    max_ins = ins, max_ins_ms = ms, snprintf(max_name, sizeof max_name, "%s", name);
            }
            p = next;
        }
        free(all);
        printf("difftest corpus: %u programs, mean %.1f ms; slowest %s %.1f ms (%llu "
               "instructions); largest %s %llu instructions, %.1f ms\n", n, n ? sum / n : 0,
               worst_name, worst, (unsigned long long)worst_ins, max_name,
               (unsigned long long)max_ins, max_ins_ms);
    }
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

int main(int argc, char **argv)
{
    uint32_t size = argc > 1 ? (uint32_t)atoi(argv[1]) : 1024;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    if (!size || reps < 1) {
        fprintf(stderr, "usage: bench_jit [SIZE [REPS]]\n");
        return 2;
    }
    if (!stex_wgsl_jit_available()) {
        printf("bench_jit: this build has no JIT (LLVM was not found when it was built)\n");
        return 0;
    }
    compile_times();
    static const char *const names[] = {"decaer", "box3x3-texture", "box3x3-buffer", "generar"};
    printf("\nrun time, %ux%u, 1 thread, CPU ms, fastest of %d\n", size, size, reps);
    printf("%-15s %9s %9s %6s | %9s %9s %6s\n", "kernel", "interp", "jit", "ratio",
           "interp+r", "jit+r", "ratio");
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        double i0 = fastest(names[k], size, reps, STEX_WGSL_EXECUTOR_INTERPRETER, false);
        double j0 = fastest(names[k], size, reps, STEX_WGSL_EXECUTOR_JIT, false);
        double i1 = fastest(names[k], size, reps, STEX_WGSL_EXECUTOR_INTERPRETER, true);
        double j1 = fastest(names[k], size, reps, STEX_WGSL_EXECUTOR_JIT, true);
        if (i0 < 0 || j0 < 0 || i1 < 0 || j1 < 0)
            return 1;
        printf("%-15s %9.2f %9.2f %5.2fx | %9.2f %9.2f %5.2fx\n", names[k], i0 * 1e3, j0 * 1e3,
               j0 / i0, i1 * 1e3, j1 * 1e3, j1 / i1);
    }
    printf("(ratio: the JIT's time over the interpreter's; +r: race detection on)\n");
    return 0;
}
