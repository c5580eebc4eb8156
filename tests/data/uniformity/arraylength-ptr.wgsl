// arrayLength through a let pointer to read_write storage is uniform: the
// pointer is, whatever the memory holds.
// Dawn (webgpu 0.6.2, lavapipe): valid
@group(0) @binding(0) var<storage, read_write> rt : array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  let p = &rt;
  if arrayLength(p) > 0 { workgroupBarrier(); }
  if arrayLength(&rt) > 1 { workgroupBarrier(); }
}
