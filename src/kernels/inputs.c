/* The harness's input generators, bit for bit (see inputs.h). */
#include "kernels/inputs.h"

#include <math.h>
#include <string.h>

uint32_t kernels_rng_u32(kernels_rng *r)
{
    /* mulberry32 with Math.imul = wrapping 32-bit multiply. */
    r->a += 0x6d2b79f5u;
    uint32_t t = r->a;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return t ^ (t >> 14);
}

double kernels_rng_unit(kernels_rng *r) { return kernels_rng_u32(r) / 4294967296.0; }

/* The double is exact; the conversion rounds to nearest as Math.fround does. */
float kernels_rng_f32(kernels_rng *r) { return (float)kernels_rng_unit(r); }

void kernels_put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

void kernels_put_f32(uint8_t *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    kernels_put_u32(p, u);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

void kernels_input_decaer(uint32_t w, uint32_t h, uint8_t *out)
{
    /* kernels.mjs decaerInput(): zeros, subnormals, NaN, inf, f16 max, FLT_MAX... */
    const uint32_t specials[16] = {
        0x00000000u, 0x80000000u, f32_bits(1.0f), f32_bits(-1.0f), f32_bits(0.5f),
        0x00000001u, 0x00800000u, 0x006cf6c7u, 0x7fc00000u, 0x7f800000u, 0xff800000u,
        f32_bits(65504.0f), 0x7f7fffffu, f32_bits((float)(1.0 / 3.0)), f32_bits((float)0.1),
        f32_bits(255.0f)};
    kernels_rng r = kernels_rng_seed(0xdeca);
    size_t n = (size_t)w * h;
    for (size_t i = 0; i < n; i++) /* the rng is not advanced for the specials */
        kernels_put_u32(out + 4 * i, i < 16 ? specials[i] : f32_bits(kernels_rng_f32(&r)));
}

void kernels_input_difundir(uint32_t w, uint32_t h, bool hot, uint8_t *out)
{
    size_t n = (size_t)w * h;
    if (hot) {
        memset(out, 0, 4 * n);
        kernels_put_f32(out + 4 * ((size_t)(h / 2) * w + w / 2), 1000.0f);
        return;
    }
    kernels_rng r = kernels_rng_seed(0xd1f0);
    for (size_t i = 0; i < n; i++)
        kernels_put_f32(out + 4 * i, kernels_rng_f32(&r));
}

void kernels_input_blur(uint32_t w, uint32_t h, uint8_t *out)
{
    kernels_rng r = kernels_rng_seed(0xb1a5);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = out + 4 * ((size_t)y * w + x);
            p[0] = (uint8_t)((x * 4) & 255);
            p[1] = (uint8_t)((y * 4) & 255);
            p[2] = ((x ^ y) & 8) ? 255 : 0;
            p[3] = (uint8_t)(kernels_rng_u32(&r) >> 24); /* floor(rng() * 256) */
        }
}

void kernels_input_box3x3(uint32_t w, uint32_t h, uint8_t *out)
{
    kernels_rng r = kernels_rng_seed(0x9e7f);
    size_t n = (size_t)w * h;
    for (size_t i = 0; i < n; i++)
        kernels_put_u32(out + 4 * i, kernels_rng_u32(&r)); /* (rng() * 2^32) >>> 0 */
}

/* (rng() + rng() + rng() + rng()) / 4, the four calls in JS's left-to-right order. */
static double peaked(kernels_rng *r)
{
    double s = kernels_rng_unit(r);
    s += kernels_rng_unit(r);
    s += kernels_rng_unit(r);
    s += kernels_rng_unit(r);
    return s / 4;
}

void kernels_input_points(uint32_t w, uint32_t h, uint32_t n, uint32_t *xy)
{
    kernels_rng r = kernels_rng_seed(0x4157);
    for (uint32_t i = 0; i < n; i++) {
        if (i % 97 == 0) { /* outside: exercises the guard */
            xy[2 * i] = w + i % 5;
            xy[2 * i + 1] = i % h;
            continue;
        }
        double gx = peaked(&r);
        xy[2 * i] = (uint32_t)floor(gx * w);
        double gy = peaked(&r);
        xy[2 * i + 1] = (uint32_t)floor(gy * h);
    }
}

uint32_t kernels_histogram_points(uint32_t w, uint32_t h)
{
    uint64_t quarter = (uint64_t)w * h / 4;
    return quarter > 262144 ? (uint32_t)quarter : 262144u;
}
