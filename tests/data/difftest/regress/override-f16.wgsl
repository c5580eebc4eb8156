// An override may be an f16 (behind enable f16); stex once allowed only
// bool, i32, u32 and f32 (CTS decl,override:type case="f16").
//! features shader-f16
//! dispatch 1 1 1
//! out 2
//! expect 42003e00 00000003
enable f16;
@group(0) @binding(0) var<storage, read_write> out : array<u32, 2>;
override o : f16 = 1.5h;
override p = o * 2h;
@compute @workgroup_size(1) fn main() {
  out[0] = bitcast<u32>(vec2<f16>(o, p));
  out[1] = u32(p);
}
