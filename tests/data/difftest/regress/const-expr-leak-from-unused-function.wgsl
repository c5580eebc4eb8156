// A const-expression in main gave -0 (clamp(unpack4x8snorm(pack4x8unorm(...)).w,
// -1.0, 5.5), +0 on Dawn) while an unused function held the constant
// modf(vec3(-4.0)).fract: Dawn's front end keeps one f32 zero per module, the
// first it makes, and its modf's fract is e - trunc(e), +0 here; stex took
// C's modf (-0), so main's zero became -0 (gen.mjs seed 710058, reduced).
//! dispatch 1 1 1
//! out 32
//! expect 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 32>;
@group(0) @binding(1) var<storage, read> in: array<u32, 64>;
fn fn6(a7: f32, a8: mat4x3<f32>) -> mat3x3<f32> {
  return mat3x3<f32>(a8[(bitcast<u32>(a8[(2147483648u % 4u)].z) % 4u)].yyz, modf(vec3<f32>(-4.0f)).fract, vec3<f32>(vec3<bool>(false, true, false).yxy));
}
@compute @workgroup_size(1, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lidx: u32) {
  let inv = (wid.x + wid.y * 4u + wid.z * 4u) * 1u + lidx;
  let base = inv * 8u;
  out[base + 3u] = bitcast<u32>((clamp(unpack4x8snorm(pack4x8unorm(clamp(vec4<f32>(9.25f), vec4<f32>(-3.0f), vec4<f32>(-0.5f)))).w, -1.0f, 5.5f)));
}
