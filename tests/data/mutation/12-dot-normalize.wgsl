// lighting: a normal against a light direction
@group(0) @binding(0) var out : texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let p = (vec2<f32>(id.xy) - 7.5) / 8.0;
  let n = normalize(vec3<f32>(p, 1.0));
  let l = normalize(vec3<f32>(0.3, 0.4, 0.8));
  let d = max(dot(n, l), 0.0);
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(d, d * 0.8, d * 0.6, 1.0));
}
