// Dawn's front end keeps one f32 zero per module, the first it makes, and it
// resolves a function before its callers even when declared after them: f's
// -0 is made before main's 0.0, so main's zero is -0 too.  stex checked the
// declarations in source order (main's +0 first: every word +0).
//! dispatch 1 1 1
//! out 4
//! expect 80000000 80000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@compute @workgroup_size(1)
fn main() {
  out[1] = bitcast<u32>(0.0f);
  out[0] = bitcast<u32>(f());
  out[2] = bitcast<u32>(g(2.0f));
}
fn f() -> f32 { return bitcast<f32>(0x80000000u); }
fn g(f: f32) -> f32 { return f * 0.0f; }
