// Constructor arguments run left to right: in array<i32, 3>(g, neg(), g) and
// vec3<i32>(g, neg(), g), where neg() negates the private g, the first g is
// read before the call. stex read it after (a[0], b.x). gen.mjs --off float
// seed 52463, reduced by hand.
//! dispatch 1 1 1
//! out 8
//! expect 00000005 fffffffb fffffffb 00000005 00000069 fffffffb 00000064 fffffffb
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
var<private> g: i32 = 5;
fn neg() -> i32 {
  g = -g;
  return 100;
}
@compute @workgroup_size(1)
fn main() {
  let a = array<i32, 3>(g, neg(), g);
  out[0] = bitcast<u32>(a[0]);
  out[1] = bitcast<u32>(a[2]);
  let b = vec3<i32>(g, neg(), g);
  out[2] = bitcast<u32>(b.x);
  out[3] = bitcast<u32>(b.z);
  let c = g + neg();
  out[4] = bitcast<u32>(c);
  let d = array<i32, 2>(min(g, 7), neg());
  out[5] = bitcast<u32>(d[0]);
  let e = max(g, neg());
  out[6] = bitcast<u32>(e);
  out[7] = bitcast<u32>(g);
}
