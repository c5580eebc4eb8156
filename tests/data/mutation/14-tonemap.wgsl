// Reinhard tone mapping and a gamma
@group(0) @binding(0) var out : texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let hdr = vec3<f32>(f32(id.x) * 0.5, f32(id.y) * 0.25, 1.0);
  let mapped = hdr / (hdr + vec3<f32>(1.0));
  let g = pow(mapped, vec3<f32>(1.0 / 2.2));
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(g, 1.0));
}
