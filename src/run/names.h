/* WebGPU's string enums and flag names as the run file spells them; index =
 * stex's enum value (index 0 "undefined" where stex's zero means "derive").
 * The name lists end with NULL; *_BITS[i] is the flag of name i. */
#ifndef STEX_RUN_NAMES_H
#define STEX_RUN_NAMES_H

#include <stdint.h>

extern const char *const RUN_TEXTURE_DIMENSIONS[];
extern const char *const RUN_VIEW_DIMENSIONS[];
extern const char *const RUN_ACCESS[];
extern const char *const RUN_ADDRESS_MODES[];
extern const char *const RUN_FILTERS[];
extern const char *const RUN_COMPARE_FUNCTIONS[];  /* index = stex_compare_function */
extern const char *const RUN_SAMPLE_TYPES[];       /* index = stex_texture_sample_type */
extern const char *const RUN_SAMPLER_TYPES[];      /* index = stex_sampler_binding_type */
extern const char *const RUN_ASPECTS[];            /* index = stex_texture_aspect */
extern const char *const RUN_BUFFER_TYPES[];       /* uniform, storage, read-only-storage */
extern const char *const RUN_TEXTURE_USAGES[];
extern const uint32_t RUN_TEXTURE_USAGE_BITS[];
extern const char *const RUN_BUFFER_USAGES[];
extern const uint32_t RUN_BUFFER_USAGE_BITS[];
extern const char *const RUN_STAGES[];
extern const uint32_t RUN_STAGE_BITS[];

#endif
