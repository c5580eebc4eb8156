// f32 products of a run-time x and constants: lavapipe (NIR) computes
// -8.5 * (x * 0.3) as x * (0.3 * -8.5) (4ff958f2; IEEE in order, stex:
// 4ff958f1). gen.mjs --on shadow seed 70278 ((M * s) * t with a matrix).
//! dispatch 1 1 1
//! out 4
//! in 4
//! expect 527d3e54 5448141e 4ff958f2 4ff958f2
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(1) var<storage, read> in: array<u32, 4>;
@compute @workgroup_size(1)
fn main() {
  let x = f32(bitcast<i32>(in[1] | 0x80000000u)) * 2.0f;
  out[0] = bitcast<u32>((9.75f * x) * -8.5f);
  out[1] = bitcast<u32>((x * 123.25f) * -8.5f);
  out[2] = bitcast<u32>(-8.5f * (x * 0.3f));
  out[3] = bitcast<u32>(x * (0.3f * -8.5f));
}
