// A function that updates the private g, called from a function whose local
// 'let g' hides it: the callee still updates the module-scope g (stex left it
// at 2: the callee's g resolved to the caller's local). gen.mjs --on shadow
// seed 70100, reduced by hand.
//! dispatch 1 1 1
//! out 2
//! expect 00001000 00000005
@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;
var<private> g: i32 = 2;
fn bump() {
  g <<= 11u;
}
fn caller() -> u32 {
  let g = 5.5f;
  bump();
  return u32(g);
}
@compute @workgroup_size(1)
fn main() {
  out[1] = caller();
  out[0] = bitcast<u32>(g);
}
