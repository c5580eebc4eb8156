/* Hostile run files: every member left out, every wrong JSON type, numbers
 * out of range, deep nesting, huge sizes - each refused with an error that
 * names the member's path and the rule, never a crash, a silent default or
 * an allocation the machine lacks.  Then a stress test: thousands of run
 * files made by breaking a valid one at random, each refused or run within
 * a bounded time and memory, none reaching a file outside its folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include <jansson.h>

#include "stex/stex.h"

static char root[256], dir[300]; /* dir = root/run: the run files' folder */
static stex_adapter *adapter;
static stex_device *device;

/* Parses and executes text (and writes its outputs) under a memory budget;
 * returns the first failing status. */
static stex_status run_text(const char *text)
{
    stex_run_options o = {.max_memory = 64u << 20, .max_steps = 100000};
    stex_run *r = NULL;
    stex_status st = stex_run_parse(text, "run.json", dir, &o, &r);
    if (!st)
        st = stex_run_execute(r, device, &(stex_dispatch_options){.threads = 1});
    if (!st)
        st = stex_run_write_outputs(r);
    stex_run_destroy(r);
    return st;
}

static void expect(const char *text, stex_status want, const char *message)
{
    stex_status st = run_text(text);
    if (st != want || !strstr(stex_last_error(), message))
        fail_msg("status %d (want %d), message: %s\nwanted: %s\nrun file: %s", st, want,
                 st ? stex_last_error() : "(none)", message, text);
}

#define BUFS "\"buffers\": {\"a\": {\"size\": 16, \"usage\": [\"COPY_SRC\", \"COPY_DST\"]}, " \
             "\"b\": {\"size\": 16, \"usage\": [\"COPY_SRC\", \"COPY_DST\"]}}"
#define TEX "\"textures\": {\"t\": {\"size\": [2, 2], \"format\": \"r32uint\", " \
            "\"usage\": [\"COPY_SRC\", \"COPY_DST\"]}}"

/* A required member left out: "<object's path>: missing member 'x'" (it
 * crashed in the JSON reader for an object member). */
