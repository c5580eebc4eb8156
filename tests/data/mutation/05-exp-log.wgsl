// exp2 and log2 in their accurate ranges
@group(0) @binding(0) var out : texture_storage_2d<rgba32float, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let x = f32(id.x) * 0.25;
  let y = f32(id.y) + 1.0;
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(exp2(x), log2(y), exp2(-x), 1.0));
}
