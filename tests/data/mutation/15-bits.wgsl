// bit counting and shifts
@group(0) @binding(0) var out : texture_storage_2d<rgba32uint, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let v = (id.x << 4u) | id.y;
  textureStore(out, vec2<i32>(id.xy), vec4<u32>(countOneBits(v), reverseBits(v), v >> 2u, firstLeadingBit(v + 1u)));
}
