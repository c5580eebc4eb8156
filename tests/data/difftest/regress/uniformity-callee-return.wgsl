// A function with a return under non-uniform control flow does not make the
// caller's control flow after the call non-uniform: workgroupBarrier() after
// the call is valid (Dawn runs it; stex refused it, uniformity). gen.mjs seed 158.
//! dispatch 1 1 1
//! out 8
//! in 16
//! expect 00000000 00000000 0000000e 00000000 00000000 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
@group(0) @binding(1) var<storage, read> in: array<u32, 16>;
fn fn0(a1: i32) -> vec3<u32> {
  if ((-1i == a1)) {
    switch (in[6]) {
      case default, 11u, 15u: {
      }
      case 16u, 10u, 6u: {
        if (false) { return vec3<u32>(2147483648u, 13u, 0x4u); }
      }
    }
  }
  return vec3<u32>(9u, 4294967295u, 69005u);
}
@compute @workgroup_size(1, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lidx: u32) {
  let inv = (wid.x + wid.y * 3u + wid.z * 3u) * 8u + lidx;
  let base = inv * 8u;
  let v6 = fn0(dot(vec4<i32>(-4i, 45494i, 8i, 7i), vec4<i32>(7i, -2i, bitcast<i32>(in[(countTrailingZeros(gid[0]) % 16u)]), -4i)));
  workgroupBarrier();
  workgroupBarrier();
  out[base + 2u] = (14u);
}
