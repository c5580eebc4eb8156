// AbstractInt at its edges: bitcast<u32> of a value that fits only u32 (it
// is a u32 there, an i32 for any other bitcast: bitcast_f32_of_big.wgsl),
// and abs of the most negative value (that value); stex once refused both.
//! dispatch 1 1 1
//! out 8
//! expect ffffffff ffffffff b2d05e00 80000000 00000001 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out : array<u32, 8>;
@compute @workgroup_size(1) fn main() {
  out[0] = bitcast<u32>(4294967295);
  out[1] = bitcast<u32>(-1);
  out[2] = bitcast<vec2<u32>>(vec2(3000000000, 7)).x;
  out[3] = bitcast<u32>(-2147483648);
  const a = abs(-9223372036854775807 - 1);
  out[4] = u32(a == -9223372036854775807 - 1);
  out[5] = u32(abs(-2147483647 - 1) == -2147483648);
}
