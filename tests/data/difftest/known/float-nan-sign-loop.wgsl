// 0/0 in a private f32, doubled in a loop inside a called function: the NaN
// lavapipe stores is 0x7fc00000, stex gave 0xffc00000 (gen.mjs seed 57, reduced).
//! dispatch 1 1 1
//! out 36
//! expect 00000000 00000000 00000000 00000000 00000000 00000000 00000000 5a85f491 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
struct Out {
  v: array<u32, 32>,
}
@group(0) @binding(0) var<storage, read_write> out: Out;
@group(0) @binding(1) var<storage, read> in: array<u32, 32>;
var<private> g2: array<i32, 5> = array<i32, 5>(-52218i, 2147483647i, -1i, 2147483647i, 36153i);
var<private> g4: f32;
fn fn5() -> i32 {
  g4 = (g4 / g4);
    var lc6 = 0u;
    loop {
      if (lc6 >= 6u) { break; }
      lc6++;
      g4 += g4;
    }
  return g2[0];
}
@compute @workgroup_size(1, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lidx: u32) {
  let inv = (wid.x + wid.y * 1u + wid.z * 2u) * 1u + lidx;
  let base = inv * 8u;
  workgroupBarrier();
  let v23 = fn5();
  var h1 = 0x2545f491u;
  h1 = h1 ^ bitcast<u32>(g4);
  out.v[base + 7u] = h1;
}
