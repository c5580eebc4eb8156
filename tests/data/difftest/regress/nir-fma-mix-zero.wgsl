// fma() and mix() with known constants on lavapipe (Mesa's NIR rules on
// inexact ops): fma(0, a, c) = c and fma(a, b, 0) = a * b, so a -0 addend
// or product survives (IEEE: +0); mix(a, b, 0) = a, mix(a, b, 1) = b,
// mix(0, b, t) = b * t; and a matrix product's steps (fma too) with the
// constant zeros of a matrix: every sum stays +0 (IEEE gives -0 where
// negative entries meet zeros). in[0] is 0, so nz is -0 at run time.
//! dispatch 1 1 1
//! out 12
//! in 4
//! expect 80000000 80000000 80000000 80000000 4add80dc 4b1e3779 00000000 80000000 00000000 00000000 80000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 12>;
@group(0) @binding(1) var<storage, read> in: array<u32, 4>;
@compute @workgroup_size(1)
fn main() {
  let pz = f32(in[0]) * 0.5f;
  let nz = -pz;
  let x = f32(in[1] >> 8u) + 0.3f;
  out[0] = bitcast<u32>(fma(0.0f, x, nz));
  out[1] = bitcast<u32>(fma(nz, 2.0f, 0.0f));
  out[2] = bitcast<u32>(mix(nz, x, 0.0f));
  out[3] = bitcast<u32>(mix(x, nz, 1.0f));
  out[4] = bitcast<u32>(mix(0.0f, x, 0.7f));
  out[5] = bitcast<u32>(x * 1.0f);
  let m = mat2x2<f32>(vec2<f32>(-2.5f, 7.25f), vec2<f32>(-9.5f, 1.75f)) * pz;
  let p = m * mat2x2<f32>(vec2<f32>(0.0f, -3.0f), vec2<f32>(0.0f, 0.0f));
  out[6] = bitcast<u32>(p[0].x);
  out[7] = bitcast<u32>(p[0].y);
  out[8] = bitcast<u32>(p[1].x);
  out[9] = bitcast<u32>(p[1].y);
  out[10] = bitcast<u32>((m * vec2<f32>(0.0f, 1.0f)).x);
  out[11] = bitcast<u32>((vec2<f32>(-1.5f, 0.0f) * m).y);
}
