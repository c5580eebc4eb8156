/* The WGSL front end's const-expressions against Dawn's compiler: for every
 * const and const-abstract row of tests/data/wgslexpr-const-{lavapipe,
 * nvidia}.tsv.gz, a module binds `const r : T = <expr>;` (the op's WGSL
 * expression over the row's inputs, written as the measurement wrote them:
 * exact hex floats, (-0.0f), bitcast<f32>(0x...u) for inf and NaN), stores
 * r to a buffer, and is compiled and run by stex.
 *
 * A value must equal Dawn's bit for bit, and also stex_math_eval_const's
 * (the value a const-expression has is the math layer's) and the same
 * expression's at run time on the spec profile (a `let` of inputs read from
 * a buffer; const-abstract rows aside, AbstractFloat being no run-time
 * type); an `error:` row
 * must be a compile error, `file:line:col: error: ... [rule]`.  The oob_read
 * rows (a literal index into a storage array) compile and run as the
 * measurement did and must give Dawn's word, or its compile error.  Where Dawn
 * departs from WGSL the rows are explained by the exceptions the math
 * layer's replay names (tests/math/const_exceptions.h, through
 * const_explain.h), with the same per-file bounds; any other difference
 * fails.  Modules compiled for the lavapipe profile (Dawn's front end, the
 * STEX_CONST_TINT rule) must give every row as Dawn did, no exception. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>
#include <zlib.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

#include "../math/const_explain.h"
#include "../math/const_zeros.h"

static stex_device *dev;
static const stex_profile *front; /* the profile modules are compiled for */

static int parse_hex_list(const char *s, uint32_t *out, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        out[n++] = (uint32_t)strtoul(s, &end, 16);
        if (end == s)
            return -1;
        s = end;
        if (*s == ',')
            s++;
    }
    return n;
}

/* The WGSL literal of one argument word of scalar type t ('f', 'i', 'u'),
 * as the measurement wrote it; abstract: an AbstractFloat literal. */
static void literal(char *buf, size_t size, char t, uint32_t u, bool abstract)
{
    if (t == 'i') {
        snprintf(buf, size, "i32(%d)", (int32_t)u);
    } else if (t == 'u') {
        snprintf(buf, size, "%uu", u);
    } else if ((u & 0x7f800000u) == 0x7f800000u) {
        snprintf(buf, size, "bitcast<f32>(0x%08xu)", u);
    } else if (u == 0x80000000u) {
        snprintf(buf, size, abstract ? "(-0.0)" : "(-0.0f)");
    } else {
        float f;
        memcpy(&f, &u, 4);
        snprintf(buf, size, "%a%s", (double)f, abstract ? "" : "f");
    }
}

/* The arguments of a signature as WGSL expressions: scalars, or vecN<T>(...);
 * runtime: read from inp[] (array<u32>) instead of written as literals. */
static void arguments(const char *sig, const uint32_t *in, bool abstract, bool runtime,
                      char args[4][256])
{
    int w = 0;
    for (int k = 0; k < 4 && *sig && *sig != '-'; k++) {
        int n = 1;
        char t = sig[0];
        if (!strncmp(sig, "vec", 3))
            n = sig[3] - '0', t = sig[5];
        args[k][0] = 0;
        if (n > 1)
            snprintf(args[k], 256, "vec%d<%c32>(", n, t);
        for (int i = 0; i < n; i++) {
            char lit[64];
            if (runtime && t == 'u')
                snprintf(lit, sizeof lit, "inp[%d]", w++);
            else if (runtime)
                snprintf(lit, sizeof lit, "bitcast<%c32>(inp[%d])", t, w++);
            else
                literal(lit, sizeof lit, t, in[w++], abstract);
            strcat(args[k], lit);
            strcat(args[k], i + 1 < n ? ", " : n > 1 ? ")" : "");
        }
        sig = strchr(sig, ',') && strchr(sig, ',') < strstr(sig, "->") ? strchr(sig, ',') + 1
                                                                         : strstr(sig, "->");
    }
}

