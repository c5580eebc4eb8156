/* 10,000 hostile WGSL modules, generated from a seed: deep nesting of every
 * kind, huge arrays, long declaration chains, a flat sum of thousands of
 * terms, token soup, long identifiers and numbers, many declarations, NUL
 * bytes, invalid UTF-8, and runnable shaders that loop.  Each must be
 * refused (STEX_VALIDATION_ERROR with diagnostics) or compile, within a
 * bounded time; the runnable ones are dispatched with a small max_steps.
 * The sanitizer build runs this too: no report may come.  STEX_STRESS_SEED
 * and STEX_STRESS_COUNT change the run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"
#include "wgsl_text.h"

enum { KINDS = 10 };
static const char *const KIND_NAMES[KINDS] = {
    "nesting", "chain", "flat sum", "huge array", "token soup", "long names and numbers",
    "many declarations", "NUL", "invalid UTF-8", "runnable"};

static uint64_t rng_state;

static uint32_t rnd(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}

static uint32_t below(uint32_t n) { return n ? rnd() % n : 0; }

/* 1..max, small numbers more often (log-uniform) */
static uint32_t some(uint32_t max)
{
    uint32_t bits = 1 + below(32 - (uint32_t)__builtin_clz(max));
    uint32_t v = 1 + below(bits >= 32 ? UINT32_MAX : (1u << bits));
    return v > max ? max : v;
}

static const char MAIN[] = "@compute @workgroup_size(1) fn main() {";

static void nesting(text *t)
{
    static const char *const kinds[][3] = {
        {"let y = ", "(", ")"}, {"let y = ", "f(", ")"}, {"let y = ", "abs(", ")"},
        {"let y = ", "-", ""}, {"let y = ", "!", ""}, {"", "{", "}"}, {"", "if true {", "}"},
        {"", "loop { ", "break; }"}, {"let y = ", "a[", "]"}, {"let y = ", "vec2(", ", 1).x"},
        {"", "for (;;) { ", "break; }"}, {"", "switch 1 { default { ", "} }"}};
    uint32_t k = below(sizeof kinds / sizeof kinds[0]), n = some(2000);
    add(t, "fn f(x : i32) -> i32 { return x; }\n%s var a = array(1, 2); %s", MAIN, kinds[k][0]);
    repeat(t, kinds[k][1], n);
    add(t, "%s", kinds[k][0][0] ? "1" : "");
    repeat(t, kinds[k][2], n);
    add(t, "%s }\n", kinds[k][0][0] ? "; _ = y;" : "");
}

static void chain(text *t)
{
    uint32_t n = some(1000), k = below(6);
    switch (k) {
    case 0: case 1:
        add(t, "%s c0 = 1;\n", k ? "override" : "const");
        for (uint32_t i = 1; i < n; i++)
            add(t, "%s c%u = c%u + 1;\n", k ? "override" : "const", i, i - 1);
        add(t, "%s _ = c%u; }\n", MAIN, n - 1);
        break;
    case 2: /* each names the one before twice */
        add(t, "const c0 = 1;\n");
        for (uint32_t i = 1; i < n; i++)
            add(t, "const c%u = c%u * 2 - c%u;\n", i, i - 1, i - 1);
        add(t, "%s _ = c%u; }\n", MAIN, n - 1);
        break;
    case 3:
        add(t, "alias a0 = u32;\n");
        for (uint32_t i = 1; i < n; i++)
            add(t, "alias a%u = a%u;\n", i, i - 1);
        add(t, "var<private> v : a%u;\n%s _ = v; }\n", n - 1, MAIN);
        break;
    case 4:
        add(t, "struct s0 { x : u32 }\n");
        for (uint32_t i = 1; i < n; i++)
            add(t, "struct s%u { x : s%u }\n", i, i - 1);
        add(t, "var<private> v : s%u;\n%s _ = v; }\n", n - 1, MAIN);
        break;
    default: /* calls: a chain (each function checked alone inlines the rest) */
        n = some(300);
        add(t, "fn f0() -> i32 { return 1; }\n");
        for (uint32_t i = 1; i < n; i++)
            add(t, "fn f%u() -> i32 { return f%u() %s; }\n", i, i - 1,
                n < 64 ? "+ f0()" : "+ 1");
        add(t, "%s _ = f%u(); }\n", MAIN, n - 1);
        break;
    }
}

static void flat_sum(text *t)
{
    uint32_t n = some(2000);
    add(t, "const c = 1");
    repeat(t, below(2) ? " + 1" : " * 1", n - 1);
    add(t, ";\n%s var x = 1; let y = x", MAIN);
    repeat(t, below(2) ? " - x" : " & x", n - 1);
    add(t, "; _ = y; _ = c; }\n");
}

