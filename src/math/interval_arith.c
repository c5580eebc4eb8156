/* math/interval_arith.c - f32 and f16 arithmetic on sets (being written) */
#include "math/interval_internal.h"
