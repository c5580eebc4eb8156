// A store in non-uniform control flow is non-uniform.
// Dawn (webgpu 0.6.2, lavapipe): refused [uniformity]
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var x = ro[0];
  if i > 0 { x = ro[1]; }
  if x > 0 { workgroupBarrier(); }
}
