/* The approximately modelled groups of test_replay.c, as replayed today:
 * {profile, op, signature, rows bit-exact (at least), largest ulp distance
 * (2147483647: some row gives NaN/inf where the device does not, or the
 * reverse), why the group is not bit-exact}.  Regenerate the numbers from
 * the test's printed summary when a model improves. */
{"nvidia", "sin", "f32->f32", 562, 1060439283L, "MUFU.SIN model: x*f32(1/2pi), fraction as 25-bit fixed point; the unit's interpolation not modelled"}, /* of 2048 */
{"nvidia", "cos", "f32->f32", 646, 2130706432L, "MUFU.COS model: x*f32(1/2pi), fraction as 25-bit fixed point; the unit's interpolation not modelled"}, /* of 2048 */
{"nvidia", "tan", "f32->f32", 404, 2737654669L, "sin/cos models divided as x*(1/y); inherits their error"}, /* of 2048 */
{"nvidia", "exp", "f32->f32", 1306, 2L, "ex2(x*log2e) with ex2 correctly rounded; MUFU.EX2's 1-2 ulp not modelled"}, /* of 2048 */
{"nvidia", "exp2", "f32->f32", 1322, 2L, "MUFU.EX2 taken as correctly rounded (ftz); its 1-2 ulp not modelled"}, /* of 2048 */
{"nvidia", "log", "f32->f32", 1648, 5235673L, "lg2(x)*ln2 with lg2 correctly rounded; MUFU.LG2 not modelled"}, /* of 2048 */
{"nvidia", "log2", "f32->f32", 1600, 6114246L, "MUFU.LG2 taken as correctly rounded (ftz); its absolute error near 1 not modelled"}, /* of 2048 */
{"nvidia", "sqrt", "f32->f32", 1872, 1L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "inverseSqrt", "f32->f32", 1787, 1L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "tanh", "f32->f32", 1904, 2L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "atan", "f32->f32", 1520, 2L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "asin", "f32->f32", 1941, 2L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "acos", "f32->f32", 1950, 1L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "sinh", "f32->f32", 1410, 868220928L, "(ex2 model of e^x - e^-x)*0.5; the device's small-|x| path not found"}, /* of 2048 */
{"nvidia", "cosh", "f32->f32", 1505, 2L, "(ex2 model of e^x + e^-x)*0.5; MUFU.EX2 not modelled"}, /* of 2048 */
{"nvidia", "asinh", "f32->f32", 1785, 1L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "acosh", "f32->f32", 1916, 2L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "atanh", "f32->f32", 1944, 2L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 2048 */
{"nvidia", "pow", "f32,f32->f32", 1469, 2147483647L, "ex2(lg2(x)*y) with correctly rounded ex2/lg2; MUFU tables not modelled"}, /* of 2048 */
{"nvidia", "atan2", "f32,f32->f32", 1386, 1L, "correctly rounded placeholder; the device's approximation not modelled"}, /* of 1568 */
