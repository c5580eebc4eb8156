// a cubic by Horner's rule
@group(0) @binding(0) var out : texture_storage_2d<r32float, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let x = f32(id.x) * 0.125 - f32(id.y) * 0.0625;
  let y = ((0.5 * x - 1.25) * x + 2.0) * x - 0.75;
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(y, 0.0, 0.0, 1.0));
}
