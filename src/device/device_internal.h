/* Internal: what an adapter and a device hold. */
#ifndef STEX_DEVICE_INTERNAL_H
#define STEX_DEVICE_INTERNAL_H

#include "stex/device.h"

struct stex_adapter {
    uint32_t features;          /* closed under implication */
    uint32_t language_features;
    stex_limits limits;         /* every field >= the default */
    stex_profile_id profile;
};

struct stex_device {
    uint32_t features;          /* requested + implied */
    uint32_t language_features; /* the adapter's (navigator.gpu's) */
    stex_limits limits;
    stex_profile_id profile;
};

/* Features implied by `features`: tier2 -> tier1 -> rg11b10ufloat-renderable. */
uint32_t stex_features_close(uint32_t features);

#endif
