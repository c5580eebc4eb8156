// A store of the whole array replaces what a partial store left.
// Dawn (webgpu 0.6.2, lavapipe): valid
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var a = array<u32, 4>();
  a[i] = 1u;
  a = array<u32, 4>();
  if a[0] > 0 { workgroupBarrier(); }
}