static void test_missing_members(void **state)
{
    (void)state;
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"{" BUFS ", \"steps\": [{\"clearBuffer\": {\"buffer\": \"a\"}}, {\"clearBuffer\": {\"buffer\": \"b\"}},"
         " {\"copyBufferToBuffer\": {\"source\": \"a\", \"size\": 4}}]}",
         "run.json: $.steps[2].copyBufferToBuffer: missing member 'destination'"},
        {"{" BUFS ", \"steps\": [{\"copyBufferToBuffer\": {\"destination\": \"a\", \"size\": 4}}]}",
         "$.steps[0].copyBufferToBuffer: missing member 'source'"},
        {"{" BUFS ", \"steps\": [{\"copyBufferToBuffer\": {\"source\": \"a\", \"destination\": \"b\"}}]}",
         "$.steps[0].copyBufferToBuffer: missing member 'size'"},
        {"{" BUFS ", " TEX ", \"steps\": [{\"copyBufferToTexture\": {\"source\": {\"buffer\": \"a\"}, \"copySize\": [1]}}]}",
         "$.steps[0].copyBufferToTexture: missing member 'destination'"},
        {"{" BUFS ", " TEX ", \"steps\": [{\"copyBufferToTexture\": {\"destination\": {\"texture\": \"t\"}, \"copySize\": [1]}}]}",
         "$.steps[0].copyBufferToTexture: missing member 'source'"},
        {"{" BUFS ", " TEX ", \"steps\": [{\"copyTextureToBuffer\": {\"destination\": {\"buffer\": \"a\"}, \"copySize\": [1]}}]}",
         "$.steps[0].copyTextureToBuffer: missing member 'source'"},
        {"{" BUFS ", " TEX ", \"steps\": [{\"copyTextureToBuffer\": {\"source\": {\"texture\": \"t\"}, \"destination\": {\"buffer\": \"a\"}}}]}",
         "$.steps[0].copyTextureToBuffer: missing member 'copySize'"},
        {"{" BUFS ", " TEX ", \"steps\": [{\"copyTextureToBuffer\": {\"source\": {}, \"destination\": {\"buffer\": \"a\"}, \"copySize\": [1]}}]}",
         "$.steps[0].copyTextureToBuffer.source: missing member 'texture'"},
        {"{" TEX ", \"steps\": [{\"writeTexture\": {\"data\": {\"u32\": [1]}, \"size\": [1]}}]}",
         "$.steps[0].writeTexture: missing member 'destination'"},
        {"{" TEX ", \"steps\": [{\"writeTexture\": {\"destination\": {\"texture\": \"t\"}, \"size\": [1]}}]}",
         "$.steps[0].writeTexture: missing member 'data'"},
        {"{" BUFS ", \"steps\": [{\"writeBuffer\": {\"buffer\": \"a\"}}]}",
         "$.steps[0].writeBuffer: missing member 'data'"},
        {"{" BUFS ", \"steps\": [{\"writeBuffer\": {\"data\": {\"u32\": [1]}}}]}",
         "$.steps[0].writeBuffer: missing member 'buffer'"},
        {"{" BUFS ", \"steps\": [{\"clearBuffer\": {}}]}", "$.steps[0].clearBuffer: missing member 'buffer'"},
        {"{\"steps\": [{\"dispatchWorkgroups\": {\"workgroupCount\": [1]}}]}",
         "$.steps[0].dispatchWorkgroups: missing member 'pipeline'"},
        {"{\"textures\": {\"t\": {\"format\": \"r32uint\", \"usage\": 1}}}", "$.textures.t: missing member 'size'"},
        {"{\"textures\": {\"t\": {\"size\": [1], \"usage\": 1}}}", "$.textures.t: missing member 'format'"},
        {"{\"textures\": {\"t\": {\"size\": [1], \"format\": \"r32uint\"}}}", "$.textures.t: missing member 'usage'"},
        {"{\"buffers\": {\"b\": {\"usage\": 8}}}", "$.buffers.b: missing member 'size'"},
        {"{\"views\": {\"v\": {}}}", "$.views.v: missing member 'texture'"},
        {"{\"shaderModules\": {\"m\": {}}}", "$.shaderModules.m: give the WGSL as 'code' or 'file'"},
        {"{\"shaderModules\": {\"m\": {\"code\": \"@compute @workgroup_size(1) fn f() {}\"}},"
         " \"pipelines\": {\"p\": {\"layout\": \"auto\"}}}", "$.pipelines.p: missing member 'compute'"},
        {"{\"shaderModules\": {\"m\": {\"code\": \"@compute @workgroup_size(1) fn f() {}\"}},"
         " \"pipelines\": {\"p\": {\"layout\": {}, \"compute\": {\"module\": \"m\"}}}}",
         "$.pipelines.p.layout: missing member 'bindGroupLayouts'"},
        {"{\"shaderModules\": {\"m\": {\"code\": \"@compute @workgroup_size(1) fn f() {}\"}},"
         " \"pipelines\": {\"p\": {\"layout\": {\"bindGroupLayouts\": [{}]}, \"compute\": {\"module\": \"m\"}}}}",
         "$.pipelines.p.layout.bindGroupLayouts[0]: missing member 'entries'"},
        {"{\"shaderModules\": {\"m\": {\"code\": \"@compute @workgroup_size(1) fn f() {}\"}},"
         " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},"
         " \"bindGroups\": {\"g\": {\"entries\": []}}}", "$.bindGroups.g: missing member 'layout'"},
        {"{\"shaderModules\": {\"m\": {\"code\": \"@compute @workgroup_size(1) fn f() {}\"}},"
         " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},"
         " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\"}}}}", "$.bindGroups.g: missing member 'entries'"},
        {"{\"bindGroups\": {\"g weird\": {\"entries\": []}}}", "$.bindGroups[\"g weird\"]: missing member 'layout'"},
        {"{" TEX ", \"outputs\": [{\"texture\": \"t\"}]}", "$.outputs[0]: give 'file' or 'files'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        expect(cases[i].text, STEX_FILE_FORMAT_ERROR, cases[i].message);
}

/* A value of the wrong JSON type where an object, list, string or number
 * belongs: named, with what was found. */
