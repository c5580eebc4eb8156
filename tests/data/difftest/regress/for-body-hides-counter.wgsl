// A for body may hide the loop's own variable, and the update still steps
// the loop's: stex once stepped the body's i (a loop that never ended).
//! dispatch 1 1 1
//! out 1
//! expect 00000010
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@compute @workgroup_size(1) fn main() {
  for (var i = 0u; i < 2u; i++) { var i = 7u; out[0] += i; }
  let a = 1u; { let a = 2u; out[0] += a; }
}
