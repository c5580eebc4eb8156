/*
 * bench_plain - the perf kernels written as plain C loops, as a floor for
 * stex's figures: the same arithmetic as src/kernels/{decaer,box3x3,generar}.c
 * over linear arrays, with no texture or buffer objects, no format
 * conversion layer, no tiling and no workgroup schedule - one
 * `#pragma omp parallel for` over the rows and whatever the compiler makes
 * of the inner loop.  Timed like bench_kernels: wall clock (CLOCK_MONOTONIC)
 * around each run, median of --reps after one warm-up.
 *
 *   decaer          v * 0.98f in place on a float array (r32float)
 *   box3x3-texture  3x3 box blur over 4 bytes per texel (rgba8unorm): each
 *                   tap decodes k * (1/255) per channel, clamp-to-edge
 *                   coordinates, s / 9 encoded as round-half-even(255 * x)
 *   box3x3-buffer   the same blur over one uint32 word per texel, with the
 *                   unpack4x8unorm / pack4x8unorm shifts and masks
 *   generar         the sine pattern: uv = id / size, three sinf (libm, not
 *                   stex_sin), 0.5 + 0.5 * sin, rgba8unorm encode, alpha 255
 *
 * Inputs are fixed pseudo-random values of the same kind as stex's inputs
 * (not the same bits: the timing does not depend on them).
 *
 *     ./build/bench/bench_plain                          # all four, 4096x4096, 2 threads
 *     ./build/bench/bench_plain --kernel decaer --reps 7 --json
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const KERNELS[] = {"decaer", "box3x3-texture", "box3x3-buffer", "generar"};
enum { NKERNELS = sizeof KERNELS / sizeof KERNELS[0] };

/* The arrays a kernel works on: w x h texels. */
typedef struct plain_images {
    int w, h;
    float *field;        /* decaer: one float per texel */
    uint8_t *src, *dst;  /* box3x3-texture and generar: 4 bytes per texel */
    uint32_t *wsrc, *wdst; /* box3x3-buffer: one word per texel */
} plain_images;

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* unorm8 encode: clamp to [0, 1], multiply in f32, round half to even.  The
 * rounding adds and subtracts 2^23: for 0 <= v <= 255 the sum's ulp is 1, so
 * the add rounds v to an integer, half to even (the default rounding mode);
 * lrintf would do the same but is a library call here.  NaN is not expected. */
static uint8_t encode_unorm8(float x)
{
    x = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    float v = x * 255.0f;
    return (uint8_t)((v + 0x1p23f) - 0x1p23f);
}

static void run_decaer(plain_images *im)
{
    const long n = (long)im->w * im->h;
    float *f = im->field;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        f[i] = f[i] * 0.98f;
}

static void run_box_bytes(plain_images *im)
{
    const int w = im->w, h = im->h;
    const uint8_t *src = im->src;
    uint8_t *dst = im->dst;
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    const uint8_t *t =
                        src + 4 * ((size_t)clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1));
                    for (int c = 0; c < 4; c++)
                        s[c] += (float)t[c] * (1.0f / 255.0f);
                }
            uint8_t *o = dst + 4 * ((size_t)y * w + x);
            for (int c = 0; c < 4; c++)
                o[c] = encode_unorm8(s[c] / 9.0f);
        }
}

static void run_box_words(plain_images *im)
{
    const int w = im->w, h = im->h;
    const uint32_t *src = im->wsrc;
    uint32_t *dst = im->wdst;
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    uint32_t v = src[(size_t)clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)];
                    for (int c = 0; c < 4; c++) /* unpack4x8unorm: byte c is component c */
                        s[c] += (float)((v >> (8 * c)) & 0xffu) * (1.0f / 255.0f);
                }
            uint32_t packed = 0; /* pack4x8unorm */
            for (int c = 0; c < 4; c++)
                packed |= (uint32_t)encode_unorm8(s[c] / 9.0f) << (8 * c);
            dst[(size_t)y * w + x] = packed;
        }
}

static void run_generar(plain_images *im)
{
    const int w = im->w, h = im->h;
    const float tiempo = 0.75f; /* the peer's perf run and bench_kernels use 0.75 */
    uint8_t *out = im->dst;
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float uv_x = (float)x / (float)w, uv_y = (float)y / (float)h;
            float r = 0.5f + 0.5f * sinf(uv_x * 12.0f + tiempo);
            float g = 0.5f + 0.5f * sinf(uv_y * 12.0f + tiempo * 1.3f);
            float b = 0.5f + 0.5f * sinf((uv_x + uv_y) * 8.0f - tiempo);
            uint8_t *o = out + 4 * ((size_t)y * w + x);
            o[0] = encode_unorm8(r);
            o[1] = encode_unorm8(g);
            o[2] = encode_unorm8(b);
            o[3] = 255;
        }
}