static void test_wrong_types(void **state)
{
    (void)state;
    expect("{" BUFS ", " TEX ", \"steps\": [{\"copyBufferToTexture\": {\"source\": {\"buffer\": \"a\"}, \"destination\": \"t\", \"copySize\": [1]}}]}",
           STEX_FILE_FORMAT_ERROR, "$.steps[0].copyBufferToTexture.destination: expected an object, found a string");
    expect("{" BUFS ", " TEX ", \"steps\": [{\"copyBufferToTexture\": {\"source\": null, \"destination\": {\"texture\": \"t\"}, \"copySize\": [1]}}]}",
           STEX_FILE_FORMAT_ERROR, "$.steps[0].copyBufferToTexture.source: expected an object, found null");
    expect("{" BUFS ", \"steps\": [{\"writeBuffer\": {\"buffer\": \"a\", \"data\": [1, 2]}}]}",
           STEX_FILE_FORMAT_ERROR, "$.steps[0].writeBuffer.data: expected an object, found a list");
    expect("{" BUFS ", \"steps\": [{\"copyBufferToBuffer\": {\"source\": {}, \"destination\": \"b\", \"size\": 4}}]}",
           STEX_FILE_FORMAT_ERROR, "$.steps[0].copyBufferToBuffer.source: expected a string, found an object");
    expect("{\"buffers\": {\"b\": {\"size\": -16, \"usage\": 8}}}", STEX_FILE_FORMAT_ERROR,
           "$.buffers.b.size: expected a whole number >= 0, found an integer");
    expect("{\"buffers\": {\"b\": {\"size\": 1.5, \"usage\": 8}}}", STEX_FILE_FORMAT_ERROR,
           "$.buffers.b.size: expected a whole number >= 0, found a number");
    expect("{\"buffers\": {\"b\": {\"size\": true, \"usage\": 8}}}", STEX_FILE_FORMAT_ERROR,
           "$.buffers.b.size: expected a whole number >= 0, found a boolean");
    expect("{\"textures\": {\"t\": {\"size\": [4294967296], \"format\": \"r32uint\", \"usage\": 1}}}",
           STEX_FILE_FORMAT_ERROR, "$.textures.t.size[0]: expected a whole number in [0, 2^32)");
    expect("{\"textures\": {\"t\": {\"size\": [1], \"format\": \"r32uint\", \"usage\": 1, \"mipLevelCount\": 4294967296}}}",
           STEX_FILE_FORMAT_ERROR, "$.textures.t.mipLevelCount: 4294967296 does not fit in 32 bits");
    expect("{\"steps\": {}}", STEX_FILE_FORMAT_ERROR, "$.steps: expected a list, found an object");
    expect("{\"steps\": [7]}", STEX_FILE_FORMAT_ERROR, "$.steps[0]: expected an object, found an integer");
    expect("{\"steps\": [{}]}", STEX_FILE_FORMAT_ERROR, "$.steps[0]: expected one command");
    expect("[]", STEX_FILE_FORMAT_ERROR, "$: expected an object, found a list");
    /* an output of a mip level the texture lacks (was "size 0x1x1 has a zero dimension") */
    expect("{" TEX ", \"outputs\": [{\"texture\": \"t\", \"mipLevel\": 1, \"file\": \"m.npy\"}]}",
           STEX_VALIDATION_ERROR, "$.outputs[0]: mipLevel 1: texture 't' has 1 mip level");
    /* a clamp that overflows the WebIDL float is a TypeError */
    expect("{\"samplers\": {\"s\": {\"lodMaxClamp\": 1e300}}}", STEX_TYPE_ERROR,
           "$.samplers.s: lodMaxClamp: 1e+300 is not a finite float");
    /* a texel value wider than its 32-bit channel is refused, not wrapped */
    expect("{\"textures\": {\"t\": {\"size\": [1], \"format\": \"r32uint\", \"usage\": [\"COPY_DST\"], \"contents\": {\"fill\": 4294967296}}}}",
           STEX_FILE_FORMAT_ERROR, "$.textures.t.contents.fill: expected whole numbers in [0, 2^32) for r32uint");
    expect("{\"textures\": {\"t\": {\"size\": [1], \"format\": \"r32uint\", \"usage\": [\"COPY_DST\"], \"contents\": {\"fill\": -1}}}}",
           STEX_FILE_FORMAT_ERROR, "$.textures.t.contents.fill: expected whole numbers in [0, 2^32)");
    expect("{\"textures\": {\"t\": {\"size\": [1], \"format\": \"r32sint\", \"usage\": [\"COPY_DST\"], \"contents\": {\"fill\": 2147483648}}}}",
           STEX_FILE_FORMAT_ERROR, "$.textures.t.contents.fill: expected whole numbers in [-2^31, 2^31) for r32sint");
}

