// abs, sign, min and max
@group(0) @binding(0) var out : texture_storage_2d<rgba32float, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let a = f32(id.x) - 7.0;
  let b = 4.0 - f32(id.y);
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(abs(a), sign(b), min(a, b), max(a, b) * 0.5));
}
