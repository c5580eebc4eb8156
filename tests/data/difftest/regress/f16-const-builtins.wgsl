// Builtins on f16 constants are const-expressions of f16 (abs, sqrt, max,
// floor ...); stex once typed them bool or found no overload (CTS
// call,builtin,abs:f16 inputSource="const").
//! features shader-f16
//! dispatch 1 1 1
//! out 4
//! expect 00000002 40007bff c0004200 3d003800
enable f16;
@group(0) @binding(0) var<storage, read_write> out : array<u32, 4>;
@compute @workgroup_size(1) fn main() {
  let x = abs(-2.5h);
  out[0] = u32(x);
  out[1] = bitcast<u32>(vec2<f16>(abs(-65504.0h), sqrt(4.0h)));
  out[2] = bitcast<u32>(vec2<f16>(max(1.0h, 3.0h), floor(-1.5h)));
  out[3] = bitcast<u32>(abs(vec2<f16>(-0.5h, 1.25h)));
}
