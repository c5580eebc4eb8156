// a horizontal and a vertical ramp in rgba8unorm
@group(0) @binding(0) var out : texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let size = vec2<f32>(textureDimensions(out));
  let uv = (vec2<f32>(id.xy) + 0.5) / size;
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(uv.x, uv.y, 1.0 - uv.x, 1.0));
}
