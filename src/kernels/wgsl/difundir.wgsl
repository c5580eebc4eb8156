@group(0) @binding(0) var campo : texture_storage_2d<r32float, read_write>;

// INCORRECTO: lee vecinos que otras invocaciones están escribiendo.
@compute @workgroup_size(8, 8)
fn difundir(@builtin(global_invocation_id) id : vec3<u32>) {
  let c = vec2<i32>(id.xy);
  let suma = textureLoad(campo, c + vec2<i32>(-1, 0)).r
           + textureLoad(campo, c + vec2<i32>( 1, 0)).r
           + textureLoad(campo, c + vec2<i32>(0, -1)).r
           + textureLoad(campo, c + vec2<i32>(0,  1)).r;
  textureStore(campo, c, vec4<f32>(suma * 0.25, 0.0, 0.0, 0.0));
}