/* The JSON itself: numbers past 64 bits, duplicate names, nesting deeper
 * than the parser's limit - malformed JSON with its line and column. */
static void test_json_limits(void **state)
{
    (void)state;
    expect("{\"buffers\": {\"b\": {\"size\": 99999999999999999999999, \"usage\": 8}}}",
           STEX_FILE_FORMAT_ERROR, "malformed JSON: too big integer");
    expect("{\"buffers\": {\"b\": {\"size\": 1e999, \"usage\": 8}}}", STEX_FILE_FORMAT_ERROR,
           "malformed JSON: real number overflow");
    expect("{\"buffers\": {\"b\": {\"size\": 4, \"usage\": 8}, \"b\": {\"size\": 8, \"usage\": 8}}}",
           STEX_FILE_FORMAT_ERROR, "malformed JSON: duplicate object key");
    /* 2^53 + 1: exact as a JSON integer, past maxBufferSize */
    expect("{\"buffers\": {\"b\": {\"size\": 9007199254740993, \"usage\": 8}}}", STEX_VALIDATION_ERROR,
           "$.buffers.b: createBuffer: size 9007199254740993 exceeds maxBufferSize");
    /* 100,000 nested lists: the parser's depth limit, not the stack */
    enum { DEEP = 100000 };
    char *deep = malloc(2 * DEEP + 64);
    if (!deep)
        abort();
    size_t n = (size_t)sprintf(deep, "{\"description\": ");
    memset(deep + n, '[', DEEP);
    memset(deep + n + DEEP, ']', DEEP);
    strcpy(deep + n + 2 * DEEP, "}");
    expect(deep, STEX_FILE_FORMAT_ERROR, "malformed JSON: maximum parsing depth reached");
    free(deep);
    /* a description of 10 MB is only text */
    enum { LONG = 10 << 20 };
    char *text = malloc(LONG + 64);
    if (!text)
        abort();
    n = (size_t)sprintf(text, "{\"description\": \"");
    memset(text + n, 'x', LONG);
    strcpy(text + n + LONG, "\"}");
    assert_int_equal(run_text(text), STEX_OK);
    free(text);
}

/* Sizes WebGPU's limits refuse are validation errors; a texture inside the
 * limits but past the run's memory (here 64 MiB) is out of memory, refused
 * before anything is allocated. */
static void test_huge_sizes(void **state)
{
    (void)state;
    expect("{\"buffers\": {\"b\": {\"size\": 1099511627776, \"usage\": 8}}}", STEX_VALIDATION_ERROR,
           "$.buffers.b: createBuffer: size 1099511627776 exceeds maxBufferSize");
    expect("{\"textures\": {\"t\": {\"size\": [16384, 16384], \"format\": \"rgba32float\", \"usage\": 1}}}",
           STEX_VALIDATION_ERROR, "maxTextureDimension2D");
    expect("{\"textures\": {\"t\": {\"size\": [8192, 8192, 256], \"format\": \"rgba32float\", \"usage\": [\"COPY_DST\"],"
           " \"contents\": {\"fill\": 1}}}}", STEX_OUT_OF_MEMORY,
           "$.textures.t: createTexture: 274877906944 bytes, with the 0 its resources take already, "
           "exceed the run's memory (67108864 bytes");
    expect("{\"textures\": {\"t\": {\"size\": [2048, 2048, 2048], \"dimension\": \"3d\", \"format\": \"rgba32float\", \"usage\": 1}}}",
           STEX_OUT_OF_MEMORY, "$.textures.t: createTexture: ");
    /* the budget counts every resource: 4 x 16 MiB fit, a fifth does not */
    expect("{\"buffers\": {\"a\": {\"size\": 16777216, \"usage\": 8}, \"b\": {\"size\": 16777216, \"usage\": 8},"
           " \"c\": {\"size\": 16777216, \"usage\": 8}, \"d\": {\"size\": 16777216, \"usage\": 8},"
           " \"e\": {\"size\": 16, \"usage\": 8}}}", STEX_OUT_OF_MEMORY,
           "$.buffers.e: createBuffer: 16 bytes, with the 67108864 its resources take already");
    /* a buffer refused by its usage is a validation error before the budget */
    expect("{\"buffers\": {\"b\": {\"size\": 1099511627776, \"usage\": 0}}}", STEX_VALIDATION_ERROR,
           "usage must not be 0");
}

