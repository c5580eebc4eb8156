// A continue carries a non-uniform store to continuing's break if: some
// invocations leave the loop early, yet all are back after it.
// Dawn (webgpu 0.6.2, lavapipe): valid
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var x = ro[0];
  loop {
    if ro[3] > 0 { x = buf[0]; continue; }
    x = ro[1];
    continuing { break if x > 0; }
  }
  workgroupBarrier();
}
