// A load through a ptr<private> parameter is non-uniform.
// Dawn (webgpu 0.6.2, lavapipe): refused [uniformity]
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
var<private> pv : u32;
fn f(p : ptr<private, u32>) -> u32 { return *p; }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  if f(&pv) > 0 { workgroupBarrier(); }
}
