// A store through a full pointer replaces the variable's value.
// Dawn (webgpu 0.6.2, lavapipe): valid
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var s = 0u;
  let p = &s;
  *p = buf[0];
  *p = ro[0];
  if s > 0 { workgroupBarrier(); }
}
