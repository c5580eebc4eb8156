// 0 - b of zeros NIR knows on lavapipe: its fsub is fadd(a, fneg(b)), and
// ~fadd(a, 0.0) = a finds the zero as the first operand while fneg(b) is no
// constant yet, so the result is -b: v - (v + 0.0) of a zero var<private>
// or `var` is -0 (IEEE: +0), and a vector v - (c + v) is -c (gen.mjs seeds
// 710457 and 700078, reduced); where NIR folded b first (trunc(v)), it is
// 0 - 0 = +0 (seed 700425).
//! dispatch 1 1 1
//! out 6
//! expect 80000000 80000000 c2e78000 00000000 80000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 6>;
var<private> g: mat3x4<f32>;
@compute @workgroup_size(1)
fn main() {
  g[0][0] -= (g[clamp(i32(-2147483648), 0i, 2i)][0] + 0.0f);
  out[0] = bitcast<u32>(g[0].x);
  var m: mat2x2<f32>;
  m[1] -= (vec2<f32>(0.0f, 115.75f) + m[(u32(2147483647i) % 2u)]);
  out[1] = bitcast<u32>(m[1].x);
  out[2] = bitcast<u32>(m[1].y);
  var v: f32;
  out[3] = bitcast<u32>(v - trunc(v));
  out[4] = bitcast<u32>(v - (v + 0.0f));
  out[5] = bitcast<u32>(0.0f - v);
}
