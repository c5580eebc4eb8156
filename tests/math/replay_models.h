/* The approximately modelled groups of test_replay.c, as replayed today:
 * {profile, op, signature, rows bit-exact (at least), largest ulp distance
 * (2147483647: some row gives NaN/inf where the device does not, or the
 * reverse), why the group is not bit-exact}.  Regenerate the numbers from
 * the test's printed summary when a model improves.  exp2, exp, sinh,
 * cosh, sqrt and inverseSqrt left this list: bit-exact since the per-mantissa
 * tables of tests/data/nvsweep; log2, log and pow since the log2 tables of
 * [1, 2) and [0.5, 1) plus the exponent added rounded toward zero; sin and
 * cos since the first-quadrant table after the FMUL.RZ reduction, tan as
 * sin * MUFU.RCP(cos) with the measured reciprocal. */
{"nvidia", "tanh", "f32->f32", 1904, 2L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "atan", "f32->f32", 1520, 2L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "asin", "f32->f32", 1941, 2L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "acos", "f32->f32", 1950, 1L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "asinh", "f32->f32", 1785, 1L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "acosh", "f32->f32", 1916, 2L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "atanh", "f32->f32", 1944, 2L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "atan2", "f32,f32->f32", 1386, 1L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 1568 */
