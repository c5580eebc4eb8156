// textureSample after a non-uniform discard is valid (discard demotes to a
// helper, uniformity unchanged); textureSampleLevel needs no derivatives.
//! dispatch 1 1 1
//! out 1
//! expect 00000001
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@group(0) @binding(1) var t : texture_2d<f32>;
@group(0) @binding(2) var s : sampler;
@compute @workgroup_size(1) fn main() { out[0] = 1u; }
@fragment fn frag(@location(0) uv : vec2f) -> @location(0) vec4f { if (uv.x > 0.5) { discard; } return textureSample(t, s, uv); }