/* Allocate and fill what `kernel` needs (first touch here, outside the timing). */
static int images_create(plain_images *im, const char *kernel, int w, int h)
{
    memset(im, 0, sizeof *im);
    im->w = w, im->h = h;
    size_t n = (size_t)w * h;
    uint32_t seed = 0x9e7fu;
    if (!strcmp(kernel, "decaer")) {
        if (!(im->field = malloc(n * sizeof(float))))
            return -1;
        for (size_t i = 0; i < n; i++)
            im->field[i] = (float)(i % 1000) / 1000.0f;
    } else if (!strcmp(kernel, "box3x3-buffer")) {
        if (!(im->wsrc = malloc(n * 4)) || !(im->wdst = calloc(n, 4)))
            return -1;
        for (size_t i = 0; i < n; i++)
            im->wsrc[i] = seed = seed * 1664525u + 1013904223u;
    } else { /* box3x3-texture reads src; it and generar write dst */
        if (!(im->src = malloc(n * 4)) || !(im->dst = calloc(n, 4)))
            return -1;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1664525u + 1013904223u;
            memcpy(im->src + 4 * i, &seed, 4);
        }
    }
    return 0;
}

/* A sum over the output, printed with the timing: it shows the work was done
 * (and keeps the compiler from dropping stores nobody reads). */
static uint64_t images_checksum(const plain_images *im)
{
    size_t n = (size_t)im->w * im->h;
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (im->field) {
            uint32_t bits;
            memcpy(&bits, &im->field[i], 4);
            sum += bits;
        } else if (im->wdst)
            sum += im->wdst[i];
        else
            sum += (uint64_t)im->dst[4 * i] + im->dst[4 * i + 1] + im->dst[4 * i + 2] + im->dst[4 * i + 3];
    }
    return sum;
}

static void images_destroy(plain_images *im)
{
    free(im->field), free(im->src), free(im->dst), free(im->wsrc), free(im->wdst);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median wall ms of `reps` runs after one warm-up, and the output's checksum;
 * -1 on failure. */
static double time_kernel(const char *kernel, int w, int h, int reps, uint64_t *checksum)
{
    void (*run)(plain_images *) = !strcmp(kernel, "decaer")           ? run_decaer
                                  : !strcmp(kernel, "box3x3-texture") ? run_box_bytes
                                  : !strcmp(kernel, "box3x3-buffer")  ? run_box_words
                                                                      : run_generar;
    plain_images im;
    if (images_create(&im, kernel, w, h)) {
        images_destroy(&im);
        fprintf(stderr, "bench_plain: out of memory for %dx%d\n", w, h);
        return -1;
    }
    double t[64];
    for (int r = -1; r < reps; r++) { /* r = -1: the warm-up */
        double t0 = now_ms();
        run(&im);
        double t1 = now_ms();
        if (r >= 0)
            t[r] = t1 - t0;
    }
    *checksum = images_checksum(&im);
    images_destroy(&im);
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2];
}

static void usage(FILE *f)
{
    fputs("usage: bench_plain [--size N] [--reps N] [--threads N] [--kernel NAME]... [--json]\n"
          "  --size N     square size (default 4096)\n"
          "  --reps N     timed runs after one warm-up, median reported (default 5, at most 64)\n"
          "  --threads N  OpenMP threads (default 2)\n"
          "  --kernel K   decaer, box3x3-texture, box3x3-buffer or generar (repeatable;\n"
          "               default all four)\n"
          "  --json       one JSON object per kernel and line instead of the table\n",
          f);
}

int main(int argc, char **argv)
{
    int size = 4096, reps = 5, threads = 2, nonly = 0;
    bool json = false;
    const char *only[NKERNELS];
    static const struct option longopts[] = {
        {"size", required_argument, NULL, 's'}, {"reps", required_argument, NULL, 'r'},
        {"threads", required_argument, NULL, 't'}, {"kernel", required_argument, NULL, 'k'},
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case 's': size = atoi(optarg); break;
        case 'r': reps = atoi(optarg); break;
        case 't': threads = atoi(optarg); break;
        case 'j': json = true; break;
        case 'k': {
            bool known = false;
            for (int i = 0; i < NKERNELS; i++)
                known = known || !strcmp(optarg, KERNELS[i]);
            if (!known || nonly == NKERNELS) {
                fprintf(stderr, "bench_plain: unknown kernel '%s'\n", optarg);
                return 2;
            }
            only[nonly++] = optarg;
            break;
        }
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc || size < 1 || size > 16384 || reps < 1 || reps > 64 || threads < 1) {
        usage(stderr);
        return 2;
    }
    omp_set_num_threads(threads);
    if (!json)
        printf("plain C, %dx%d, %d thread%s, median of %d after 1 warm-up\n\n%-16s %10s %10s\n",
               size, size, threads, threads == 1 ? "" : "s", reps, "kernel", "ms", "Mtexel/s");
    for (int k = 0; k < NKERNELS; k++) {
        bool chosen = nonly == 0;
        for (int i = 0; i < nonly; i++)
            chosen = chosen || !strcmp(only[i], KERNELS[k]);
        if (!chosen)
            continue;
        uint64_t checksum;
        double ms = time_kernel(KERNELS[k], size, size, reps, &checksum);
        if (ms < 0)
            return 1;
        if (json)
            printf("{\"kernel\": \"%s\", \"size\": [%d, %d], \"threads\": %d, \"reps\": %d, "
                   "\"ms\": %.3f, \"checksum\": %" PRIu64 "}\n",
                   KERNELS[k], size, size, threads, reps, ms, checksum);
        else
            printf("%-16s %10.1f %10.1f %20" PRIu64 "\n", KERNELS[k], ms,
                   (double)size * size / (ms * 1e3), checksum);
    }
    return 0;
}
