/* bench_math: ns per value of the math layer's n-lane forms, per builtin and
 * profile, beside glibc's libm on the same inputs, in one run.
 * `./build/bench/bench_math [N]` (N values, default 1 << 20). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "stex/math.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

typedef struct row {
    stex_math_fn fn;
    float (*libm)(float);
    float (*libm2)(float, float);
} row;

static float mulf(float a, float b) { return a * b; }
static float divf(float a, float b) { return a / b; }

static const row ROWS[] = {
    {STEX_MATH_MUL_F32, NULL, mulf}, {STEX_MATH_DIV_F32, NULL, divf},
    {STEX_MATH_SIN_F32, sinf, NULL}, {STEX_MATH_EXP_F32, expf, NULL},
    {STEX_MATH_LOG_F32, logf, NULL}, {STEX_MATH_SQRT_F32, sqrtf, NULL},
    {STEX_MATH_POW_F32, NULL, powf}, {STEX_MATH_ATAN2_F32, NULL, atan2f},
};

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : (1u << 20);
    float *a = malloc(n * 4), *b = malloc(n * 4), *out = malloc(n * 4);
    if (!a || !b || !out)
        return 1;
    srand(1);
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)rand() / RAND_MAX * 20.0f - 10.0f;
        b[i] = (float)rand() / RAND_MAX * 4.0f + 0.01f;
    }
    printf("%-10s %8s %8s %8s %8s   (ns per value, %zu values)\n", "builtin", "libm", "spec",
           "lavapipe", "nvidia", n);
    volatile float sink = 0;
    for (size_t r = 0; r < sizeof ROWS / sizeof ROWS[0]; r++) {
        const row *w = &ROWS[r];
        double t = now();
        for (size_t i = 0; i < n; i++)
            out[i] = w->libm ? w->libm(a[i]) : w->libm2(fabsf(a[i]), b[i]);
        double libm_ns = (now() - t) * 1e9 / n;
        sink += out[n / 2];
        printf("%-10s %8.1f", stex_math_fn_get(w->fn)->op, libm_ns);
        for (int p = 0; p < STEX_PROFILE_COUNT; p++) {
            const stex_profile *prof = stex_profile_get((stex_profile_id)p);
            t = now();
            if (w->libm)
                stex_math_f32_unary(prof, w->fn, n, a, out);
            else
                stex_math_f32_binary(prof, w->fn, n, a, b, out);
            printf(" %8.1f", (now() - t) * 1e9 / n);
            sink += out[n / 2];
        }
        printf("\n");
    }
    free(a);
    free(b);
    free(out);
    return sink == 12345.0f;
}
