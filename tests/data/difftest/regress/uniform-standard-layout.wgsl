// var<uniform> has the storage layout rules (the language feature
// uniform_buffer_standard_layout, which Dawn offers): an array of stride 4
// and a struct member at offset 4 are valid and read as laid out; stex once
// refused both under WGSL's older uniform rules.
//! dispatch 1 1 1
//! out 8
//! uniform 8
//! expect 00000000 9e3779b1 3c6ef362 daa66d13 78dde6c4 b54cda26 538453d7 00000000
@group(0) @binding(0) var<storage, read_write> out : array<u32, 8>;
struct A { x : u32 }
struct B { h : u32, a : A, arr : array<u32, 3>, v : vec2u }
@group(0) @binding(2) var<uniform> u : B;
@compute @workgroup_size(1) fn main() {
  out[0] = u.h;
  out[1] = u.a.x;
  for (var i = 0u; i < 3u; i++) { out[2u + i] = u.arr[i]; }
  out[5] = u.v.x;
  out[6] = u.v.y;
}
