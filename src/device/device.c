/* Adapters and devices: features, WGSL language features, limits, profile. */
#include "device/device_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/error.h"

stex_limits stex_limits_default(void)
{
    stex_limits l = {
#define DEFAULT_(name, dflt) .name = (dflt),
        STEX_LIMITS(DEFAULT_)
        STEX_ALIGNMENT_LIMITS(DEFAULT_)
#undef DEFAULT_
    };
    return l;
}

uint32_t stex_features_close(uint32_t f)
{
    /* WebGPU: enabling texture-formats-tier2 enables tier1, and tier1
     * enables rg11b10ufloat-renderable. */
    if (f & STEX_FEATURE_TEXTURE_FORMATS_TIER2)
        f |= STEX_FEATURE_TEXTURE_FORMATS_TIER1;
    if (f & STEX_FEATURE_TEXTURE_FORMATS_TIER1)
        f |= STEX_FEATURE_RG11B10UFLOAT_RENDERABLE;
    return f;
}

/* Lists the bits of `mask` as comma-separated WebGPU names into buf. */
static const char *feature_list(uint32_t mask, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < STEX_FEATURE_COUNT; i++) {
        if (!(mask & (1u << i)))
            continue;
        int w = snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
                         stex_feature_name((stex_feature)(1u << i)));
        if (w < 0 || (size_t)w >= size - n)
            break;
        n += (size_t)w;
    }
    return buf;
}

static uint64_t max3(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t m = a > b ? a : b;
    return m > c ? m : c;
}

/* WebGPU's "a new device" steps: the all-stages storage limits are at least
 * the vertex and fragment ones, and a core device (core-features-and-limits)
 * has vertex and fragment limits equal to the all-stages ones. */
static void normalize_stage_limits(stex_limits *l, bool core)
{
    l->max_storage_buffers_per_shader_stage = max3(l->max_storage_buffers_per_shader_stage,
                                                   l->max_storage_buffers_in_vertex_stage,
                                                   l->max_storage_buffers_in_fragment_stage);
    l->max_storage_textures_per_shader_stage = max3(l->max_storage_textures_per_shader_stage,
                                                    l->max_storage_textures_in_vertex_stage,
                                                    l->max_storage_textures_in_fragment_stage);
    if (!core)
        return;
    l->max_storage_buffers_in_vertex_stage = l->max_storage_buffers_per_shader_stage;
    l->max_storage_buffers_in_fragment_stage = l->max_storage_buffers_per_shader_stage;
    l->max_storage_textures_in_vertex_stage = l->max_storage_textures_per_shader_stage;
    l->max_storage_textures_in_fragment_stage = l->max_storage_textures_per_shader_stage;
}

stex_adapter_desc stex_adapter_desc_default(void)
{
    stex_adapter_desc d = {
        .features = STEX_FEATURE_ALL,
        .language_features = STEX_LANGUAGE_FEATURE_ALL,
        .limits = stex_limits_default(),
        .profile = STEX_PROFILE_SPEC,
    };
    return d;
}

/* The optional features Dawn's adapter listed on each measured device
 * (../shared/conformance/{lavapipe,nvidia}/info.json, adapter_features),
 * as far as stex knows the names. */
static const uint32_t MEASURED_COMMON =
    STEX_FEATURE_BGRA8UNORM_STORAGE | STEX_FEATURE_RG11B10UFLOAT_RENDERABLE |
    STEX_FEATURE_FLOAT32_FILTERABLE | STEX_FEATURE_FLOAT32_BLENDABLE |
    STEX_FEATURE_TEXTURE_COMPRESSION_BC | STEX_FEATURE_DEPTH32FLOAT_STENCIL8 |
    STEX_FEATURE_CORE_FEATURES_AND_LIMITS | STEX_FEATURE_SUBGROUPS;

stex_adapter_desc stex_adapter_desc_for_profile(stex_profile_id profile)
{
    stex_adapter_desc d = stex_adapter_desc_default();
    d.profile = profile;
    if (profile == STEX_PROFILE_LAVAPIPE)
        d.features = MEASURED_COMMON | STEX_FEATURE_SHADER_F16;
    else if (profile == STEX_PROFILE_NVIDIA)
        d.features = MEASURED_COMMON | STEX_FEATURE_TEXTURE_FORMATS_TIER1 |
                     STEX_FEATURE_TEXTURE_FORMATS_TIER2;
    return d;
}

stex_status stex_adapter_create(const stex_adapter_desc *desc, stex_adapter **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_adapter_create: out is NULL");
    *out = NULL;
    stex_adapter_desc d = desc ? *desc : stex_adapter_desc_default();
    if (d.features & ~STEX_FEATURE_ALL)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "stex_adapter_create: features 0x%" PRIx32 " has unknown bits",
                         d.features);
    if (d.language_features & ~STEX_LANGUAGE_FEATURE_ALL)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "stex_adapter_create: language_features 0x%" PRIx32
                         " has unknown bits", d.language_features);
    if ((unsigned)d.profile >= STEX_PROFILE_COUNT)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_adapter_create: profile %d is unknown",
                         (int)d.profile);
    stex_limits dl = stex_limits_default();
    /* Zero means "the default"; an adapter never offers less than the default. */
#define LIMIT_(name, dflt)                                                                   \
    if (d.limits.name == 0)                                                                  \
        d.limits.name = dl.name;                                                             \
    else if (d.limits.name < dl.name)                                                        \
        return stex_fail(STEX_INVALID_ARGUMENT,                                              \
                         "stex_adapter_create: limit " #name " = %" PRIu64                   \
                         " is below WebGPU's default %" PRIu64                               \
                         "; every adapter supports at least the defaults",                  \
                         d.limits.name, dl.name);
    STEX_LIMITS(LIMIT_)
