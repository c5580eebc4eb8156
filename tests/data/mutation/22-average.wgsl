// a weighted average of four corner colours
@group(0) @binding(0) var out : texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let u = f32(id.x) / 15.0;
  let v = f32(id.y) / 15.0;
  let top = mix(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), u);
  let bottom = mix(vec3<f32>(0.0, 0.0, 1.0), vec3<f32>(1.0, 1.0, 0.0), u);
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(mix(top, bottom, v), 1.0));
}
