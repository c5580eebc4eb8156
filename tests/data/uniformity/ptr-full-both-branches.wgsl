// Both branches store the whole variable, one through a pointer.
// Dawn (webgpu 0.6.2, lavapipe): valid
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
var<private> pv : u32;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var x = buf[0];
  let p = &x;
  if ro[0] > 0 { *p = ro[1]; } else { x = ro[2]; }
  if *p > 0 { workgroupBarrier(); }
}
