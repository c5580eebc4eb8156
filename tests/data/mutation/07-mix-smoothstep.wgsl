// blends
@group(0) @binding(0) var out : texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let u = f32(id.x) / 15.0;
  let v = f32(id.y) / 15.0;
  let a = vec3<f32>(0.9, 0.2, 0.1);
  let b = vec3<f32>(0.1, 0.3, 0.8);
  let k = smoothstep(0.2, 0.8, u);
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(mix(a, b, k) * (0.5 + 0.5 * v), 1.0));
}
