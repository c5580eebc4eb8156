// Zeros NIR knows at compile time on lavapipe: 0 / y is +0 for any y, and
// the integer rules make in[0] & 0 and in[0] * 0 constant zeros, so their
// f32 conversions are known zeros too; then x * 0 is +0 (IEEE: -0 for a
// negative x).  min(0, y) is not folded: -0 there, as IEEE.
//! dispatch 1 1 1
//! out 6
//! in 4
//! expect 00000000 00000000 00000000 00000000 00000000 80000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 6>;
@group(0) @binding(1) var<storage, read> in: array<u32, 4>;
@compute @workgroup_size(1)
fn main() {
  let y = f32(in[1]) + 1.0f;
  let x = -f32(in[2]) - 1.0f;
  let z = 0.0f;
  out[0] = bitcast<u32>((z / y) * x);
  out[1] = bitcast<u32>((z / x) * y);
  out[2] = bitcast<u32>(f32(in[0] & 0u) * x);
  out[3] = bitcast<u32>(f32(in[0] * 0u) * x);
  out[4] = bitcast<u32>((z - y) + y);
  out[5] = bitcast<u32>(min(z, y) * x);
}
