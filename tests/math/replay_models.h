/* The approximately modelled groups of test_replay.c, as replayed today:
 * {profile, op, signature, rows bit-exact (at least), largest ulp distance
 * (2147483647: some row gives NaN/inf where the device does not, or the
 * reverse), why the group is not bit-exact}.  Regenerate the numbers from
 * the test's printed summary when a model improves. */
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
