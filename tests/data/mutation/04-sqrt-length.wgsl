// distance from the centre, rgba16float
@group(0) @binding(0) var out : texture_storage_2d<rgba16float, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let c = vec2<f32>(id.xy) - vec2<f32>(7.5, 7.5);
  let d = length(c);
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(d, sqrt(d + 1.0), d * d, 1.0));
}
