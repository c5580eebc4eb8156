/* math/interval_builtin.c - the float builtins on sets (being written) */
#include "math/interval_internal.h"
