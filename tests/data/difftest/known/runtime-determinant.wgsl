// determinant() at run time of 2x2, 3x3 and 4x4 f32 matrices of input values:
// lavapipe's 4x4 with inexact entries differs from stex by an ulp (out[3];
// gen.mjs seed 4361 showed more).
//! dispatch 1 1 1
//! out 4
//! in 16
//! expect 4c59d0d4 484ae574 44f54002 4a9e91e1
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(1) var<storage, read> in: array<u32, 16>;
fn v(i: u32) -> vec4<f32> {
  return vec4<f32>(vec4<u32>(in[i] >> 24u, in[i + 1u] >> 24u, in[i + 2u] >> 24u, in[i + 3u] >> 24u)) - 100.0f;
}
@compute @workgroup_size(1)
fn main() {
  let m4 = mat4x4<f32>(v(0u), v(4u), v(8u), v(12u));
  out[0] = bitcast<u32>(determinant(m4));
  let m3 = mat3x3<f32>(v(0u).xyz, v(4u).xyz, v(8u).xyz * 1.1f);
  out[1] = bitcast<u32>(determinant(m3));
  let m2 = mat2x2<f32>(v(0u).xy * 0.3f, v(4u).xy);
  out[2] = bitcast<u32>(determinant(m2));
  let m4b = mat4x4<f32>(v(0u) * 0.1f, v(4u) * 1.3f, v(8u), v(12u) * 0.7f);
  out[3] = bitcast<u32>(determinant(m4b));
}
