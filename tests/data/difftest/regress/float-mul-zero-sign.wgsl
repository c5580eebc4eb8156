// f32 multiplication with a zero operand on lavapipe gives +0.0 whatever the
// other operand: -5.5 * 0 = +0, 0 * -1 = +0, inf * 0 = +0 (IEEE: -0, -0, NaN)
// for scalars, vectors and matrices (gen.mjs seed 1030; stex gave IEEE's).
//! dispatch 1 1 1
//! out 8
//! expect 00000000 00000000 00000000 00000000 00000000 ff800000 00000000 80000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
var<private> z: f32 = 0.0f;
var<private> m: f32 = -5.5f;
var<private> inf: f32 = 0.0f;
@compute @workgroup_size(1)
fn main() {
  inf = 1.0f / z;
  out[0] = bitcast<u32>(m * z);
  out[1] = bitcast<u32>(-5.5f * z);
  out[2] = bitcast<u32>((vec2<f32>(-5.5f) * z).x);
  out[3] = bitcast<u32>((mat2x2<f32>(-5.5f, 1.0f, 2.0f, 3.0f) * z)[0].x);
  out[4] = bitcast<u32>(inf * z);
  out[5] = bitcast<u32>(inf * m);
  out[6] = bitcast<u32>(z * -1.0f);
  out[7] = bitcast<u32>(-z);
}
