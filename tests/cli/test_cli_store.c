/* `stex store`: runs the built command (STEX_BIN) and checks its bytes, its
 * decoded load, its JSON and its usage errors.  Expected bytes come from the
 * spec rules and the conformance measurements, not from the code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <jansson.h>

typedef struct run_result {
    int status;
    char out[8192];
} run_result;

/* Runs `stex ARGS` (stderr folded into the output), with `input` on stdin. */
static run_result run(const char *input, const char *args)
{
    run_result r = {0};
    const char *bin = getenv("STEX_BIN");
    char cmd[2048];
    if (!bin)
        fail_msg("STEX_BIN is not set");
    if (input)
        snprintf(cmd, sizeof cmd, "printf '%s' | '%s' %s 2>&1", input, bin, args);
    else
        snprintf(cmd, sizeof cmd, "'%s' %s 2>&1 </dev/null", bin, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(r.out, 1, sizeof r.out - 1, p);
    r.out[n] = '\0';
    int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

/* One value, the bytes it must store, and the rule that says so. */
typedef struct store_case {
    const char *args;
    const char *bytes;
    const char *why;
} store_case;

static const store_case store_cases[] = {
    {"rgba8unorm 1.5 -0.3 0.5 1", "ff0080ff", "clamp to [0,1]; 127.5 ties to even 128 (spec)"},
    {"--profile nvidia rgba8unorm 0.5 0 0 1", "7f0000ff", "NVIDIA rounds 127.5 half down (nvidia/README)"},
    {"--profile lavapipe rgba8unorm nan 0 0 1", "ff0000ff", "lavapipe NaN -> 255 (measured)"},
    {"rgba8unorm nan 0 0 1", "000000ff", "spec NaN -> 0"},
    {"rgba8snorm -1 -2 1 0", "81817f00", "snorm -1 -> -127, never -128 (seed 001)"},
    {"bgra8unorm 1 0 0.5 1", "8000ffff", "memory order B,G,R,A (measured 80 00 ff ff)"},
    {"--profile lavapipe rgba16float 65519 65520 1e6 -inf", "ff7bff7bff7b00fc", "RTZ saturates at 65504 (lavapipe)"},
    {"rgba16float 65519 65520 1e6 -inf", "ff7b007c007c00fc", "RNE, overflow to inf (spec / seed 001)"},
    {"--bits r32float 0x7f800001", "0100807f", "f32 keeps a signalling NaN's bits"},
    {"rgba8sint 200 -200 5 0", "7f800500", "8-bit integers clamp (WGSL)"},
    {"r32uint 4294967295", "ffffffff", "32-bit integers unchanged"},
    {"rgba16uint 65536 1 2 3", "ffff010002000300", "16-bit clamp"},
    {"r8unorm 0.5", "80", "one channel: 1 byte"},
    {"rg32float 1 2 3 4", "0000803f00000040", "extra channels dropped"},
    {"rgb10a2unorm 1 0 1 1", "ff03f0ff", "packed u32: r | g<<10 | b<<20 | a<<30, little-endian"},
    {"--bits --profile nvidia rgba16float 0x7f800001 0x0 0x0 0x0", "017c000000000000", "NVIDIA keeps a signalling NaN (7c01)"},
    /* fewer values than channels: the rest are 0 */
    {"rgba16float 65520", "007c000000000000", "one value (README's example): inf, then 0, 0, 0"},
    {"rgba8unorm 1 2", "ffff0000", "2 clamps to 1; b and a missing = 0"},
    {"rg32sint -5", "fbffffff00000000", "-5 little-endian, g missing = 0"},
    /* options after the values, and negative values after options */
    {"rgba8unorm 0.5 0 0 1 --profile nvidia", "7f0000ff", "NVIDIA rounds 127.5 half down"},
    {"rgba8snorm --profile lavapipe -1 -0.5 -inf 0", "81c08100", "-1 -> -127; -0.5 -> -64 (RNE)"},
    {"-- r32float -0", "00000080", "after --, -0 keeps its sign bit"},
};

static void test_store_bytes(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof store_cases / sizeof *store_cases; i++) {
        const store_case *c = &store_cases[i];
        char args[256];
        snprintf(args, sizeof args, "store --json %s", c->args);
        run_result r = run(NULL, args);
        json_error_t err;
        json_t *j = json_loads(r.out, 0, &err);
        if (r.status != 0 || !j)
            fail_msg("stex %s: exit %d, output %s", args, r.status, r.out);
        const char *bytes = json_string_value(json_object_get(j, "bytes"));
        if (!bytes || strcmp(bytes, c->bytes))
            fail_msg("stex %s: expected bytes %s (%s), got %s", args, c->bytes, c->why,
                     bytes ? bytes : "(none)");
        json_decref(j);
    }
}

static void test_text_output_and_load(void **state)
{
    (void)state;
    run_result r = run(NULL, "store rgba8unorm 1.5 -0.3 0.5 1");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "ff0080ff"));
    /* textureLoad of 0x80 = 128/255 correctly rounded = 0x3f008081 */
    assert_non_null(strstr(r.out, "3f008081"));
    /* lavapipe decodes k * f32(1/255): 3 reads 0x3c40c0c2 (peer README) */
    r = run(NULL, "store --json --profile lavapipe --bits rgba8unorm 0x3c40c0c1 0x0 0x0 0x0");
    json_t *j = json_loads(r.out, 0, NULL);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "bytes")), "03000000");
    assert_string_equal(json_string_value(json_array_get(json_object_get(j, "load_bits"), 0)),
                        "0x3c40c0c2");
    /* missing channels load as 0, 0, 1 */
    assert_string_equal(json_string_value(json_array_get(json_object_get(j, "load_bits"), 3)),
                        "0x00000000");
    json_decref(j);
    r = run(NULL, "store --json r32uint 7");
    j = json_loads(r.out, 0, NULL);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "load"), 3)), 1);
    json_decref(j);
}

