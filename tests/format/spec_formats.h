/* The WebGPU spec's storage-format lists, written out literally (spec "Plain
 * color formats" table; features texture-formats-tier1, texture-formats-tier2,
 * bgra8unorm-storage; lessons 000 and 004) - the independent expectation the
 * format and validation tests compare stex's table against. */
#ifndef STEX_TEST_SPEC_FORMATS_H
#define STEX_TEST_SPEC_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stex/webgpu.h"

static const char *const core_storage[] = {
    "rgba8unorm", "rgba8snorm", "rgba8uint", "rgba8sint", "rgba16uint", "rgba16sint",
    "rgba16float", "r32uint", "r32sint", "r32float", "rg32uint", "rg32sint", "rg32float",
    "rgba32uint", "rgba32sint", "rgba32float", NULL};
/* texture-formats-tier1: read-only and write-only STORAGE_BINDING. */
static const char *const tier1_storage[] = {
    "r8unorm", "r8snorm", "r8uint", "r8sint", "rg8unorm", "rg8snorm", "rg8uint", "rg8sint",
    "r16uint", "r16sint", "r16float", "rg16uint", "rg16sint", "rg16float", "rgb10a2uint",
    "rgb10a2unorm", "rg11b10ufloat", "r16unorm", "r16snorm", "rg16unorm", "rg16snorm",
    "rgba16unorm", "rgba16snorm", NULL};
/* Formats that do not exist at all without texture-formats-tier1. */
static const char *const tier1_exist[] = {"r16unorm", "r16snorm", "rg16unorm", "rg16snorm",
                                          "rgba16unorm", "rgba16snorm", NULL};
static const char *const rw_core[] = {"r32uint", "r32sint", "r32float", NULL};
/* texture-formats-tier2: read-write access. */
static const char *const rw_tier2[] = {
    "r8unorm", "r8uint", "r8sint", "rgba8unorm", "rgba8uint", "rgba8sint", "r16uint",
    "r16sint", "r16float", "rgba16uint", "rgba16sint", "rgba16float", "rgba32uint",
    "rgba32sint", "rgba32float", NULL};
/* The lessons' counter-examples: never storage formats. */
static const char *const never_storage[] = {"rgba8unorm-srgb", "bgra8unorm-srgb", "depth16unorm",
                                            "depth24plus", "depth32float", "stencil8",
                                            "depth32float-stencil8", "bc1-rgba-unorm",
                                            "bc4-r-snorm", "bc6h-rgb-float", "bc7-rgba-unorm", NULL};


static inline bool spec_in(const char *const *list, const char *name)
{
    for (; *list; list++)
        if (!strcmp(*list, name))
            return true;
    return false;
}

static inline size_t spec_count(const char *const *list)
{
    size_t n = 0;
    while (list[n])
        n++;
    return n;
}

/* The feature a format needs to exist (spec "Texture Format Capabilities"
 * and the feature definitions): tier1 for the 16-bit normalised formats,
 * texture-compression-bc for every bc* format, depth32float-stencil8 for
 * itself.  0: none. */
static inline uint32_t spec_create_feature(const char *name)
{
    if (spec_in(tier1_exist, name))
        return STEX_FEATURE_TEXTURE_FORMATS_TIER1;
    if (!strncmp(name, "bc", 2))
        return STEX_FEATURE_TEXTURE_COMPRESSION_BC;
    if (!strcmp(name, "depth32float-stencil8"))
        return STEX_FEATURE_DEPTH32FLOAT_STENCIL8;
    return 0;
}

#define LF STEX_LANGUAGE_FEATURE_READONLY_AND_READWRITE_STORAGE_TEXTURES
#define T1 STEX_FEATURE_TEXTURE_FORMATS_TIER1
#define T2 STEX_FEATURE_TEXTURE_FORMATS_TIER2
#define BGRA STEX_FEATURE_BGRA8UNORM_STORAGE

/* The spec's answer, from the lists above. */
static inline bool spec_access(const char *name, stex_access a, uint32_t feat, uint32_t lf)
{
    bool t1 = feat & (T1 | T2), t2 = feat & T2;
    bool storage = spec_in(core_storage, name) || (t1 && spec_in(tier1_storage, name)) ||
                   (!strcmp(name, "bgra8unorm") && (feat & BGRA));
    if (!storage)
        return false;
    switch (a) {
    case STEX_ACCESS_UNDEFINED:
    case STEX_ACCESS_WRITE_ONLY: return true;
    case STEX_ACCESS_READ_ONLY: return (lf & LF) && strcmp(name, "bgra8unorm") != 0;
    case STEX_ACCESS_READ_WRITE:
        return (lf & LF) && (spec_in(rw_core, name) || (t2 && spec_in(rw_tier2, name)));
    default: return false;
    }
}

#endif
