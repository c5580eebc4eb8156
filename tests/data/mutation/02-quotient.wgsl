// a quotient and a product in r32float
@group(0) @binding(0) var out : texture_storage_2d<r32float, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let a = f32(id.x) + 1.0;
  let b = f32(id.y) + 2.0;
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(a / b * 3.0, 0.0, 0.0, 1.0));
}
