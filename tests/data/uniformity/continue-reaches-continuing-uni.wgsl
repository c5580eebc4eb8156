// The value a continue stores reaches 'continuing', replacing the one from
// before the loop: here a uniform one.
// Dawn (webgpu 0.6.2, lavapipe): valid
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var x = buf[0];
  loop {
    if ro[3] > 0 { x = ro[2]; continue; }
    x = ro[1];
    continuing {
      if x > 0 { workgroupBarrier(); }
      break if ro[2] > 0;
    }
  }
}
