// A derivative's result differs between neighbours: textureSample under a
// branch on dpdx(...) is an error; stex once took the result as uniform (CTS
// uniformity:functions dpdx_nonuniform_result).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@group(0) @binding(1) var t : texture_2d<f32>;
@group(0) @binding(2) var s : sampler;
@compute @workgroup_size(1) fn main() { out[0] = 1u; }
@fragment fn frag() -> @location(0) vec4f { let d = dpdx(1.0); if (d > 0.0) { return textureSample(t, s, vec2f(0)); } return vec4f(0); }