/* ---- the stress test ---- */

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

/* A valid run file that uses every section and every command. */
static const char BASE[] =
    "{\"description\": \"base\","
    " \"shaderModules\": {\"m\": {\"code\": \"@group(0) @binding(0) var t: texture_storage_2d<r32uint, write>;\\n"
    "@group(0) @binding(1) var<storage, read_write> o: array<u32>;\\n"
    "@compute @workgroup_size(2, 2) fn main(@builtin(global_invocation_id) g: vec3u) {\\n"
    "  textureStore(t, g.xy, vec4u(g.x + g.y * 4u));\\n  o[g.x] = g.y;\\n}\\n\"},"
    "   \"w\": {\"file\": \"inside.wgsl\"}},"
    " \"textures\": {\"t\": {\"size\": [4, 4], \"format\": \"r32uint\","
    "   \"usage\": [\"STORAGE_BINDING\", \"COPY_SRC\", \"COPY_DST\", \"TEXTURE_BINDING\"],"
    "   \"contents\": {\"fill\": 3}},"
    "  \"s\": {\"size\": [4, 4, 2], \"format\": \"rgba8unorm\", \"mipLevelCount\": 2,"
    "   \"usage\": [\"COPY_DST\", \"TEXTURE_BINDING\"], \"contents\": [{\"file\": \"inside.bin\"}, null]}},"
    " \"buffers\": {\"o\": {\"size\": 64, \"usage\": [\"STORAGE\", \"COPY_SRC\", \"COPY_DST\"],"
    "   \"contents\": {\"u32\": [1, 2, 3]}},"
    "  \"r\": {\"size\": 256, \"usage\": [\"COPY_SRC\", \"COPY_DST\"], \"contents\": {\"hex\": \"00ff\"}}},"
    " \"samplers\": {\"smp\": {\"magFilter\": \"linear\", \"lodMaxClamp\": 4}},"
    " \"views\": {\"v\": {\"texture\": \"t\"}, \"vs\": {\"texture\": \"s\", \"dimension\": \"2d-array\"}},"
    " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\", \"entryPoint\": \"main\"}},"
    "  \"q\": {\"layout\": {\"bindGroupLayouts\": [{\"entries\": ["
    "    {\"binding\": 0, \"visibility\": [\"COMPUTE\"], \"buffer\": {\"type\": \"storage\"}}]}]},"
    "   \"compute\": {\"module\": \"w\", \"constants\": {\"k\": 2}}}},"
    " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\", \"group\": 0}, \"entries\": ["
    "   {\"binding\": 0, \"resource\": \"v\"}, {\"binding\": 1, \"resource\": {\"buffer\": \"o\", \"offset\": 0, \"size\": 64}}]},"
    "  \"h\": {\"layout\": {\"pipeline\": \"q\"}, \"entries\": [{\"binding\": 0, \"resource\": {\"buffer\": \"o\"}}]}},"
    " \"steps\": ["
    "  {\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"], \"workgroupCount\": [2, 2], \"repeat\": 2}},"
    "  {\"dispatchWorkgroups\": {\"pipeline\": \"q\", \"bindGroups\": [{\"group\": \"h\", \"dynamicOffsets\": []}], \"workgroupCount\": [1]}},"
    "  {\"writeBuffer\": {\"buffer\": \"r\", \"bufferOffset\": 4, \"data\": {\"f32\": [1.5, \"nan\"]}}},"
    "  {\"writeTexture\": {\"destination\": {\"texture\": \"t\", \"origin\": [1, 1]}, \"data\": {\"u32\": [9]},"
    "    \"dataLayout\": {\"bytesPerRow\": 4}, \"size\": [1, 1]}},"
    "  {\"copyBufferToBuffer\": {\"source\": \"o\", \"sourceOffset\": 0, \"destination\": \"r\", \"destinationOffset\": 16, \"size\": 16}},"
    "  {\"copyTextureToBuffer\": {\"source\": {\"texture\": \"t\", \"mipLevel\": 0}, \"destination\": {\"buffer\": \"r\", \"bytesPerRow\": 256},"
    "    \"copySize\": [4, 1]}},"
    "  {\"copyBufferToTexture\": {\"source\": {\"buffer\": \"r\", \"offset\": 0, \"bytesPerRow\": 256}, \"destination\": {\"texture\": \"t\"},"
    "    \"copySize\": [2, 1, 1]}},"
    "  {\"clearBuffer\": {\"buffer\": \"r\", \"offset\": 8, \"size\": 8}}],"
    " \"outputs\": [{\"texture\": \"t\", \"files\": [\"out.bin\", \"out.png\"]},"
    "  {\"buffer\": \"o\", \"format\": \"r32uint\", \"size\": [4, 4], \"offset\": 0, \"file\": \"o.npy\"}]}";