/* expr with a, b, c, d replaced by the argument expressions. */
static void substitute(const char *expr, char args[4][256], char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = expr; *p && n + 256 < size; p++) {
        bool ident = (*p >= 'a' && *p <= 'd') && (p == expr || !strchr("_.abcdefghijklmnopqrstuvwxyz"
                                                                        "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", p[-1])) &&
                     !(p[1] && strchr("_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", p[1]));
        if (ident) {
            n += (size_t)snprintf(out + n, size - n, "%s", args[*p - 'a']);
        } else {
            out[n++] = *p;
        }
    }
    out[n] = 0;
}

/* The module for one row: each ';'-separated result of the expression bound
 * by a const of its result type and stored, word by word, into out[];
 * runtime: by a let, the inputs read from inp[] at run time. */
/* prefix: statements before the row's (the earlier cases' f32 zero) */
static void module_source(const stex_math_fn_info *info, bool abstract, bool runtime,
                          const uint32_t *in, const char *prefix, char *src, size_t size)
{
    char args[4][256];
    arguments(info->sig, in, abstract, runtime, args);
    size_t n = (size_t)snprintf(src, size,
                                "@group(0) @binding(0) var<storage, read_write> out : "
                                "array<u32>;\n%s@compute @workgroup_size(1)\nfn main() {\n%s",
                                runtime ? "@group(0) @binding(1) var<storage, read> inp : "
                                          "array<u32>;\n" : "", prefix);
    const char *rt = strstr(info->sig, "->") + 2, *ex = info->expr;
    uint32_t word = 0;
    for (int k = 0; *rt; k++) {
        char type[32], part[256], body[2048];
        size_t tl = strcspn(rt, ",");
        snprintf(type, sizeof type, "%.*s", (int)tl, rt);
        rt += tl + (rt[tl] == ',');
        size_t el = strcspn(ex, ";");
        snprintf(part, sizeof part, "%.*s", (int)el, ex);
        ex += el + (ex[el] == ';');
        substitute(part, args, body, sizeof body);
        if (abstract)
            n += (size_t)snprintf(src + n, size - n, "  const r%d : %s = f32(%s);\n", k, type, body);
        else
            n += (size_t)snprintf(src + n, size - n, "  %s r%d : %s = %s;\n",
                                  runtime ? "let" : "const", k, type, body);
        int lanes = !strncmp(type, "vec", 3) ? type[3] - '0' : 1;
        for (int l = 0; l < lanes; l++) {
            char v[32];
            snprintf(v, sizeof v, lanes > 1 ? "r%d[%d]" : "r%d", k, l);
            if (!strcmp(type, "bool"))
                n += (size_t)snprintf(src + n, size - n, "  out[%u] = select(0u, 1u, %s);\n", word++, v);
            else
                n += (size_t)snprintf(src + n, size - n, "  out[%u] = bitcast<u32>(%s);\n", word++, v);
        }
    }
    snprintf(src + n, size - n, "}\n");
}

/* Whether text is one or more `file:line:col: error: message [rule]` lines. */
static bool well_formed(const char *text)
{
    unsigned line, col;
    char rule[64];
    const char *e = strstr(text, "const.wgsl:");
    if (!e || sscanf(e, "const.wgsl:%u:%u: error:", &line, &col) != 2 || !line || !col)
        return false;
    char first[1024];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(e, "\n"), e);
    const char *open = strrchr(first, '[');
    size_t len = strlen(first);
    return open && first[len - 1] == ']' && sscanf(open, "[%63[a-z0-9-]]", rule) == 1 &&
           strlen(rule) == (size_t)(first + len - 1 - open - 1);
}

/* Compiles and runs src; STEX_OK with out[] filled, or the status of the
 * failing step (diagnostics in diag). */
