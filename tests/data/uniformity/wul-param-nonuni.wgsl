// workgroupUniformLoad of a pointer parameter made with a non-uniform index.
// Dawn (webgpu 0.6.2, lavapipe): refused [uniformity]
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
fn f(p : ptr<workgroup, u32>) -> u32 { return workgroupUniformLoad(p); }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  let v = f(&wg[i]);
}
