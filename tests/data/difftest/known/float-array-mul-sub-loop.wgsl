// f32 array element *= then -= in a loop through a pointer: lavapipe's hash word
// 756243c6, stex 756243c9 (a few ulps in v19[0]; gen.mjs seed 3108, reduced).
//! dispatch 1 1 1
//! out 64
//! expect 00000000 00000000 00000000 00000000 00000000 00000000 00000000 756243c6 00000000 00000000 00000000 00000000 00000000 00000000 00000000 7517f491 00000000 00000000 00000000 00000000 00000000 00000000 00000000 756243c6 00000000 00000000 00000000 00000000 00000000 00000000 00000000 7517f491 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 64>;
@group(0) @binding(1) var<storage, read> in: array<u32, 64>;
var<workgroup> wg17: array<f32, 4>;
@compute @workgroup_size(4, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lidx: u32) {
  let inv = (wid.x + wid.y * 2u + wid.z * 2u) * 4u + lidx;
  let base = inv * 8u;
  wg17[lidx] = f32(reverseBits(-6i));
  workgroupBarrier();
  let x18 = wg17[(lidx * 5u + 1u) % 4u];
  var v19: array<f32, 2> = array<f32, 2>(vec4<f32>(9.75f, 1.0f, 8.75f, 1.0f).z, x18);
  v19[(wid.z % 2u)] *= x18;
  let v20 = array<i32, 6>(vec3<i32>(-6i, 1418809688i, 2147483647i).y, vec3<i32>(-36029i, -4i, 2i).z, i32(-2147483648), insertBits(1i, -9i, 17u, 6u), bitcast<i32>(gid.y), -1i);
  workgroupBarrier();
  var lc23 = 0u;
  while (lc23 < 2u) {
    lc23++;
    let p24 = &v19;
      (*p24)[(gid.x % 2u)] -= f32(v20[0]);
  }
  var h1 = 0x2545f491u;
  h1 = h1 ^ bitcast<u32>(v19[0]);
  out[base + 7u] = h1;
}
