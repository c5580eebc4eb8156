// f32 additions of a run-time x = 0.25 and the constants 0.3 and -4096.5:
// lavapipe (Mesa's NIR) reassociates 0.3 + (x - 4096.5) and (x - 4096.5) + 0.3
// into x + (0.3 - 4096.5), rounding differently (c57fff34) from IEEE left to
// right (c57fff33, stex); (x + 0.3) - 4096.5 is left as written (seed 100024).
//! dispatch 1 1 1
//! out 4
//! in 4
//! expect c57fff34 c57fff34 c57fff33 c57fff34
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(1) var<storage, read> in: array<u32, 4>;
@compute @workgroup_size(1)
fn main() {
  var v = vec3<f32>(0.25f, 0.3f, 4096.5f);
  let i = in[0] % 3u;
  v.y += v[i] - v.z;
  out[0] = bitcast<u32>(v.y);
  let x = f32(in[0]) + 0.25f;
  out[1] = bitcast<u32>(0.3f + (x - 4096.5f));
  out[2] = bitcast<u32>((x + 0.3f) - 4096.5f);
  out[3] = bitcast<u32>((x - 4096.5f) + 0.3f);
}
