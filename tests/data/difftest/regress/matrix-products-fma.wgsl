// Matrix products on lavapipe: each component is the last product, then
// fma(a[k], b[k], sum) from the last but one column down (Mesa's SPIR-V
// translation; lavapipe's fma rounds twice, so the order is what shows);
// stex once added the products first to last.  m * v,
// v * m and m * m of values with many significant bits.
//! dispatch 1 1 1
//! out 32
//! in 64
//! expect 413a099f 419eeea4 41825747 40c36184 4138d54a 41661cb5 4106830c 40f6e634 40c70c5b 4173cf25 4176d49e 419fcb0a 40606d2e 41ed416a 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out : array<u32, 32>;
@group(0) @binding(1) var<storage, read> in : array<u32, 64>;
fn f(i : u32) -> f32 { return f32(in[i] >> 9u) / 8388608.0 - 0.5 + f32(i % 5u); }
@compute @workgroup_size(1) fn main() {
  let m = mat4x3<f32>(f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7), f(8), f(9), f(10), f(11));
  let v4 = vec4<f32>(f(12), f(13), f(14), f(15));
  let v3 = vec3<f32>(f(16), f(17), f(18));
  let n = mat2x4<f32>(f(19), f(20), f(21), f(22), f(23), f(24), f(25), f(26));
  let a = m * v4;
  let b = v3 * m;
  let c = m * n;
  for (var i = 0u; i < 3u; i++) { out[i] = bitcast<u32>(a[i]); }
  for (var i = 0u; i < 4u; i++) { out[3u + i] = bitcast<u32>(b[i]); }
  for (var i = 0u; i < 2u; i++) {
    for (var j = 0u; j < 3u; j++) { out[7u + i * 3u + j] = bitcast<u32>(c[i][j]); }
  }
  out[13] = bitcast<u32>(dot(v4, vec4<f32>(f(27), f(28), f(29), f(30))));
}
