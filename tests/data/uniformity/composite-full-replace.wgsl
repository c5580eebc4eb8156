// A store of the whole array after a store to an element.
// Dawn (webgpu 0.6.2, lavapipe): valid
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
var<private> pv : u32;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var s : array<u32, 2>;
  s[0] = buf[0];
  s = array<u32, 2>(ro[0], ro[1]);
  if s[1] > 0 { workgroupBarrier(); }
}
