// A callee that stores through its pointer on every path, one of them a return.
// Dawn (webgpu 0.6.2, lavapipe): valid
@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;
@group(0) @binding(1) var<storage> ro : array<u32, 4>;
var<workgroup> wg : array<u32, 4>;
var<private> pv : u32;
fn g() -> u32 { return 1u; }
fn f(p : ptr<function, u32>) { if g() > 0 { *p = ro[0]; return; } *p = ro[1]; }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i : u32) {
  var x = buf[0];
  f(&x);
  if x > 0 { workgroupBarrier(); }
}
