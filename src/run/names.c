/* The spellings of names.h. */
#include <stddef.h>

#include "run/names.h"

const char *const RUN_TEXTURE_DIMENSIONS[] = {"2d", "1d", "3d", NULL};
const char *const RUN_VIEW_DIMENSIONS[] = {"undefined", "1d", "2d", "2d-array", "cube",
                                                  "cube-array", "3d", NULL};
const char *const RUN_ACCESS[] = {"undefined", "write-only", "read-only", "read-write", NULL};
const char *const RUN_ADDRESS_MODES[] = {"clamp-to-edge", "repeat", "mirror-repeat", NULL};
const char *const RUN_FILTERS[] = {"nearest", "linear", NULL};
const char *const RUN_COMPARE_FUNCTIONS[] = {"undefined", "never", "less", "equal", "less-equal",
                                             "greater", "not-equal", "greater-equal", "always",
                                             NULL};
const char *const RUN_SAMPLE_TYPES[] = {"undefined", "float", "unfilterable-float", "depth",
                                        "sint", "uint", NULL};
const char *const RUN_SAMPLER_TYPES[] = {"undefined", "filtering", "non-filtering",
                                         "comparison", NULL};
const char *const RUN_ASPECTS[] = {"all", "stencil-only", "depth-only", NULL};
const char *const RUN_BUFFER_TYPES[] = {"uniform", "storage", "read-only-storage", NULL};
const char *const RUN_TEXTURE_USAGES[] = {"COPY_SRC", "COPY_DST", "TEXTURE_BINDING",
                                                 "STORAGE_BINDING", "RENDER_ATTACHMENT", NULL};
const uint32_t RUN_TEXTURE_USAGE_BITS[] = {1, 2, 4, 8, 16};
const char *const RUN_BUFFER_USAGES[] = {"MAP_READ", "MAP_WRITE", "COPY_SRC", "COPY_DST",
                                                "UNIFORM", "STORAGE", NULL};
const uint32_t RUN_BUFFER_USAGE_BITS[] = {0x1, 0x2, 0x4, 0x8, 0x40, 0x80};
const char *const RUN_STAGES[] = {"VERTEX", "FRAGMENT", "COMPUTE", NULL};
const uint32_t RUN_STAGE_BITS[] = {1, 2, 4};
