// A subgroup builtin in non-uniform control flow, the module's filter
// diagnostic(off, subgroup_uniformity) silences it.
// Dawn (webgpu 0.6.2, lavapipe): valid
enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  if i > 0 {
    buf[i] = subgroupAdd(i);
  }
}
