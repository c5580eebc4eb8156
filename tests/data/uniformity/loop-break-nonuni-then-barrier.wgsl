// A loop some invocations leave early ends uniform: every invocation is back after it.
// Dawn (webgpu 0.6.2, lavapipe): valid
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  loop { if i > 0 { break; } continue; }
  workgroupBarrier();
}
