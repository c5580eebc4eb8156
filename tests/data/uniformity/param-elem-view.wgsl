// A pointer parameter to one element: the store joins the rest of the array.
// Dawn (webgpu 0.6.2, lavapipe): refused [uniformity]
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
var<private> pv : u32;
fn f(p : ptr<function, u32>) { *p = ro[0]; }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var a = array<u32, 4>(buf[0], 0u, 0u, 0u);
  f(&a[ro[1]]);
  if a[0] > 0 { workgroupBarrier(); }
}
