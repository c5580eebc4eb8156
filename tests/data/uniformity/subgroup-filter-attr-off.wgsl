// A subgroup builtin in non-uniform control flow, silenced by an
// @diagnostic(off, subgroup_uniformity) attribute on the if statement.
// Dawn (webgpu 0.6.2, lavapipe): valid
enable subgroups;
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  @diagnostic(off, subgroup_uniformity) if i > 0 {
    buf[i] = subgroupAdd(i);
  }
}
