// modf of a constant negative whole number: Dawn's front end gives fract
// e - trunc(e) = +0 (f32 and AbstractFloat), where the run time (and C's
// modf) keeps e's sign, -0; and the module's later zeros (modf(3.0).fract)
// are that first zero.  Run time for comparison in words 5..7.
//! dispatch 1 1 1
//! out 8
//! in 8
//! expect 00000000 c0800000 00000000 bf000000 00000000 80000000 c0800000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
@group(0) @binding(1) var<storage, read> in: array<u32, 8>;
@compute @workgroup_size(1)
fn main() {
  let m = modf(vec3(-4.0f, 3.0f, -2.5f));
  out[0] = bitcast<u32>(m.fract.x);
  out[1] = bitcast<u32>(m.whole.x);
  out[2] = bitcast<u32>(m.fract.y);
  out[3] = bitcast<u32>(m.fract.z);
  out[4] = bitcast<u32>(f32(modf(-8.0).fract));
  let x = f32(in[0] & 1u) - 4.0f; // -4: word 0 is 0
  let r = modf(x);
  out[5] = bitcast<u32>(r.fract);
  out[6] = bitcast<u32>(r.whole);
  out[7] = bitcast<u32>(fract(x));
}
