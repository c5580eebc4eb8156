/* f16 in var<storage>, var<uniform> and var<workgroup> (`enable f16;`):
 *  - layout: member offsets, strides and sizes worked out by hand from
 *    WGSL's rules (f16: size 2, align 2; vec2<f16>: 4, 4; vec3<f16>: 6, 8;
 *    vec4<f16>: 8, 8; array stride roundUp(align, size); a struct member at
 *    roundUp(align, end of the previous one), the struct's size rounded up
 *    to its largest alignment), checked as the bytes a shader writes;
 *  - a store of one f16 writes its 2 bytes only: the neighbouring half of
 *    the word and struct padding keep the bytes C put there;
 *  - dynamic indices into array<f16> and vec3<f16>, arrayLength of array<f16>;
 *  - var<uniform> and var<workgroup> (with a barrier), under spec and lavapipe;
 *  - the race detector's 32-bit granularity: two invocations writing the two
 *    halves of one word are reported (docs/engine.md says why), while the
 *    bytes come out right with several threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

/* binary16 bits of a value that f16 holds exactly (a normal number or 0),
 * built from the IEEE fields: sign, exponent - 15, 10 fraction bits. */
static uint16_t h_of(double v)
{
    if (v == 0)
        return 0;
    uint16_t s = v < 0 ? 0x8000 : 0;
    if (v < 0)
        v = -v;
    int e = 0;
    while (v >= 2) v /= 2, e++;
    while (v < 1) v *= 2, e--;
    return (uint16_t)(s | (uint16_t)((e + 15) << 10) | (uint16_t)((v - 1) * 1024));
}

static uint16_t get16(const uint8_t *b, size_t off) { return (uint16_t)(b[off] | b[off + 1] << 8); }
static void put16(uint8_t *b, size_t off, uint16_t v) { b[off] = (uint8_t)v, b[off + 1] = (uint8_t)(v >> 8); }

typedef struct buf {
    uint32_t binding, size, usage;
    uint8_t *bytes; /* in: the initial bytes; out: the bytes after the dispatch */
} buf;

/* Runs src's "main" on a device of `profile` with shader-f16, bindings bufs
 * (group 0), wg workgroups; race detector rd (NULL: none). */
