// A case that breaks carries its non-uniform store out of the switch.
// Dawn (webgpu 0.6.2, lavapipe): refused [uniformity]
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var x = ro[0];
  switch ro[1] { case 0 { x = buf[0]; break; } default { x = ro[2]; } }
  if x > 0 { workgroupBarrier(); }
}
