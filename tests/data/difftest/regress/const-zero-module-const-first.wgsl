// Dawn's front end keeps one f32 zero per module, the first it makes, and it
// resolves a module-scope const before the functions that name it: k's -0
// comes before main's 0.0, so main's zero is -0.  stex checked main first
// (+0: every word +0).
//! dispatch 1 1 1
//! out 4
//! expect 80000000 80000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@compute @workgroup_size(1)
fn main() {
  out[1] = bitcast<u32>(0.0f);
  out[0] = bitcast<u32>(k);
}
const k = bitcast<f32>(0x80000000u);
