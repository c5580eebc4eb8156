// a sum over an integer loop
@group(0) @binding(0) var out : texture_storage_2d<r32sint, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  var s = 0i;
  for (var i = 0i; i < i32(id.x) + 3; i++) {
    s = s + i * i32(id.y + 1u);
  }
  textureStore(out, vec2<i32>(id.xy), vec4<i32>(s, 0, 0, 1));
}
