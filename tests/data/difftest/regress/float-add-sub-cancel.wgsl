// (a - 0.3) - a with a large run-time a: IEEE gives 0 (stex); lavapipe gives
// -0.3: Mesa's NIR simplifies (a + b) - a to b for inexact f32 ops. Also
// (a + 0.3) - a and (0.3 + a) - a give 0.3; a - (a - 0.3) is left alone.
// gen.mjs seed 3490.
//! dispatch 1 1 1
//! out 4
//! in 4
//! expect be99999a 3e99999a 00000000 3e99999a
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(1) var<storage, read> in: array<u32, 4>;
@compute @workgroup_size(1)
fn main() {
  let a = f32(in[1]) * 0.5f;       // 1327483630.5 rounded
  out[0] = bitcast<u32>((a - 0.3f) - a);
  out[1] = bitcast<u32>((a + 0.3f) - a);
  out[2] = bitcast<u32>(a - (a - 0.3f));
  out[3] = bitcast<u32>((0.3f + a) - a);
}
