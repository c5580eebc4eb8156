@group(0) @binding(0) var<storage, read> origen : array<u32>;
@group(0) @binding(1) var<storage, read_write> destino : array<u32>;
@group(0) @binding(2) var<uniform> tam : vec2<i32>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let c = vec2<i32>(id.xy);
  if (any(c >= tam)) { return; }
  var s = vec4<f32>(0.0);
  for (var dy = -1; dy <= 1; dy++) {
    for (var dx = -1; dx <= 1; dx++) {
      let p = clamp(c + vec2<i32>(dx, dy), vec2<i32>(0), tam - 1);
      s += unpack4x8unorm(origen[p.y * tam.x + p.x]);
    }
  }
  destino[c.y * tam.x + c.x] = pack4x8unorm(s / 9.0);
}
