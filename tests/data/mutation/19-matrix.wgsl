// a rotation by a 2x2 matrix
@group(0) @binding(0) var out : texture_storage_2d<rgba16float, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let m = mat2x2<f32>(0.8, 0.6, -0.6, 0.8);
  let p = m * (vec2<f32>(id.xy) - 8.0);
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(p, p.x * p.y, 1.0));
}
