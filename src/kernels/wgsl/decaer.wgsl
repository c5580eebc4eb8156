@group(0) @binding(0) var campo : texture_storage_2d<r32float, read_write>;

@compute @workgroup_size(8, 8)
fn decaer(@builtin(global_invocation_id) id : vec3<u32>) {
  let tam = textureDimensions(campo);
  if (any(id.xy >= tam)) { return; }

  let c = vec2<i32>(id.xy);
  let v = textureLoad(campo, c).r;
  textureStore(campo, c, vec4<f32>(v * 0.98, 0.0, 0.0, 0.0));
}
