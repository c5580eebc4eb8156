// signed values in rgba8snorm
@group(0) @binding(0) var out : texture_storage_2d<rgba8snorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let x = f32(id.x) / 7.5 - 1.0;
  let y = f32(id.y) / 7.5 - 1.0;
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(x, y, x * y, -0.5));
}
