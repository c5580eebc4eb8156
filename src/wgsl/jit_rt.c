/* What the JIT's compiled code calls at run time (jit.h). */
#include "wgsl/jit.h"

void wg_jit_rt_f32_nan(const stex_profile *prof, uint32_t fn, uint32_t n, uint32_t *out,
                       const uint32_t *a, const uint32_t *b, const uint32_t *c)
{
    /* interp.c's f32_lanes: the host's NaN is not the profile's */
    for (uint32_t l = 0; l < n; l++)
        if ((out[l] & 0x7fffffffu) > 0x7f800000u) {
            uint32_t in[3] = {a[l], b[l], c ? c[l] : 0};
            stex_math_eval(prof, (stex_math_fn)fn, in, &out[l]);
        }
}
