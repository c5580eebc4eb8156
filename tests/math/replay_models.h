/* The approximately modelled groups of test_replay.c, as replayed today:
 * {profile, op, signature, rows bit-exact (at least), largest ulp distance
 * (2147483647: some row gives NaN/inf where the device does not, or the
 * reverse), why the group is not bit-exact}.  Regenerate the numbers from
 * the test's printed summary when a model improves. */
{"lavapipe", "sin", "f32->f32", 3222, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "cos", "f32->f32", 3133, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "tan", "f32->f32", 2337, 2190421479L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "exp", "f32->f32", 1502, 2645L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "exp2", "f32->f32", 1917, 3L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "log", "f32->f32", 1510, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "log2", "f32->f32", 1907, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "inverseSqrt", "f32->f32", 3495, 1L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "tanh", "f32->f32", 2075, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "atan", "f32->f32", 524, 347L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "asin", "f32->f32", 3816, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "acos", "f32->f32", 3524, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "sinh", "f32->f32", 1155, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "cosh", "f32->f32", 1697, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "asinh", "f32->f32", 2090, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "acosh", "f32->f32", 982, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "atanh", "f32->f32", 245, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "pow", "f32,f32->f32", 2070, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 4096 */
{"lavapipe", "atan2", "f32,f32->f32", 1568, 2147483647L, "placeholder: correctly rounded; gallivm polynomial not yet modelled"}, /* of 3136 */
{"nvidia", "sin", "f32->f32", 184, 1775405742L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "cos", "f32->f32", 405, 2130706124L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "tan", "f32->f32", 72, 2313495985L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "exp", "f32->f32", 942, 53L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "exp2", "f32->f32", 1322, 2L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "log", "f32->f32", 1587, 5235672L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "log2", "f32->f32", 1600, 6114246L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "sqrt", "f32->f32", 1872, 1L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "inverseSqrt", "f32->f32", 1787, 1L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "tanh", "f32->f32", 1904, 2L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "atan", "f32->f32", 1520, 2L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "asin", "f32->f32", 1941, 2L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "acos", "f32->f32", 1950, 1L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "sinh", "f32->f32", 654, 2147483647L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "cosh", "f32->f32", 965, 2147483647L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "asinh", "f32->f32", 1785, 1L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "acosh", "f32->f32", 1916, 2L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "atanh", "f32->f32", 1944, 2L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "pow", "f32,f32->f32", 1196, 2147483647L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 2048 */
{"nvidia", "atan2", "f32,f32->f32", 1386, 1L, "placeholder: correctly rounded; hardware approximation not yet modelled"}, /* of 1568 */