static void huge_array(text *t)
{
    char ty[200];
    uint64_t c = (uint64_t)1 << below(40);
    c += below(3) - 1u;
    snprintf(ty, sizeof ty, "array<u32, %llu>", (unsigned long long)(c ? c : 1));
    for (uint32_t d = below(3); d > 0; d--) {
        char in[sizeof ty];
        snprintf(in, sizeof in, "array<%.150s, %u>", ty, 1u << below(20));
        snprintf(ty, sizeof ty, "%s", in);
    }
    switch (below(5)) {
    case 0: add(t, "const a = %s();\n%s let x = a[1]; _ = x; }\n", ty, MAIN); break;
    case 1: add(t, "var<private> a : %s;\n%s a[1] = a[2]; }\n", ty, MAIN); break;
    case 2: add(t, "var<workgroup> a : %s;\n%s _ = a[1]; }\n", ty, MAIN); break;
    case 3:
        add(t, "@group(0) @binding(0) var<storage, read_write> a : %s;\n%s _ = a[1]; }\n", ty,
            MAIN);
        break;
    default: add(t, "%s var a : %s; let b = a; _ = b[0]; }\n", MAIN, ty); break;
    }
}

static void token_soup(text *t)
{
    static const char *const toks[] = {
        "fn", "var", "let", "const", "override", "struct", "alias", "loop", "if", "else",
        "switch", "case", "default", "for", "while", "return", "break", "continue", "{", "}",
        "(", ")", "[", "]", "<", ">", ">>", "<<", "=", "==", ";", ":", ",", ".", "@", "->", "+",
        "-", "--", "*", "&", "&&", "|", "!", "~", "^", "%", "/", "_", "x", "y", "main", "i32",
        "u32", "f32", "vec4", "array", "ptr", "function", "private", "workgroup", "1", "0x7f",
        "1.5e3", "2u", "-1i", "compute", "workgroup_size", "builtin", "/*", "*/", "//", "\n"};
    uint32_t n = some(4000);
    if (below(2))
        add(t, "%s ", MAIN);
    for (uint32_t i = 0; i < n; i++)
        add(t, "%s ", toks[below(sizeof toks / sizeof toks[0])]);
}

static void long_names(text *t)
{
    uint32_t n = some(100000);
    switch (below(4)) {
    case 0:
        add(t, "const ");
        repeat(t, "a", n);
        add(t, " = 1;\n%s }\n", MAIN);
        break;
    case 1:
        add(t, "const c = ");
        repeat(t, "9", n);
        add(t, ";\n%s _ = c; }\n", MAIN);
        break;
    case 2:
        add(t, "const c = 1");
        repeat(t, "0", n % 400);
        add(t, ".5e%u;\n%s _ = c; }\n", rnd(), MAIN);
        break;
    default:
        add(t, "const c = 0x");
        repeat(t, "f", n % 40);
        add(t, "%s;\n%s _ = c; }\n", below(2) ? "u" : "", MAIN);
        break;
    }
}

static void many_decls(text *t)
{
    uint32_t n = some(800);
    for (uint32_t i = 0; i < n; i++)
        switch (below(4)) {
        case 0: add(t, "const k%u = %u;\n", i, rnd()); break;
        case 1: add(t, "fn g%u(x : u32) -> u32 { return x + %uu; }\n", i, i); break;
        case 2: add(t, "struct S%u { a : u32, b : vec2<f32> }\n", i); break;
        default: add(t, "var<private> p%u : array<u32, %u>;\n", i, 1 + below(16)); break;
        }
    if (below(4) == 0)
        add(t, "const k0 = 1;\n"); /* a redeclaration */
    add(t, "%s }\n", MAIN);
}

static void utf8_mess(text *t)
{
    add(t, "%s let x = 1; ", MAIN);
    uint32_t n = some(2000);
    for (uint32_t i = 0; i < n; i++) {
        char c = (char)(below(4) ? 0x80 + below(128) : 'a' + below(26));
        if (!c)
            c = ' ';
        add(t, "%c", c);
    }
    add(t, " }\n");
}

