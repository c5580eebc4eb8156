// vecN() with no arguments is the zero vector of AbstractInt; stex once
// asked for the element type.
//! dispatch 1 1 1
//! out 8
//! expect 00000003 00000004 00000001 40200000 00000000 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out : array<u32, 8>;
@compute @workgroup_size(1) fn main() {
  let v = vec2();
  out[0] = u32(v.x) + 3u;
  const c = vec3();
  out[1] = u32(c.z) + 4u;
  out[2] = u32(all(vec4() == vec4(0, 0, 0, 0)));
  let f = vec2() + vec2(1.5, 2.5);
  out[3] = bitcast<u32>(f.y);
}
