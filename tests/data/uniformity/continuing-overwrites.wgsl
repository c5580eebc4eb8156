// Continuing stores a uniform value after the body's non-uniform one.
// Dawn (webgpu 0.6.2, lavapipe): valid
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var x = ro[0];
  loop {
    x = buf[0];
    continuing { x = ro[1]; break if ro[2] > 0; }
  }
  if x > 0 { workgroupBarrier(); }
}
