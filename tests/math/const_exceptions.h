/* Where Dawn's const evaluator (Tint, as measured through Dawn on both
 * devices) departs from WGSL's rules as src/math/const.c applies them,
 * most specific last: {kind, op, signature, rows at most per file, why}.
 * test_const.c fails on a difference no entry explains, or on an entry
 * explaining more rows than recorded. */
{NEGZERO, "*", "*", 135, "Dawn never makes -0: a -0.0f literal reads as +0 and -0 results are +0"},
{FMA_TWICE, "*", "*", 21, "Dawn's const fma() rounds the product, then the sum, and fails where the product overflows (wgpu fuses)"},
{ULP1, "*", "*", 69, "Tint's builtins (host libm in f32/f64) are within 1 ulp, not correctly rounded"},
{OP, "rem", "f32,f32->f32", 41, "Tint computes x - y*trunc(x/y) in f32 ops (errors when x/y overflows); WGSL's value is exact"},
{OP, "pack2x16float", "vec2<f32>->u32", 10, "Tint converts to f16 rounding toward zero"},
{OP, "pack2x16unorm", "vec2<f32>->u32", 4, "Tint rounds the scaled value half up, not to even"},
{OP, "pack2x16snorm", "vec2<f32>->u32", 2, "Tint rounds the scaled value half away from zero, not to even"},
{OP, "pack4x8unorm", "vec4<f32>->u32", 4, "Tint rounds the scaled value half up, not to even"},
{OP, "pack4x8snorm", "vec4<f32>->u32", 5, "Tint rounds the scaled value half away from zero, not to even"},