static stex_status compile_run(const char *src, const uint32_t *in, uint32_t nin,
                               uint32_t *out, uint32_t words, char *diag, size_t dsize)
{
    stex_wgsl_module *m;
    stex_status st = stex_wgsl_module_create_for(front, src, "const.wgsl", &m);
    diag[0] = 0;
    if (st) {
        snprintf(diag, dsize, "%s", stex_wgsl_module_diagnostics(m));
        stex_wgsl_module_destroy(m);
        return st;
    }
    stex_pipeline *p;
    if ((st = stex_wgsl_pipeline_create(dev, m, "main", NULL, &p)))
        fail_msg("pipeline: %s\n%s", stex_last_error(), src);
    stex_buffer *b;
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 64,
                         .usage = STEX_BUFFER_USAGE_STORAGE}, &b), STEX_OK);
    stex_buffer *bi = NULL;
    stex_bind_group_entry be[2] = {{.binding = 0, .buffer = b}, {.binding = 1}};
    if (nin) {
        assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 32,
                             .usage = STEX_BUFFER_USAGE_STORAGE}, &bi), STEX_OK);
        memcpy(stex_buffer_data(bi), in, nin * 4);
        be[1].buffer = bi;
    }
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, be, nin ? 2 : 1, &g), STEX_OK);
    stex_dispatch_options d = {.threads = 1};
    if (stex_dispatch(p, g, 1, 1, 1, &d))
        fail_msg("dispatch: %s\n%s", stex_last_error(), src);
    memcpy(out, stex_buffer_data(b), words * 4);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(b);
    stex_buffer_destroy(bi);
    stex_wgsl_module_destroy(m);
    return STEX_OK;
}

/* An oob_read const row: buf[LITERAL] on array<u32, 4> or array<u32>
 * bound at byte 256 (16 or 64 bytes) of a 1 KiB buffer whose word w holds
 * 0xca000000 | w, as the measurement bound it, on a device of the file's
 * profile (the out-of-bounds policy is the device's). */
static void oob_row(const char *name, const char *type, const char *input, const char *output)
{
    bool fixed = !strcmp(type, "array<u32,4>[literal]");
    int32_t idx = (int32_t)strtoul(input, NULL, 16);
    char src[512], diag[2048];
    snprintf(src, sizeof src,
             "@group(0) @binding(0) var<storage, read_write> buf : %s;\n"
             "@group(0) @binding(1) var<storage, read_write> io : array<u32, 4>;\n"
             "@compute @workgroup_size(1) fn main() {\n  io[1] = buf[%d];\n}\n",
             fixed ? "array<u32, 4>" : "array<u32>", idx);
    stex_wgsl_module *m;
    stex_status st = stex_wgsl_module_create_for(front, src, "const.wgsl", &m);
    snprintf(diag, sizeof diag, "%s", stex_wgsl_module_diagnostics(m));
    bool dev_err = !strncmp(output, "error:", 6);
    if (dev_err || st) {
        if (!dev_err || !st || !well_formed(diag))
            fail_msg("[%s] oob_read %s %s: Dawn %s, stex:\n%s", name, type, input, output, diag);
        stex_wgsl_module_destroy(m);
        return;
    }
    stex_adapter *a;
    stex_device *d = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_adapter_destroy(a);
    stex_device_set_profile(d, !strcmp(name, "nvidia") ? STEX_PROFILE_NVIDIA
                                                      : STEX_PROFILE_LAVAPIPE);
    stex_pipeline *p;
    if (stex_wgsl_pipeline_create(d, m, "main", NULL, &p))
        fail_msg("%s", stex_last_error());
    stex_buffer *big, *io;
    uint32_t usage = STEX_BUFFER_USAGE_STORAGE;
    assert_int_equal(stex_buffer_create(d, &(stex_buffer_desc){.size = 1024, .usage = usage}, &big),
                     STEX_OK);
    assert_int_equal(stex_buffer_create(d, &(stex_buffer_desc){.size = 16, .usage = usage}, &io),
                     STEX_OK);
    uint32_t *w = (uint32_t *)(void *)stex_buffer_data(big);
    for (uint32_t k = 0; k < 256; k++)
        w[k] = 0xca000000u | k;
    stex_bind_group_entry be[2] = {{.binding = 0, .buffer = big, .offset = 256,
                                    .size = fixed ? 16 : 64}, {.binding = 1, .buffer = io}};
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, be, 2, &g), STEX_OK);
    if (stex_dispatch(p, g, 1, 1, 1, &(stex_dispatch_options){.threads = 1}))
        fail_msg("dispatch: %s", stex_last_error());
    uint32_t got = ((const uint32_t *)(const void *)stex_buffer_data(io))[1];
    if (got != (uint32_t)strtoul(output, NULL, 16))
        fail_msg("[%s] oob_read %s %s: Dawn %s, stex %08x", name, type, input, output, got);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(big);
    stex_buffer_destroy(io);
    stex_device_destroy(d);
    stex_wgsl_module_destroy(m);
}

