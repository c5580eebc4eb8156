// A store to an element at a non-uniform index makes the whole array non-uniform.
// Dawn (webgpu 0.6.2, lavapipe): refused [uniformity]
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var a = array<u32, 4>();
  a[i] = 1u;
  if a[0] > 0 { workgroupBarrier(); }
}