/* What a value is replaced with: every JSON type, edge numbers, long and
 * tricky strings, deep nesting, names that lead out of the folder. */
static json_t *hostile_value(void)
{
    static const char *const paths[] = {"../secret.bin", "/etc/passwd", "a/../../secret.bin",
                                        "link/secret.bin", "", ".", "..", "sub/",
                                        "../run/../secret.bin", "out.bin/x.bin"};
    switch (rnd(17)) {
    case 0: return json_null();
    case 1: return json_true();
    case 2: return json_integer(-1);
    case 3: return json_real(1.5);
    case 4: return json_integer((json_int_t)1 << 53 | 1);
    case 5: return json_integer(INT64_MAX);
    case 6: return json_integer(4294967296);
    case 7: return json_real(1e308);
    case 8: return json_array();
    case 9: return json_object();
    case 10: return json_string(paths[rnd(sizeof paths / sizeof *paths)]);
    case 11: {
        char s[4097];
        memset(s, 'a' + (int)rnd(26), sizeof s - 1);
        s[sizeof s - 1] = '\0';
        return json_string(s);
    }
    case 12: { /* nested lists, deep but inside the parser's limit */
        json_t *v = json_integer(1);
        for (uint32_t i = 0, n = 1 + rnd(1500); i < n; i++) {
            json_t *a = json_array();
            json_array_append_new(a, v);
            v = a;
        }
        return v;
    }
    case 13: { /* a size inside WebGPU's limits, huge in bytes */
        json_t *a = json_array();
        json_array_append_new(a, json_integer(8192));
        json_array_append_new(a, json_integer(8192));
        json_array_append_new(a, json_integer(1 + rnd(256)));
        return a;
    }
    case 14: return json_integer((json_int_t)1 << 40);
    case 15: return json_string(rnd(2) ? "rgba32float" : "depth24plus-stencil8");
    default: return json_integer(rnd(70000));
    }
}

/* Where the workload itself would be the attack - a dispatch's count and
 * repeats - small values only: long work is the watchdog's (--timeout). */
static bool is_workload(const char *key)
{
    return !strcmp(key, "workgroupCount") || !strcmp(key, "repeat");
}

/* One random change somewhere under v: a member removed, a value replaced,
 * a list entry dropped or a key renamed. */
static void mutate(json_t *v, int depth)
{
    if (json_is_object(v) && json_object_size(v)) {
        size_t k = rnd((uint32_t)json_object_size(v)), i = 0;
        const char *key;
        json_t *child;
        void *tmp;
        json_object_foreach_safe(v, tmp, key, child) {
            if (i++ != k)
                continue;
            uint32_t what = rnd(depth < 2 ? 6 : 8);
            if ((json_is_object(child) || json_is_array(child)) && what < 4) {
                mutate(child, depth + 1);
            } else if (what == 4) {
                json_object_del(v, key);
            } else if (what == 5) {
                char renamed[64];
                snprintf(renamed, sizeof renamed, "%.40s_", key);
                json_object_set(v, renamed, child);
                json_object_del(v, key);
            } else if (is_workload(key)) {
                json_object_set_new(v, key, rnd(2) ? json_integer(65536) : json_string("x"));
            } else {
                json_object_set_new(v, key, hostile_value());
            }
            return;
        }
    }
    if (json_is_array(v) && json_array_size(v)) {
        size_t i = rnd((uint32_t)json_array_size(v));
        json_t *child = json_array_get(v, i);
        uint32_t what = rnd(6);
        if ((json_is_object(child) || json_is_array(child)) && what < 3)
            mutate(child, depth + 1);
        else if (what == 3)
            json_array_remove(v, i);
        else if (what == 4)
            json_array_append(v, child);
        else
            json_array_set_new(v, i, hostile_value());
    }
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* Files outside the run files' folder besides the secret (the folder
 * "link" points at included). */
