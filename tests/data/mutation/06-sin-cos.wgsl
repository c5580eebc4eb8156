// a sine wave inside [-pi, pi]
@group(0) @binding(0) var out : texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let t = (f32(id.x) / 16.0 - 0.5) * 6.0;
  let s = sin(t) * 0.5 + 0.5;
  let c = cos(t) * 0.5 + 0.5;
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(s, c, f32(id.y) / 15.0, 1.0));
}
