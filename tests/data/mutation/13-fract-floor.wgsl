// a checkerboard from fract and floor
@group(0) @binding(0) var out : texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let p = vec2<f32>(id.xy) * 0.25;
  let cell = floor(p);
  let f = fract(p);
  let check = (cell.x + cell.y) % 2.0;
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(check, f.x, f.y, 1.0));
}
