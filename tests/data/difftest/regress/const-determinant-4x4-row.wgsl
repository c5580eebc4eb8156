// determinant() of a const mat4x4 (gen.mjs seed 700421, reduced): Tint's const-eval
// expands along the first row (ca43c5d6); along the first column gave ca43c5d2.
//! dispatch 1 1 1
//! out 8
//! expect ca43c5d6 00000000 00000000 00000000 00000000 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
@compute @workgroup_size(1, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lidx: u32) {
  let inv = (wid.x + wid.y * 4u + wid.z * 4u) * 32u + lidx;
  let base = inv * 8u;
  workgroupBarrier();
    switch (gid[(abs(wid.z) % 3u)]) {
      case 5u, 4u, default, 15u: {
      }
      case 0u, 19u, 14u: {
        out[base + 0u] = bitcast<u32>((determinant(mat4x4<f32>(vec4<f32>(1.75f, 0.1f, 1000.25f, 4096.5f), vec4<f32>(1.25f, 1.5f, 0.001f, -8.5f), vec4<f32>(7.25f, 0.0f, 6.0f, 8.25f), vec4<f32>(100.25f)))));
      }
    }
  workgroupBarrier();
}
