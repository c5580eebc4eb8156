// What lavapipe's compiler (Mesa's NIR) computes before the program runs:
// fma() of constants is folded with one rounding (2^-46 here), while at
// run time lavapipe rounds the product first (0); and 0 - (0 + 0) of a
// var<private> nobody wrote is -0: NIR's fsub is fadd(a, fneg(b)), and its
// rule ~fadd(a, 0.0) = a takes the first operand as the zero, leaving
// fneg(b) (gen.mjs seed 710457, reduced).  stex gives +0 for those: taking
// the second operand as the zero matched more of the random programs (52
// against 57 differing of 2,404), so the rule's order is not known yet.
//! dispatch 1 1 1
//! out 4
//! in 4
//! expect 00000000 00000000 80000000 80000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(1) var<storage, read> in: array<u32, 4>;
var<private> p: f32 = 1.00000012f;
var<private> q: f32 = -1.00000024f;
var<private> z: mat2x2<f32>;
@compute @workgroup_size(1)
fn main() {
  out[0] = bitcast<u32>(fma(p, p, q));
  let r = bitcast<f32>(in[0] | 0x3f800001u);   // p, at run time
  out[1] = bitcast<u32>(fma(r, r, q));
  z[0][0] -= (z[0][0] + 0.0f);
  out[2] = bitcast<u32>(z[0].x);
  out[3] = bitcast<u32>(z[1].y - (z[1].y + 0.0f));
}
