/* A fuzz target over the WGSL front end: any bytes as a module (parse,
 * check, lower), every entry point's pipeline, and a bounded run of one
 * workgroup of each entry point that binds nothing.  Built two ways:
 * with libFuzzer (tools/fuzz-wgsl.sh, clang -fsanitize=fuzzer,...), and as a
 * plain program that replays a corpus folder (the `fuzz_wgsl_corpus` test,
 * under ASan/UBSan in CI).  Any crash, leak or sanitizer report is a bug;
 * a refused module is the expected outcome of most inputs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stex/stex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static stex_device *device(void)
{
    static stex_adapter *a;
    static stex_device *d;
    if (!d && !stex_adapter_create(NULL, &a))
        stex_device_create(a, NULL, &d);
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *src = malloc(size + 1);
    if (!src)
        return 0;
    memcpy(src, data, size);
    src[size] = '\0';
    stex_wgsl_module *m = NULL;
    if (stex_wgsl_module_create(src, "fuzz.wgsl", &m) == STEX_OK && m) {
        for (uint32_t i = 0; i < stex_wgsl_entry_point_count(m); i++) {
            const stex_wgsl_entry_point *ep = stex_wgsl_entry_point_at(m, i);
            stex_wgsl_options o = {.subgroup_width = 8, .max_steps = 20000};
            stex_pipeline *p = NULL;
            if (!device() || stex_wgsl_pipeline_create(device(), m, ep->name, &o, &p))
                continue;
            stex_bind_group *g = NULL;
            stex_dispatch_options d = {.threads = 1};
            if (ep->entry_count == 0 && !stex_bind_group_create(p, NULL, 0, &g))
                (void)stex_dispatch(p, g, 1, 1, 1, &d); /* a shader error is fine */
            stex_bind_group_destroy(g);
            stex_pipeline_destroy(p);
        }
    }
    stex_wgsl_module_destroy(m);
    free(src);
    return 0;
}