static int outside_entries(void)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "find '%s' -mindepth 1 -path '%s/run' -prune -o -print | "
             "grep -v -x -e '%s/secret.bin' -e '%s/link-target' | wc -l", root, root, root, root);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p && fscanf(p, "%d", &n) != 1)
        n = -1;
    if (p)
        pclose(p);
    return n;
}

static void test_stress(void **state)
{
    (void)state;
    int count = getenv("STEX_STRESS_COUNT") ? atoi(getenv("STEX_STRESS_COUNT")) : 5000;
    json_t *base = json_loads(BASE, 0, NULL);
    assert_non_null(base);
    assert_int_equal(run_text(BASE), STEX_OK); /* the base itself runs */
    int refused = 0, ran = 0;
    double worst = 0, t0 = (double)clock() / CLOCKS_PER_SEC;
    for (int i = 0; i < count; i++) {
        rng_state = (uint64_t)i * 0x9e3779b97f4a7c15ull + 1;
        json_t *v = json_deep_copy(base);
        for (uint32_t k = 0, n = 1 + rnd(3); k < n; k++)
            mutate(v, 0);
        char *text = json_dumps(v, JSON_COMPACT);
        json_decref(v);
        assert_non_null(text);
        double t = (double)clock() / CLOCKS_PER_SEC;
        stex_status st = run_text(text);
        t = (double)clock() / CLOCKS_PER_SEC - t;
        worst = t > worst ? t : worst;
        if (st) {
            refused++;
            const char *e = stex_last_error();
            /* every refusal names the file; a JSON one names the place */
            if (strncmp(e, "run.json: ", 10) && !strstr(e, "createShaderModule"))
                fail_msg("case %d: message without the run file's name: %s\n%s", i, e, text);
        } else {
            ran++;
        }
        if (t > 5.0)
            fail_msg("case %d took %.1f s:\n%s", i, t, text);
        free(text);
    }
    /* nothing outside the folder was written, and the secret is intact */
    char path[400];
    snprintf(path, sizeof path, "%s/secret.bin", root);
    assert_string_equal(slurp(path), "SECRET");
    assert_int_equal(outside_entries(), 0);
    json_decref(base);
    print_message("%d hostile run files: %d refused, %d ran; %.1f s CPU, slowest %.3f s\n", count,
                  refused, ran, (double)clock() / CLOCKS_PER_SEC - t0, worst);
    assert_true(refused > count / 2 && ran > 0);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/stex_hostile_XXXXXX");
    if (!mkdtemp(root))
        return 1;
    char path[400];
    snprintf(dir, sizeof dir, "%s/run", root);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/secret.bin", root);
    put(path, "SECRET");
    snprintf(path, sizeof path, "%s/link-target", root);
    mkdir(path, 0755);
    char link[400];
    snprintf(link, sizeof link, "%s/link", dir);
    if (symlink(path, link) != 0)
        return 1;
    snprintf(path, sizeof path, "%s/inside.wgsl", dir);
    put(path, "override k: u32 = 1;\n@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
              "@compute @workgroup_size(1) fn main() { o[0] = k; }\n");
    snprintf(path, sizeof path, "%s/inside.bin", dir);
    static char texels[4 * 4 * 2 * 4];
    memset(texels, 7, sizeof texels);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(texels, 1, sizeof texels, f) != sizeof texels)
        return 1;
    fclose(f);
    if (stex_adapter_create(NULL, &adapter) || stex_device_create(adapter, NULL, &device))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_members),
        cmocka_unit_test(test_wrong_types),
        cmocka_unit_test(test_json_limits),
        cmocka_unit_test(test_huge_sizes),
        cmocka_unit_test(test_stress),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    stex_device_destroy(device);
    stex_adapter_destroy(adapter);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
