// a colour packed into one word
@group(0) @binding(0) var out : texture_storage_2d<r32uint, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let c = vec4<f32>(f32(id.x) / 15.0, f32(id.y) / 15.0, 0.5, 1.0);
  textureStore(out, vec2<i32>(id.xy), vec4<u32>(pack4x8unorm(c), 0u, 0u, 1u));
}