static void test_batch(void **state)
{
    (void)state;
    /* 0.5 under nvidia stores 127; 1.0 255; bare hex allowed on stdin */
    run_result r = run("0x3f000000 0 0 0\\n3f800000 0x3f800000 0 0x3f000000\\n",
                       "store --bits --profile nvidia rgba8unorm");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "7f000000\nffff007f\n");
    r = run("0x3f000000 0 0\\n", "store --bits rgba8unorm");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "line 1"));
}

typedef struct usage_case {
    const char *args;
    const char *message; /* a part of the error text */
} usage_case;

static const usage_case usage_cases[] = {
    {"store nosuchformat 1", "unknown format"},
    {"store nosuchformat 1", "rgba8unorm"}, /* lists the storage formats */
    {"store depth32float 1", "not a storage format"},
    {"store rgba8unorm-srgb 1 1 1 1", "not a storage format"},
    {"store rgba8unorm", "give 1 to 4 values"},
    {"store r32float 1 2 3 4 5", "got 5"},
    {"store rgba8unorm 1 2 x 3", "not a decimal number"},
    {"store --bits r32float 1.0", "0x-prefixed"},
    {"store --bits r32float 0x123456789", "0x-prefixed"},
    {"store r32uint -1", "u32"},
    {"store r32sint 2147483648", "i32"},
    {"store --profile amd r32float 1", "unknown profile"},
    {"store", "missing FORMAT"},
    /* the guide: numbers are decimal, a 0x prefix or a leading zero refused
     * (strtof read 0x3f000000 as 1056964608 and 010 as 10) */
    {"store r32float 0x3f000000", "'0x3f000000' is hex; values are decimal numbers, and a "
                                  "bit pattern needs --bits (stex store --bits r32float 0x3f000000)"},
    {"store rgba8unorm -0X1 0 0 1", "is hex"},
    {"store r32float 010", "'010' has a leading zero"},
    {"store r32uint 010", "'010' has a leading zero"},
    {"store rg32sint 1 -07", "value 1: '-07' has a leading zero"},
};

static void test_usage_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof usage_cases / sizeof *usage_cases; i++) {
        run_result r = run(NULL, usage_cases[i].args);
        if (r.status != 2 || !strstr(r.out, usage_cases[i].message))
            fail_msg("stex %s: expected exit 2 and '%s', got exit %d: %s", usage_cases[i].args,
                     usage_cases[i].message, r.status, r.out);
    }
    run_result r = run(NULL, "store --help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "examples"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_bytes),
        cmocka_unit_test(test_text_output_and_load),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
