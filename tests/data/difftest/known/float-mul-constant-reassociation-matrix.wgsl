// NIR reassociates constants in a chain of f32 products that a matrix
// product hides: ((M * s) * N) * L with M, N, L constant and s run-time
// gives, for out[7]'s word, s * ((-8.25 * -7.75) * L) (465f1b19 before the
// hash, as Dawn), where IEEE in order gives ((-8.25 * s) * -7.75) * L
// (465f1b18, stex). The family of float-mul-constant-reassociation.wgsl
// (gen.mjs seed 700074, reduced; 1 ULP).
//! dispatch 1 1 1
//! out 9
//! expect 00000000 00000000 00000000 00000000 00000000 00000000 00000000 631aef88 00000000
struct Out {
  v: array<u32, 8>,
}
@group(0) @binding(0) var<storage, read_write> out: Out;
@group(0) @binding(1) var<storage, read> in: array<u32, 64>;
var<private> g0: i32 = bitcast<i32>(countLeadingZeros(43465u));
var<private> g1: mat4x3<f32> = mat4x3<f32>(vec3<f32>(70.625f, 1.25f, 4096.5f), vec3<f32>(1.0f), vec3<f32>(7.25f), vec3<f32>(6.5f));
@compute @workgroup_size(1, 1, 1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lidx: u32) {
  let inv = (wid.x + wid.y * 1u + wid.z * 2u) * 16u + lidx;
  let base = inv * 8u;
  var lc11 = 0u;
    lc11++;
    g1[clamp(g0, 0i, 3i)].y -= clamp(-2.75f, -5.0f, 2.5f);
  workgroupBarrier();
  workgroupBarrier();
  g1 = (((mat2x3<f32>(vec3<f32>(-6.0f), vec3<f32>(-8.25f, 0.25f, 8.75f)) * g1[3].y) * mat4x2<f32>(vec2<f32>(0.0f, -7.75f), vec2<f32>(-4.75f), vec2<f32>(-4.25f, 116.375f), vec2<f32>(0.0f, -7.5f))) * length(vec4<f32>(-4.25f, 8.5f, -1.75f, 22.125f)));
  var h1 = 0x2545f491u;
  h1 = h1 ^ bitcast<u32>(g1[0].x);
  out.v[base + 7u] = h1;
}
