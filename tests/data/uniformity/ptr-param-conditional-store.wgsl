// A callee that stores through its pointer on one path: both values reach the caller.
// Dawn (webgpu 0.6.2, lavapipe): refused [uniformity]
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
fn f(p : ptr<function, u32>) -> u32 { if *p > 0 { return 1u; } *p = buf[0]; return 0u; }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var x = ro[0];
  _ = f(&x);
  if x > 0 { workgroupBarrier(); }
}
