/* lavapipe's f16 builtins reproduced approximately (test_f16_replay.c):
 * op, signature, rows bit-exact, largest ulp distance (65536: a NaN or an
 * infinity against a finite value) */
{"exp", "f16->f16", 65535, 1},
{"exp2", "f16->f16", 65535, 1},
{"tanh", "f16->f16", 34096, 65536},
{"atan", "f16->f16", 51460, 2},
{"asin", "f16->f16", 63491, 65536},
{"acos", "f16->f16", 48217, 65536},
{"sinh", "f16->f16", 32612, 65536},
{"cosh", "f16->f16", 58476, 65536},
{"asinh", "f16->f16", 11843, 65536},
{"acosh", "f16->f16", 42508, 65536},
{"atanh", "f16->f16", 37512, 3072},
{"pow", "f16,f16->f16", 15114, 65536},
{"atan2", "f16,f16->f16", 11514, 65536},
