// A matrix converts between f16 and f32 element by element, as vectors do;
// stex once refused mat2x2<f32>(m) of a mat2x2<f16>.  (The f16 result is
// read through bitcast: lavapipe's compiler drops an f32(f16(x)) round trip.)
//! features shader-f16
//! dispatch 1 1 1
//! out 8
//! expect 3fc00000 477fe000 40c00000 00000002 3c002e66 00000000 00000000 00000000
enable f16;
@group(0) @binding(0) var<storage, read_write> out : array<u32, 8>;
@compute @workgroup_size(1) fn main() {
  let m = mat2x2<f16>(1.5h, 2h, 3h, 65504h);
  let n = mat2x2<f32>(m);
  out[0] = bitcast<u32>(n[0][0]);
  out[1] = bitcast<u32>(n[1][1]);
  const cm = mat3x2<f32>(mat3x2<f16>(0.25h, 2h, 3h, 4h, 5h, 6h));
  out[2] = bitcast<u32>(cm[2][1]);
  let back = mat2x3<f16>(mat2x3<f32>(1.0, 2.0, 3.0, 4.0, 5.0, 0.1 + f32(out[7])));
  out[3] = u32(back[0][1]);
  out[4] = bitcast<u32>(vec2<f16>(back[1][2], back[0][0]));
}