static void runnable(text *t)
{
    switch (below(4)) {
    case 0: add(t, "%s var i = 0u; loop { i++; } }\n", MAIN); break;
    case 1:
        add(t, "%s var a : array<u32, %u>; for (var i = 0u; i < %uu; i++) { a[i %% %uu] += i; } "
            "}\n", MAIN, 1 + below(1000), some(100000), 1 + below(1000));
        break;
    case 2:
        add(t, "%s var x = 0; while x < %d { switch x %% 3 { case 0 { x += 2; } "
            "default { x += 1; } } } }\n", MAIN, (int)some(1000000));
        break;
    default:
        add(t, "fn f(n : u32) -> u32 { var s = 0u; for (var i = 0u; i < n; i++) { s += i; } "
            "return s; }\n%s _ = f(%uu) + f(f(3u)); }\n", MAIN, some(10000000));
        break;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_hostile_modules(void **s)
{
    (void)s;
    const char *seed = getenv("STEX_STRESS_SEED"), *count = getenv("STEX_STRESS_COUNT");
    rng_state = seed ? strtoull(seed, NULL, 0) : 24;
    if (!rng_state)
        rng_state = 1;
    uint32_t total = count ? (uint32_t)strtoul(count, NULL, 0) : 10000;
    stex_adapter *ad;
    stex_device *dev = fixture_device(STEX_PROFILE_SPEC, &ad);
    uint32_t refused[KINDS] = {0}, compiled[KINDS] = {0}, ran[KINDS] = {0};
    double spent[KINDS] = {0}, slowest[KINDS] = {0};
    double worst = 0, start = now();
    size_t bytes = 0;
    text t = {0};
    for (uint32_t i = 0; i < total; i++) {
        uint32_t kind = i % KINDS;
        uint64_t at = rng_state;
        t.n = 0;
        switch (kind) {
        case 0: nesting(&t); break;
        case 1: chain(&t); break;
        case 2: flat_sum(&t); break;
        case 3: huge_array(&t); break;
        case 4: token_soup(&t); break;
        case 5: long_names(&t); break;
        case 6: many_decls(&t); break;
        case 7: runnable(&t); break; /* then a NUL somewhere in it */
        case 8: utf8_mess(&t); break;
        default: runnable(&t); break;
        }
        size_t len = t.n;
        if (kind == 7 && len) {
            size_t at_nul = below((uint32_t)len);
            t.s[at_nul] = 0;
        }
        bytes += len;
        double t0 = now();
        stex_wgsl_module *m = NULL;
        stex_status st = stex_wgsl_module_create_n(NULL, t.s, len, "stress.wgsl", &m);
        if (st != STEX_OK && st != STEX_VALIDATION_ERROR)
            fail_msg("module %u (%s, seed state %llu): status %d: %s", i, KIND_NAMES[kind],
                     (unsigned long long)at, st, stex_last_error());
        assert_non_null(m);
        if (st == STEX_VALIDATION_ERROR) {
            refused[kind]++;
            assert_true(stex_wgsl_module_error_count(m) > 0);
            assert_non_null(strstr(stex_wgsl_module_diagnostics(m), "error: "));
        } else {
            compiled[kind]++;
            if (kind == 7)
                fail_msg("module %u: a NUL byte was accepted", i);
        }
        if (st == STEX_OK && stex_wgsl_entry_point_find(m, "main") &&
            !stex_wgsl_entry_point_find(m, "main")->entry_count) {
            stex_pipeline *p = NULL;
            stex_wgsl_options o = {.subgroup_width = 1u << below(7), .max_steps = 10000};
            stex_status ps = stex_wgsl_pipeline_create(dev, m, "main", &o, &p);
            stex_bind_group *g = NULL;
            if (ps == STEX_OK && stex_bind_group_create(p, NULL, 0, &g))
                fail_msg("module %u: an empty bind group: %s", i, stex_last_error());
            if (ps == STEX_OK) {
                stex_status ds = stex_dispatch(p, g, 1, 1, 1,
                                               &(stex_dispatch_options){.threads = 1});
                stex_bind_group_destroy(g);
                if (ds != STEX_OK && ds != STEX_SHADER_ERROR)
                    fail_msg("module %u (%s): dispatch status %d: %s", i, KIND_NAMES[kind], ds,
                             stex_last_error());
                ran[kind]++;
            } else if (ps != STEX_VALIDATION_ERROR) {
                fail_msg("module %u (%s): pipeline status %d: %s", i, KIND_NAMES[kind], ps,
                         stex_last_error());
            }
            stex_pipeline_destroy(p);
        }
        stex_wgsl_module_destroy(m);
        double dt = now() - t0;
        if (dt > worst)
            worst = dt;
        if (getenv("STEX_STRESS_SHOW") && dt > atof(getenv("STEX_STRESS_SHOW")))
            printf("module %u (%s) %.2f s: %.300s\n", i, KIND_NAMES[kind], dt, t.s);
        spent[kind] += dt;
        if (dt > slowest[kind])
            slowest[kind] = dt;
        /* generous for the sanitizer build; the plain build takes milliseconds */
        if (dt > 20)
            fail_msg("module %u (%s, %zu bytes, seed state %llu) took %.1f s", i,
                     KIND_NAMES[kind], len, (unsigned long long)at, dt);
    }
    free(t.s);
    stex_device_destroy(dev);
    stex_adapter_destroy(ad);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%u modules, %.1f MB of text in %.1f s (slowest %.2f s), peak RSS %ld MB\n", total,
           (double)bytes / 1e6, now() - start, worst, ru.ru_maxrss / 1024);
    for (uint32_t k = 0; k < KINDS; k++)
        printf("  %-24s refused %5u  compiled %5u  dispatched %5u  %6.1f s (slowest %.2f s)\n",
               KIND_NAMES[k], refused[k], compiled[k], ran[k], spent[k], slowest[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_hostile_modules)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
