// The callee stores at a non-uniform index into the caller's array.
// Dawn (webgpu 0.6.2, lavapipe): refused [uniformity]
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
var<private> pv : u32;
fn f(p : ptr<function, array<u32, 4>>, k : u32) { (*p)[k] = ro[0]; }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var a = array<u32, 4>();
  f(&a, i);
  if a[0] > 0 { workgroupBarrier(); }
}
