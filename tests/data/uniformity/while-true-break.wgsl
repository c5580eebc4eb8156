// A while loop may be left by its condition before the body stores.
// Dawn (webgpu 0.6.2, lavapipe): refused [uniformity]
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
var<private> pv : u32;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var x = buf[0];
  while (true) { x = ro[0]; break; }
  if x > 0 { workgroupBarrier(); }
}
