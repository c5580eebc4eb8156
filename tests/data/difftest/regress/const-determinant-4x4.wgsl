// determinant() of a const mat4x4 (mat2x4 * mat4x2), so Tint's const-eval:
// 430eb10d; stex's const-eval gives 43112777 (the product itself agrees; the
// 4x4 cofactor expansion cancels heavily, so the order of operations shows).
// gen.mjs seed 100217.
//! dispatch 1 1 1
//! out 6
//! expect c129ccc8 41f30733 44611b9a c23e7ae7 430eb10d c6d1c0cc
@group(0) @binding(0) var<storage, read_write> out: array<u32, 6>;
@compute @workgroup_size(1)
fn main() {
  const m = mat2x4<f32>(vec4<f32>(6.75f, 3.14159f, 5.0f, 4096.5f), vec4<f32>(-97.125f, 5.25f, -4.5f, 15.625f)) * mat4x2<f32>(vec2<f32>(8.5f, 0.7f), vec2<f32>(0.3f, -9.25f), vec2<f32>(0.0f, 0.3f), vec2<f32>(-6.75f));
  out[0] = bitcast<u32>(m[0].x);
  out[1] = bitcast<u32>(m[0].y);
  out[2] = bitcast<u32>(m[1].x);
  out[3] = bitcast<u32>(m[1].y);
  out[4] = bitcast<u32>(determinant(m));
  out[5] = bitcast<u32>(m[0].x * m[1].y - m[1].x * m[0].y);
}