static void replay(const char *name, stex_profile_id profile)
{
    front = stex_profile_get(profile);
    stex_const_rule rule = stex_math_const_rule(front);
    const char *dir = getenv("STEX_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/wgslexpr-const-%s.tsv.gz", dir ? dir : "tests/data", name);
    gzFile f = gzopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    enum { NEXC = sizeof EXCEPTIONS / sizeof EXCEPTIONS[0] };
    unsigned exc_rows[NEXC + 1] = {0};
    unsigned rows = 0, exact = 0, errors_ok = 0, oob = 0, bad = 0, runtime_equal = 0;
    zero_table zeros = {.set = false};
    char line[4096], src[8192], diag[4096];
    while (gzgets(f, line, sizeof line)) {
        line[strcspn(line, "\r\n")] = 0;
        char *op = strtok(line, "\t"), *sig = strtok(NULL, "\t"), *srck = strtok(NULL, "\t");
        char *inputs = strtok(NULL, "\t"), *output = strtok(NULL, "\t");
        assert_non_null(output);
        stex_math_fn fn;
        if (!stex_math_fn_find(op, sig, &fn)) {
            if (strcmp(op, "oob_read"))
                fail_msg("[%s] a const row of an unknown op %s %s", name, op, sig);
            oob_row(name, sig, inputs, output);
            oob++;
            continue;
        }
        rows++;
        const stex_math_fn_info *info = stex_math_fn_get(fn);
        bool abstract = !strcmp(srck, "const-abstract");
        uint32_t in[8] = {0}, want[8] = {0}, got[8] = {0}, ref[8] = {0};
        if (parse_hex_list(inputs, in, 8) < 0)
            fail_msg("bad inputs %s", inputs);
        int dev_err = !strncmp(output, "error:", 6);
        int nout = dev_err ? 0 : parse_hex_list(output, want, 8);
        const char *prefix = "";
        zero_table before = zeros;
        if (rule == STEX_CONST_TINT) {
            /* the zero the group's earlier cases made comes first */
            zt_group(&zeros, op, sig, srck);
            before = zeros;
            if (zeros.set)
                prefix = zeros.zero ? "  const z : f32 = bitcast<f32>(0x80000000u);\n"
                                    : "  const z : f32 = 0x0p0f;\n";
        }
        module_source(info, abstract, false, in, prefix, src, sizeof src);
        stex_status st = compile_run(src, NULL, 0, got, info->out_words, diag, sizeof diag);
        if (st && !well_formed(diag))
            fail_msg("[%s] %s %s (%s): the compile error is not file:line:col: error: ... "
                     "[rule]:\n%s\n%s", name, op, sig, inputs, diag, src);
        if (st && st != STEX_VALIDATION_ERROR)
            fail_msg("[%s] %s %s (%s): status %d", name, op, sig, inputs, (int)st);
        /* the front end's answer is the math layer's */
        uint32_t in_z[8];
        memcpy(in_z, in, sizeof in_z);
        if (rule == STEX_CONST_TINT)
            zt_args(&zeros, fn, abstract, in_z);
        stex_status rst = stex_math_eval_const(rule, fn, abstract, in_z, ref);
        if (rule == STEX_CONST_TINT && rst == STEX_OK)
            zt_results(&zeros, fn, ref);
        if (dev_err)
            zeros = before;
        if ((st == STEX_OK) != (rst == STEX_OK) ||
            (!st && memcmp(got, ref, info->out_words * 4))) {
            fprintf(stderr, "[%s] %s %s %s (%s): front end %s %08x, stex_math_eval_const "
                    "%s %08x\n%s%s", name, op, sig, srck, inputs, st ? "error" : "value", got[0],
                    rst ? "error" : "value", ref[0], diag, src);
            bad = 1;
        }
        /* the same expression at run time, on the spec profile: the same bits
         * (WGSL's rule; Dawn's front end departs from the run time) */
        if (!st && !abstract && rule == STEX_CONST_WGSL) {
            uint32_t rt[8] = {0};
            module_source(info, false, true, in, "", src, sizeof src);
            if (compile_run(src, in, info->in_words, rt, info->out_words, diag, sizeof diag))
                fail_msg("[%s] %s %s at run time does not compile:\n%s\n%s", name, op, sig, diag,
                         src);
            if (memcmp(rt, got, info->out_words * 4)) {
                fprintf(stderr, "[%s] %s %s (%s): const %08x, run time %08x\n", name, op, sig,
                        inputs, got[0], rt[0]);
                bad = 1;
            }
            runtime_equal++;
        }
        int ok = dev_err ? st != STEX_OK : st == STEX_OK && !memcmp(got, want, (size_t)nout * 4);
        if (ok) {
            exact += !dev_err;
            errors_ok += dev_err;
            continue;
        }
        size_t k;
        int nin = (int)info->in_words;
        stex_status est = st ? STEX_SHADER_ERROR : STEX_OK;
        for (k = rule == STEX_CONST_WGSL ? 0 : NEXC; k < NEXC; k++) /* Tint: none */
            if (explains(&EXCEPTIONS[k], fn, op, sig, srck, in, nin, dev_err, want, nout, est,
                         got))
                break;
        exc_rows[k]++;
        if (k == NEXC || getenv("STEX_CONST_SHOW"))
            fprintf(stderr, "[%s] %s %s %s (%s): Dawn %s, stex %s%08x\n", name, op, sig, srck,
                    inputs, output, st ? diag : "", got[0]);
    }
    gzclose(f);
    printf("[%s, %s rule] const rows through the front end: %u, values bit-exact %u, errors "
           "matched %u; %u values also computed at run time, bit-identical; %u oob_read rows "
           "on literal indices, all as Dawn\n", name, stex_const_rule_name(rule), rows, exact,
           errors_ok, runtime_equal, oob);
    for (size_t k = 0; rule == STEX_CONST_WGSL && k < NEXC; k++) {
        printf("  exception %-12s %-18s %3u rows (at most %u): %s\n", EXCEPTIONS[k].op,
               EXCEPTIONS[k].sig, exc_rows[k], EXCEPTIONS[k].max_rows, EXCEPTIONS[k].why);
        if (exc_rows[k] > EXCEPTIONS[k].max_rows)
            bad = 1;
    }
    if (exc_rows[NEXC]) {
        fprintf(stderr, "[%s] %u const rows differ without a named exception\n", name,
                exc_rows[NEXC]);
        bad = 1;
    }
    assert_false(bad);
}

static int setup(void **state)
{
    (void)state;
    stex_adapter *a;
    dev = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_adapter_destroy(a);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    stex_device_destroy(dev);
    return 0;
}

static void test_lavapipe(void **state)
{
    (void)state;
    replay("lavapipe", STEX_PROFILE_SPEC);
}

static void test_nvidia(void **state)
{
    (void)state;
    replay("nvidia", STEX_PROFILE_SPEC);
}

static void test_lavapipe_tint(void **state)
{
    (void)state;
    replay("lavapipe", STEX_PROFILE_LAVAPIPE);
}

static void test_nvidia_tint(void **state)
{
    (void)state;
    replay("nvidia", STEX_PROFILE_NVIDIA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lavapipe),
        cmocka_unit_test(test_nvidia),
        cmocka_unit_test(test_lavapipe_tint),
        cmocka_unit_test(test_nvidia_tint),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
