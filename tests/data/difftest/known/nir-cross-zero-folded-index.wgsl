// cross(g2[1], g2[dynamic]).z of a var<private> matrix that stays zero:
// -0 on lavapipe, +0 on stex. NIR lowers cross to fma(a.y, b.z, -(a.z *
// b.y)) and knows g2[1] is zero (the switch clause stores a zero at an index
// it folds, clamp of a constant struct member), so ~ffma(0, a, b) = b gives
// -(0 * x) = -0; stex's pass does not fold that index (a member of a let
// struct built from a run-time load and constants) and forgets the matrix
// at the store: with the index written 2, stex gives -0 as Dawn.
// The family "zeros' signs where NIR knows more constants" (gen.mjs seed
// 700150, reduced).
//! dispatch 1 1 1
//! out 8
//! expect 00000000 00000000 00000000 00000000 00000000 00000000 80000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
@group(0) @binding(1) var<storage, read> in: array<u32, 16>;
struct S0 {
  f0: u32,
  f1: vec3<f32>,
  f2: vec2<i32>,
  f3: vec4<i32>,
}
var<private> g2: mat3x3<f32>;
@compute @workgroup_size(1, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lidx: u32) {
  let inv = (wid.x + wid.y * 2u + wid.z * 2u) * 16u + lidx;
  let base = inv * 8u;
  switch (gid.y) {
    case 7u, 15u: {
      let v13 = S0(148914980u, g2[clamp(1142749018i, 0i, 2i)], vec2<i32>(-4i, -12559i), vec4<i32>(-1i, 3i, 2i, 5i));
      g2[clamp(v13.f3.y, 0i, 2i)].y = v13.f1.y;
    }
    case default, 0u: {
    }
  }
  workgroupBarrier();
  workgroupBarrier();
    g2[(inv % 3u)] = cross(g2[1], g2[(lid[2] % 3u)]);
  var h0 = inv;
  h0 = h0 ^ bitcast<u32>(g2[0].z);
  out[base + 6u] = h0;
}
