// A pointer indexes and selects its target directly (WGSL's
// pointer_composite_access): p[i], p.y, p.member; stex once refused p[i].
//! dispatch 1 1 1
//! out 8
//! expect 00000003 00000028 0000000e 00000002 0000000e 00000037 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out : array<u32, 8>;
struct S { a : u32, v : vec4<u32> }
fn second(p : ptr<function, array<u32, 4>>) -> u32 { return p[1]; }
fn member(p : ptr<private, S>, i : u32) -> u32 { return p.v[i] + p.a; }
var<private> s : S = S(10u, vec4u(1u, 2u, 3u, 4u));
@compute @workgroup_size(1) fn main() {
  var a = array<u32, 4>(1u, 2u, 3u, 4u);
  let p = &a;
  out[0] = p[2];
  p[3] = 40u;
  out[1] = a[3];
  var v = vec4u(5u, 6u, 7u, 8u);
  let q = &v;
  out[2] = q[3] + q.y;
  out[3] = second(&a);
  out[4] = member(&s, out[0]);
  let o = &out;
  o[5] = 55u;
}
