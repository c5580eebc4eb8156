// In a loop: out[(lid.z ^ 0x80000000u) % 6u] = 1u, then v = wid.x % (wid.z ^ lid.y)
// (a u32 % by zero). The index is 2 in every iteration; stex wrote out[0] from the
// second iteration on (the race detector saw invocations of a workgroup write
// the same word). gen.mjs --off float seed 51605, reduced by hand.
//! dispatch 1 1 1
//! out 8
//! expect 00000000 00000000 00000001 00000000 00000000 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  var v: u32 = 0u;
  for (var i = 0i; i < 3i; i++) {
    out[(lid.z ^ 2147483648u) % 6u] = 1u;
    v = wid.x % (wid.z ^ lid.y);
  }
  out[7] = v;
}