#undef LIMIT_
#define ALIGN_(name, dflt)                                                                   \
    if (d.limits.name == 0)                                                                  \
        d.limits.name = dl.name;                                                             \
    else if (d.limits.name > dl.name || (d.limits.name & (d.limits.name - 1)))               \
        return stex_fail(STEX_INVALID_ARGUMENT,                                              \
                         "stex_adapter_create: limit " #name " = %" PRIu64                   \
                         " must be a power of two no larger than WebGPU's default %" PRIu64, \
                         d.limits.name, dl.name);
    STEX_ALIGNMENT_LIMITS(ALIGN_)
#undef ALIGN_
    /* the adapter's limits as a device asking for all of them gets them */
    normalize_stage_limits(&d.limits, d.features & STEX_FEATURE_CORE_FEATURES_AND_LIMITS);
    stex_adapter *a = malloc(sizeof *a);
    if (!a)
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_adapter_create: out of memory");
    a->features = stex_features_close(d.features);
    a->language_features = d.language_features;
    a->limits = d.limits;
    a->profile = d.profile;
    *out = a;
    return STEX_OK;
}

void stex_adapter_destroy(stex_adapter *a) { free(a); }
uint32_t stex_adapter_features(const stex_adapter *a) { return a ? a->features : 0; }
uint32_t stex_adapter_language_features(const stex_adapter *a)
{
    return a ? a->language_features : 0;
}
const stex_limits *stex_adapter_limits(const stex_adapter *a) { return a ? &a->limits : NULL; }

stex_status stex_device_create(stex_adapter *a, const stex_device_desc *desc, stex_device **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_device_create: out is NULL");
    *out = NULL;
    if (!a)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_device_create: adapter is NULL");
    stex_device_desc d = {0};
    if (desc)
        d = *desc;
    char buf[256];
    if (d.required_features & ~STEX_FEATURE_ALL)
        return stex_fail(STEX_TYPE_ERROR,
                         "requestDevice: requiredFeatures 0x%" PRIx32
                         " has bits that name no GPUFeatureName", d.required_features);
    uint32_t missing = d.required_features & ~a->features;
    if (missing)
        return stex_fail(STEX_TYPE_ERROR,
                         "requestDevice: requiredFeatures asks for %s, which the adapter does "
                         "not offer (requestDevice rejects with a TypeError; filter by "
                         "adapter.features first)",
                         feature_list(missing, buf, sizeof buf));
    stex_limits dl = stex_limits_default();
    stex_limits lim;
    /* WebGPU rejects a limit better than the adapter's; a limit worse than the
     * default gives the default. */
#define LIMIT_(name, dflt)                                                                   \
    if (d.required_limits.name > a->limits.name)                                             \
        return stex_fail(STEX_TYPE_ERROR,                                                    \
                         "requestDevice: requiredLimits." #name " = %" PRIu64                \
                         " is better than the adapter's limit %" PRIu64,                     \
                         d.required_limits.name, a->limits.name);                            \
    lim.name = d.required_limits.name > dl.name ? d.required_limits.name : dl.name;
    STEX_LIMITS(LIMIT_)
#undef LIMIT_
    /* Alignments: smaller is better, and each must be a power of two. */
#define ALIGN_(name, dflt)                                                                   \
    if (d.required_limits.name && (d.required_limits.name & (d.required_limits.name - 1)))  \
        return stex_fail(STEX_TYPE_ERROR,                                                    \
                         "requestDevice: requiredLimits." #name " = %" PRIu64                \
                         " is not a power of two", d.required_limits.name);                  \
    if (d.required_limits.name && d.required_limits.name < a->limits.name)                   \
        return stex_fail(STEX_TYPE_ERROR,                                                    \
                         "requestDevice: requiredLimits." #name " = %" PRIu64                \
                         " is better (smaller) than the adapter's limit %" PRIu64,           \
                         d.required_limits.name, a->limits.name);                            \
    lim.name = d.required_limits.name && d.required_limits.name < dl.name                    \
                   ? d.required_limits.name : dl.name;
    STEX_ALIGNMENT_LIMITS(ALIGN_)
#undef ALIGN_
    uint32_t f = stex_features_close(d.required_features);
    /* Every core (non-compatibility) device has core-features-and-limits. */
    f |= a->features & STEX_FEATURE_CORE_FEATURES_AND_LIMITS;
    normalize_stage_limits(&lim, f & STEX_FEATURE_CORE_FEATURES_AND_LIMITS);
    stex_device *dev = malloc(sizeof *dev);
    if (!dev)
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_device_create: out of memory");
    dev->features = f;
    dev->language_features = a->language_features;
    dev->limits = lim;
    dev->profile = a->profile;
    *out = dev;
    return STEX_OK;
}

void stex_device_destroy(stex_device *d) { free(d); }
uint32_t stex_device_features(const stex_device *d) { return d ? d->features : 0; }
uint32_t stex_device_language_features(const stex_device *d)
{
    return d ? d->language_features : 0;
}
const stex_limits *stex_device_limits(const stex_device *d) { return d ? &d->limits : NULL; }
const stex_profile *stex_device_profile(const stex_device *d)
{
    return d ? stex_profile_get(d->profile) : NULL;
}
void stex_device_set_profile(stex_device *d, stex_profile_id id)
{
    if (d && (unsigned)id < STEX_PROFILE_COUNT)
        d->profile = id;
}
