/* lavapipe's f16 builtins reproduced approximately (test_f16_replay.c):
 * op, signature, rows bit-exact, largest ulp distance (65536: a NaN or an
 * infinity against a finite value) */
{"exp", "f16->f16", 65535, 1},
{"exp2", "f16->f16", 65535, 1},
{"tanh", "f16->f16", 65534, 5},
{"asin", "f16->f16", 62454, 65536},
{"acos", "f16->f16", 55535, 65536},
{"sinh", "f16->f16", 65534, 4},
{"cosh", "f16->f16", 65534, 1},
