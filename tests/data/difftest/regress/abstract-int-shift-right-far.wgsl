// An AbstractInt shifted right by 63 or more keeps only its sign: -1 for a
// negative value; stex once gave 0 (CTS bitwise_shift:shift_right_abstract).
//! dispatch 1 1 1
//! out 4
//! expect ffffffff ffffffff ffffffff 00000000
@group(0) @binding(0) var<storage, read_write> out : array<i32, 4>;
@compute @workgroup_size(1) fn main() {
  const a = -9223372036854775807 - 1;
  out[0] = i32(a >> 63u);
  out[1] = i32(a >> 64u);
  out[2] = i32(-8 >> 70u);
  out[3] = i32(9 >> 100u);
}
