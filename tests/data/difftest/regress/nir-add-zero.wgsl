// Adding a known zero on lavapipe: Mesa's NIR rewrites `a + 0.0` to a for
// inexact f32 ops (a zero of either sign), so -0 + 0 is -0 (IEEE: +0); its
// fsub is fadd(a, fneg(b)), so a - 0 is a and 0 - a is -a: 0 - (+0) is -0.
// The zeros are literals, a `let` and a var<private> nobody wrote; the -0
// and +0 operands are run-time values (in[0] is 0).
//! dispatch 1 1 1
//! out 8
//! in 4
//! expect 80000000 80000000 80000000 80000000 80000000 80000000 00000000 80000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
@group(0) @binding(1) var<storage, read> in: array<u32, 4>;
var<private> z: f32;
@compute @workgroup_size(1)
fn main() {
  let pz = f32(in[0]) * 0.5f;    // +0 at run time
  let nz = -pz;                  // -0 at run time
  let zero = 0.0f;
  out[0] = bitcast<u32>(nz + 0.0f);
  out[1] = bitcast<u32>(zero + nz);
  out[2] = bitcast<u32>(nz + z);
  out[3] = bitcast<u32>(0.0f - pz);
  out[4] = bitcast<u32>(z - pz);
  out[5] = bitcast<u32>(nz - 0.0f);
  out[6] = bitcast<u32>(nz + pz);
  out[7] = bitcast<u32>((vec2<f32>(nz) + vec2<f32>(zero)).y);
}
