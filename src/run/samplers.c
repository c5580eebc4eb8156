/* "samplers": GPUSamplerDescriptor entries. */
#include <math.h>

#include "run/names.h"
#include "run/run_internal.h"

static stex_status create_one(stex_run *r, const char *name, const json_t *d, const char *path)
{
    static const char *const members[] = {"addressModeU", "addressModeV", "addressModeW",
                                          "magFilter", "minFilter", "mipmapFilter", "lodMinClamp",
                                          "lodMaxClamp", "compare", "maxAnisotropy", "label",
                                          NULL};
    int u = 0, v = 0, w = 0, mag = 0, min = 0, mip = 0, cmp = 0;
    uint32_t aniso = 1;
    double lo = 0, hi = 32;
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_enum(r, d, path, "addressModeU", "GPUAddressMode", RUN_ADDRESS_MODES, &u)) ||
        (st = run_get_enum(r, d, path, "addressModeV", "GPUAddressMode", RUN_ADDRESS_MODES, &v)) ||
        (st = run_get_enum(r, d, path, "addressModeW", "GPUAddressMode", RUN_ADDRESS_MODES, &w)) ||
        (st = run_get_enum(r, d, path, "magFilter", "GPUFilterMode", RUN_FILTERS, &mag)) ||
        (st = run_get_enum(r, d, path, "minFilter", "GPUFilterMode", RUN_FILTERS, &min)) ||
        (st = run_get_enum(r, d, path, "mipmapFilter", "GPUMipmapFilterMode", RUN_FILTERS, &mip)) ||
        (st = run_get_number(r, d, path, "lodMinClamp", &lo)) ||
        (st = run_get_number(r, d, path, "lodMaxClamp", &hi)) ||
        (st = run_get_enum(r, d, path, "compare", "GPUCompareFunction", RUN_COMPARE_FUNCTIONS,
                           &cmp)) ||
        (st = run_get_u32(r, d, path, "maxAnisotropy", false, &aniso)))
        return st;
    if (cmp == STEX_COMPARE_UNDEFINED && json_object_get(d, "compare"))
        return run_fail(r, STEX_FILE_FORMAT_ERROR, path, "compare: \"undefined\" is not a "
                        "GPUCompareFunction (leave the member out for a plain sampler)");
    /* GPUSamplerDescriptor's clamps are WebIDL floats: a number that is
     * infinite as an f32 is a TypeError, not a clamp of +inf */
    if (!isfinite((float)lo) || !isfinite((float)hi))
        return run_fail(r, STEX_TYPE_ERROR, path, "%s: %g is not a finite float",
                        !isfinite((float)lo) ? "lodMinClamp" : "lodMaxClamp",
                        !isfinite((float)lo) ? lo : hi);
    if (aniso == 0)
        return run_fail(r, STEX_VALIDATION_ERROR, path, "maxAnisotropy: must be at least 1");
    stex_sampler_desc sd = {(stex_address_mode)u, (stex_address_mode)v, (stex_address_mode)w,
                            (stex_filter_mode)mag, (stex_filter_mode)min, (stex_filter_mode)mip,
                            (float)lo, (float)hi, STEX_FILTER_PRECISION_AUTO,
                            (stex_compare_function)cmp, aniso};
    stex_sampler *s;
    if ((st = stex_sampler_create(r->device, &sd, &s)))
        return run_wrap(r, st, path);
    if ((st = run_table_add(&r->samplers, name, s)))
        stex_sampler_destroy(s);
    return st;
}

stex_status run_create_samplers(stex_run *r)
{
    const char *name;
    json_t *d;
    json_object_foreach(json_object_get(r->root, "samplers"), name, d) {
        char p[RUN_PATH_MAX];
        run_path_key(p, "$.samplers", name);
        stex_status st = create_one(r, name, d, p);
        if (st)
            return st;
    }
    return STEX_OK;
}
