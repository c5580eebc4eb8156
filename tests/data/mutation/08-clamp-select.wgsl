// a threshold and clamping
@group(0) @binding(0) var out : texture_storage_2d<r32float, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let x = f32(id.x) * 0.3 - 1.5;
  let y = clamp(x * 2.0, -1.0, 1.0);
  let z = select(y, -y, id.y > 7u);
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(z, 0.0, 0.0, 1.0));
}