static void run(stex_profile_id profile, const char *src, buf *bufs, uint32_t nbufs, uint32_t wg,
                uint32_t threads, stex_race_detector *rd)
{
    stex_adapter *a;
    stex_device_desc dd = {.required_features = STEX_FEATURE_SHADER_F16};
    stex_device *d = fixture_device_desc(profile, &dd, &a);
    stex_wgsl_module *m;
    if (stex_wgsl_module_create(src, "f16mem.wgsl", &m))
        fail_msg("%s\n%s", src, stex_wgsl_module_diagnostics(m));
    stex_pipeline *p;
    if (stex_wgsl_pipeline_create(d, m, "main", NULL, &p))
        fail_msg("%s\n%s", src, stex_last_error());
    stex_buffer *b[4];
    stex_bind_group_entry be[4];
    for (uint32_t i = 0; i < nbufs; i++) {
        stex_buffer_desc bd = {.size = bufs[i].size, .usage = bufs[i].usage |
                               STEX_BUFFER_USAGE_COPY_DST};
        assert_int_equal(stex_buffer_create(d, &bd, &b[i]), STEX_OK);
        memcpy(stex_buffer_data(b[i]), bufs[i].bytes, bufs[i].size);
        be[i] = (stex_bind_group_entry){.binding = bufs[i].binding, .buffer = b[i]};
    }
    stex_bind_group *bg;
    assert_int_equal(stex_bind_group_create(p, be, nbufs, &bg), STEX_OK);
    stex_dispatch_options o = {.threads = threads, .races = rd};
    assert_int_equal(stex_dispatch(p, bg, wg, 1, 1, &o), STEX_OK);
    for (uint32_t i = 0; i < nbufs; i++) {
        memcpy(bufs[i].bytes, stex_buffer_data(b[i]), bufs[i].size);
        stex_buffer_destroy(b[i]);
    }
    stex_bind_group_destroy(bg);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

static const stex_profile_id PROFILES[] = {STEX_PROFILE_SPEC, STEX_PROFILE_LAVAPIPE};

/* struct S { a : f16, b : vec3<f16>, c : f32 }, by hand:
 *   a: offset 0, size 2;
 *   b: align 8, so offset roundUp(8, 2) = 8, size 6 (ends at 14);
 *   c: align 4, offset roundUp(4, 14) = 16, size 4 (ends at 20);
 *   S: align max(2, 8, 4) = 8, size roundUp(8, 20) = 24 = array<S>'s stride.
 * array<f16>: stride roundUp(2, 2) = 2; element i is bytes 2i, 2i + 1. */
static void test_storage(void **state)
{
    (void)state;
    const char *src =
        "enable f16;\n"
        "struct S { a : f16, b : vec3<f16>, c : f32 }\n"
        "@group(0) @binding(0) var<storage, read> src : array<S>;\n"
        "@group(0) @binding(1) var<storage, read_write> dst : array<S>;\n"
        "@group(0) @binding(2) var<storage, read_write> h : array<f16>;\n"
        "@group(0) @binding(3) var<storage, read_write> o : array<u32>;\n"
        "fn put(p : ptr<storage, f16, read_write>, v : f16) { *p = v; }\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  dst[1].a = src[0].a + 1.0h;\n"
        "  dst[1].b = src[0].b * 2.0h;\n"
        "  dst[1].c = src[0].c;\n"
        "  let k = arrayLength(&h);\n"      /* 16 bytes / 2 = 8 */
        "  dst[1].b[k - 7u] = 8.0h;\n"      /* b.y, through a dynamic index */
        "  h[3] = 1.5h;\n"
        "  h[4] = -2.0h;\n"
        "  h[k - 1u] = 0.25h;\n"
        "  put(&h[5], 3.0h);\n"            /* through a pointer parameter */
        "  o[0] = bitcast<u32>(vec2<f16>(h[k - 6u], src[0].b.z));\n"
        "  o[1] = k;\n"
        "  o[2] = arrayLength(&dst);\n"
        "  let s = src[0];\n"               /* a whole struct through registers */
        "  dst[0] = s;\n"
        "}\n";
    for (size_t pi = 0; pi < sizeof PROFILES / sizeof PROFILES[0]; pi++) {
        uint8_t s[24], dst[48], h[16], o[12];
        memset(s, 0x11, sizeof s); /* padding bytes of src: never read into a value */
        put16(s, 0, h_of(1.0));
        put16(s, 8, h_of(0.5)), put16(s, 10, h_of(1.0)), put16(s, 12, h_of(2.0));
        float three = 3.0f;
        memcpy(s + 16, &three, 4);
        memset(dst, 0xaa, sizeof dst);
        memset(h, 0x55, sizeof h);
        memset(o, 0, sizeof o);
        buf b[] = {{0, sizeof s, STEX_BUFFER_USAGE_STORAGE, s},
                   {1, sizeof dst, STEX_BUFFER_USAGE_STORAGE, dst},
                   {2, sizeof h, STEX_BUFFER_USAGE_STORAGE, h},
                   {3, sizeof o, STEX_BUFFER_USAGE_STORAGE, o}};
        run(PROFILES[pi], src, b, 4, 1, 1, NULL);
        /* dst[0] = src[0]: the members' bytes, padding (2..7, 14..15, 20..23) untouched */
        for (size_t i = 0; i < 24; i++) {
            bool member = i < 2 || (i >= 8 && i < 14) || (i >= 16 && i < 20);
            assert_int_equal(dst[i], member ? s[i] : 0xaa);
        }
        /* dst[1] at 24: a = 2 at 24; b = (1, 8, 4) at 32; c = 3.0f at 40 */
        assert_int_equal(get16(dst, 24), h_of(2.0));
        assert_int_equal(get16(dst, 32), h_of(1.0));
        assert_int_equal(get16(dst, 34), h_of(8.0));
        assert_int_equal(get16(dst, 36), h_of(4.0));
        float c;
        memcpy(&c, dst + 40, 4);
        assert_true(c == 3.0f);
        for (size_t i = 26; i < 32; i++)
            assert_int_equal(dst[i], 0xaa);
        for (size_t i = 38; i < 40; i++)
            assert_int_equal(dst[i], 0xaa);
        for (size_t i = 44; i < 48; i++)
            assert_int_equal(dst[i], 0xaa);
        /* h: elements 3, 4, 5 and 7 written (1.5 = 0x3e00, -2 = 0xc000, 3 = 0x4200,
         * 0.25 = 0x3400),
         * every other byte as C left it, including the other half of each word */
        for (size_t i = 0; i < 8; i++) {
            uint16_t want = i == 3 ? 0x3e00 : i == 4 ? 0xc000 : i == 5 ? 0x4200
                            : i == 7 ? 0x3400 : 0x5555;
            assert_int_equal(get16(h, 2 * i), want);
        }
        uint32_t w[3];
        memcpy(w, o, sizeof w);
        /* h[2] (still 0x5555) low, src[0].b.z (2.0 = 0x4000) high */
        assert_int_equal(w[0], 0x40005555u);
        assert_int_equal(w[1], 8u);
        assert_int_equal(w[2], 2u); /* 48 bytes / stride 24 */
    }
}

/* struct T { x : vec2<f16>, y : f16, z : vec4<f16>, w : f16 }, by hand:
 *   x: 0 (size 4); y: roundUp(2, 4) = 4 (ends 6); z: align 8, roundUp(8, 6) = 8
 *   (ends 16); w: 16 (ends 18); T: align 8, size roundUp(8, 18) = 24.
 * struct V { v : vec3<f16>, e : f16 }: v at 0 (ends 6), e at 6; size 8.
 * Both meet WGSL's uniform rules (no array or struct members).
 * struct U { t : T, @align(16) v : vec3<f16>, e : f16 }: t at 0; the uniform
 *   rules want the member after a struct member roundUp(16, 24) = 32 bytes on
 *   at least, hence @align(16): v at roundUp(16, 24) = 32 (ends 38), e at 38;
 *   U: align 16, size roundUp(16, 40) = 48. */
static void test_uniform(void **state)
{
    (void)state;
    const char *src =
        "enable f16;\n"
        "struct T { x : vec2<f16>, y : f16, z : vec4<f16>, w : f16 }\n"
        "struct V { v : vec3<f16>, e : f16 }\n"
        "@group(0) @binding(0) var<uniform> t : T;\n"
        "@group(0) @binding(1) var<storage, read_write> o : array<f16>;\n"
        "@group(0) @binding(2) var<uniform> u : V;\n"
        "struct U { t : T, @align(16) v : vec3<f16>, e : f16 }\n"
        "@group(0) @binding(3) var<uniform> uu : U;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  o[0] = t.x.y;\n"
        "  o[1] = t.y;\n"
        "  o[2] = t.z.w;\n"
        "  o[3] = t.w;\n"
        "  o[4] = u.v.z;\n"
        "  o[5] = u.e;\n"
        "  let c = t;\n"
        "  o[6] = c.z.x + c.x.x;\n"
        "  o[7] = uu.t.z.w + uu.v.z * uu.e;\n"
        "}\n";
    for (size_t pi = 0; pi < sizeof PROFILES / sizeof PROFILES[0]; pi++) {
        uint8_t t[24], v[8], o[16], uu[48];
        memset(t, 0x77, sizeof t);
        put16(t, 0, h_of(1.0)), put16(t, 2, h_of(2.0));          /* x */
        put16(t, 4, h_of(3.0));                                  /* y */
        put16(t, 8, h_of(4.0)), put16(t, 14, h_of(5.0));         /* z.x, z.w */
        put16(t, 16, h_of(6.0));                                 /* w */
        memset(v, 0x77, sizeof v);
        put16(v, 4, h_of(7.0));                                  /* v.z */
        put16(v, 6, h_of(-8.0));                                 /* e */
        memset(uu, 0x77, sizeof uu);
        memcpy(uu, t, sizeof t);
        put16(uu, 36, h_of(3.0));                                /* uu.v.z */
        put16(uu, 38, h_of(0.5));                                /* uu.e */
        memset(o, 0, sizeof o);
        buf b[] = {{0, sizeof t, STEX_BUFFER_USAGE_UNIFORM, t},
                   {1, sizeof o, STEX_BUFFER_USAGE_STORAGE, o},
                   {2, sizeof v, STEX_BUFFER_USAGE_UNIFORM, v},
                   {3, sizeof uu, STEX_BUFFER_USAGE_UNIFORM, uu}};
        run(PROFILES[pi], src, b, 4, 1, 1, NULL);
        const double want[] = {2, 3, 5, 6, 7, -8, 5, 5 + 3 * 0.5};
        for (size_t i = 0; i < 8; i++)
            assert_int_equal(get16(o, 2 * i), h_of(want[i]));
    }
}

/* struct P { @size(6) a : f16, b : f16 }: a at 0 taking 6 bytes, b at
 * roundUp(2, 6) = 6; P: align 2, size 8; array<P> stride 8. */
static void test_size_attr(void **state)
{
    (void)state;
    const char *src =
        "enable f16;\n"
        "struct P { @size(6) a : f16, b : f16 }\n"
        "@group(0) @binding(0) var<storage, read_write> p : array<P>;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  p[1].b = p[0].a;\n"
        "  p[1].a = p[0].b;\n"
        "}\n";
    uint8_t m[16];
    memset(m, 0x33, sizeof m);
    put16(m, 0, h_of(1.0)), put16(m, 6, h_of(2.0));
    buf b[] = {{0, sizeof m, STEX_BUFFER_USAGE_STORAGE, m}};
    run(STEX_PROFILE_SPEC, src, b, 1, 1, 1, NULL);
    assert_int_equal(get16(m, 8), h_of(2.0));  /* p[1].a */
    assert_int_equal(get16(m, 14), h_of(1.0)); /* p[1].b */
    for (size_t i = 10; i < 14; i++)
        assert_int_equal(m[i], 0x33);
}

/* Matrices of f16 lay out as arrays of their columns (WGSL 14.4.1), by hand:
 * struct M { a : mat2x2<f16>, b : mat3x3h, v : vec3h }:
 *   a: columns vec2<f16> (size 4, align 4), stride 4: offset 0, size 8;
 *   b: columns vec3<f16> (size 6, align 8), stride 8: align 8, offset 8,
 *      size 24 (ends 32; bytes 14-15, 22-23, 30-31 are padding);
 *   v: offset 32 (ends 38); M: align 8, size roundUp(8, 38) = 40. */
static void test_matrices(void **state)
{
    (void)state;
    const char *src =
        "enable f16;\n"
        "struct M { a : mat2x2<f16>, b : mat3x3h, v : vec3h }\n"
        "@group(0) @binding(0) var<storage, read_write> m : M;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  m.v = m.b * m.v;\n"
        "  m.a = transpose(m.a) * 2.0h;\n"
        "  m.b[1].z = determinant(m.b);\n"
        "  m.b[2] = (-mat3x3(m.b[0], m.b[1], m.b[2]))[2];\n" /* inferred mat3x3<f16> */
        "}\n";
    for (size_t pi = 0; pi < sizeof PROFILES / sizeof PROFILES[0]; pi++) {
        uint8_t mm[40];
        memset(mm, 0xee, sizeof mm);
        const double a[] = {1, 2, 3, 4};
        for (size_t i = 0; i < 4; i++)
            put16(mm, 2 * i, h_of(a[i]));
        for (size_t c = 0; c < 3; c++) /* b = 2 * identity */
            for (size_t r = 0; r < 3; r++)
                put16(mm, 8 + 8 * c + 2 * r, h_of(c == r ? 2.0 : 0.0));
        put16(mm, 32, h_of(1)), put16(mm, 34, h_of(2)), put16(mm, 36, h_of(3));
        buf b[] = {{0, sizeof mm, STEX_BUFFER_USAGE_STORAGE, mm}};
        run(PROFILES[pi], src, b, 1, 1, 1, NULL);
        /* transpose: columns (1, 3), (2, 4); times 2 */
        const double at[] = {2, 6, 4, 8};
        for (size_t i = 0; i < 4; i++)
            assert_int_equal(get16(mm, 2 * i), h_of(at[i]));
        assert_int_equal(get16(mm, 32), h_of(2));
        assert_int_equal(get16(mm, 34), h_of(4));
        assert_int_equal(get16(mm, 36), h_of(6));
        assert_int_equal(get16(mm, 8 + 8 + 4), h_of(8)); /* det(2 I) = 8, into b[1].z */
        /* -(0, 0, 2): -0 is 0x8000 */
        assert_int_equal(get16(mm, 24), 0x8000);
        assert_int_equal(get16(mm, 26), 0x8000);
        assert_int_equal(get16(mm, 28), h_of(-2));
        const size_t pad[] = {14, 15, 22, 23, 30, 31, 38, 39};
        for (size_t i = 0; i < 8; i++)
            assert_int_equal(mm[pad[i]], 0xee);
    }
}

/* var<workgroup> array<f16, 64>: each invocation writes its element (two per
 * word), a barrier, then reads its mirror's; 4 workgroups on 2 threads. */
static const char *WG_SRC =
    "enable f16;\n"
    "var<workgroup> pad : f16;\n"               /* workgroup bytes 0..1 */
    "var<workgroup> w : array<f16, 64>;\n"      /* align 2: bytes 2..129 */
    "@group(0) @binding(0) var<storage, read_write> o : array<f16>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i : u32,\n"
    "                                     @builtin(workgroup_id) g : vec3<u32>) {\n"
    "  if (i == 0u) { pad = 100.0h; }\n"
    "  w[i] = f16(i) * 0.5h + f16(g.x);\n"
    "  workgroupBarrier();\n"
    "  o[g.x * 65u + i] = w[63u - i];\n"
    "  if (i == 0u) { o[g.x * 65u + 64u] = pad; }\n"
    "}\n";

static void test_workgroup(void **state)
{
    (void)state;
    for (size_t pi = 0; pi < sizeof PROFILES / sizeof PROFILES[0]; pi++) {
        uint8_t o[4 * 65 * 2 + 4]; /* buffer sizes are multiples of 4 */
        memset(o, 0x99, sizeof o);
        buf b[] = {{0, sizeof o, STEX_BUFFER_USAGE_STORAGE, o}};
        run(PROFILES[pi], WG_SRC, b, 1, 4, 2, NULL);
        for (uint32_t g = 0; g < 4; g++) {
            for (uint32_t i = 0; i < 64; i++)
                assert_int_equal(get16(o, 2 * (g * 65 + i)), h_of((63 - i) * 0.5 + g));
            assert_int_equal(get16(o, 2 * (g * 65 + 64)), h_of(100.0));
        }
        assert_int_equal(get16(o, 4 * 65 * 2), 0x9999); /* past the last element */
    }
}

/* Races are decided per 32-bit word (docs/engine.md): invocations 2j and
 * 2j + 1 write the two halves of word j of w before the barrier and of o,
 * which a GPU does not count as a race but stex reports, write-write, one
 * location per word: per workgroup 32 words of w (bytes 2..129 touch words 0..32:
 * pad's write by invocation 0 shares word 0 with w[0] by invocation 0 - the
 * same invocation, no race - and w[63] alone in word 32), and 32.5 words of o.
 * Counted by hand for one workgroup: w: words 1..31 hold pairs (2k-1, 2k)
 * of different invocations = 31 racing words (word 0: pad and w[0], both by
 * invocation 0; word 32: w[63] alone); o (elements 0..64, bytes 0..129):
 * words 0..31 hold elements (2k, 2k+1) by invocations 2k, 2k+1 = 32 racing
 * words; word 32 holds element 64, written by invocation 0 only. */
static void test_races(void **state)
{
    (void)state;
    uint8_t o[65 * 2 + 2]; /* 132 bytes */
    memset(o, 0, sizeof o);
    buf b[] = {{0, sizeof o, STEX_BUFFER_USAGE_STORAGE, o}};
    stex_race_detector *rd;
    assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
    run(STEX_PROFILE_SPEC, WG_SRC, b, 1, 1, 1, rd);
    assert_int_equal(stex_race_count(rd, STEX_RACE_WRITE_WRITE), 31 + 32);
    assert_int_equal(stex_race_count(rd, STEX_RACE_READ_WRITE), 0);
    size_t nw = 0, nb = 0;
    for (size_t i = 0; i < stex_race_reported(rd); i++) {
        const stex_race *r = stex_race_get(rd, i);
        assert_true(r->same_workgroup);
        if (r->memory == STEX_RACE_MEMORY_WORKGROUP) {
            assert_true(r->word >= 1 && r->word <= 31);
            nw++;
        } else {
            assert_true(r->word <= 31);
            nb++;
        }
    }
    assert_int_equal(nw, 31);
    assert_int_equal(nb, 32);
    stex_race_detector_destroy(rd);
    for (uint32_t i = 0; i < 64; i++) /* the bytes are right all the same */
        assert_int_equal(get16(o, 2 * i), h_of((63 - i) * 0.5));
}

static void expect_error(const char *src, const char *want)
{
    stex_wgsl_module *m = NULL;
    stex_status st = stex_wgsl_module_create(src, "f16mem.wgsl", &m);
    const char *d = m ? stex_wgsl_module_diagnostics(m) : "";
    if (st == STEX_OK || !strstr(d, want))
        fail_msg("expected '%s' in the diagnostics of:\n%s\ngot: %s", want, src, d);
    stex_wgsl_module_destroy(m);
}

/* What stays unsupported is refused with its rule. */
static void test_errors(void **state)
{
    (void)state;
    expect_error("enable f16;\nstruct S { n : atomic<u32>, h : f16 }\n"
                 "@group(0) @binding(0) var<storage, read_write> b : S;\n"
                 "@compute @workgroup_size(1) fn main() {\n  atomicAdd(&b.n, 1u);\n}\n",
                 "f16mem.wgsl:5:13: error: stex does not support atomics in a variable that "
                 "also holds f16");
    /* no implicit conversion between f32 and f16 matrices */
    expect_error("enable f16;\n@compute @workgroup_size(1) fn main() {\n"
                 "  var m : mat2x2f;\n  let v = m * vec2h(1.0h);\n}\n",
                 "f16mem.wgsl:4:11: error: the left operand has type mat2x2<f32> where "
                 "mat2x2<f16> is expected [type-mismatch]");
    expect_error("@compute @workgroup_size(1) fn main() {\n  var m : mat2x2h;\n}\n",
                 "mat2x2h needs the f16 extension");
    /* the same layouts are fine in var<storage> */
    stex_wgsl_module *m = NULL;
    assert_int_equal(stex_wgsl_module_create(
                         "enable f16;\nstruct A { x : vec3<f16> }\nstruct B { a : A, h : f16 }\n"
                         "@group(0) @binding(0) var<storage> u : B;\n"
                         "@compute @workgroup_size(1) fn main() {\n  let x = u.h;\n}\n",
                         "f16mem.wgsl", &m), STEX_OK);
    stex_wgsl_module_destroy(m);
    expect_error("enable f16;\nstruct S { @align(6) h : f16 }\n"
                 "@compute @workgroup_size(1) fn main() {\n  var s : S;\n}\n",
                 "f16mem.wgsl:2:13: error: @align(6) is not a positive power of two "
                 "[attribute-align]");
    expect_error("enable f16;\nstruct S { @align(2) x : f32 }\n"
                 "@compute @workgroup_size(1) fn main() {\n  var s : S;\n}\n",
                 "@align(2) is below f32's alignment 4 [attribute-align]");
    expect_error("enable f16;\nstruct S { @size(1) h : f16 }\n"
                 "@compute @workgroup_size(1) fn main() {\n  var s : S;\n}\n",
                 "@size(1) is smaller than f16's size 2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_storage),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_size_attr),
        cmocka_unit_test(test_matrices),
        cmocka_unit_test(test_workgroup),
        cmocka_unit_test(test_races),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
