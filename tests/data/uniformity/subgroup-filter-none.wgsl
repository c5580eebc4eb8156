// A subgroup builtin in non-uniform control flow: an error (rule
// subgroup_uniformity).
// Dawn (webgpu 0.6.2, lavapipe): refused [subgroup_uniformity]
enable subgroups;

@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  if i > 0 {
    buf[i] = subgroupAdd(i);
  }
}
