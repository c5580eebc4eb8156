// A constructor and a user function of 20 arguments each, in a const-expression
// and at run time, and calls nested 20 deep: stex once refused more than 16
// arguments or 16 nested calls (issue 23).
//! dispatch 1 1 1
//! out 8
//! expect 00000014 00000014 000000d2 00000014 000000d2 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out : array<u32, 8>;
const C = array<u32, 20>(1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u, 16u, 17u, 18u, 19u, 20u);
fn sum20(p0 : u32, p1 : u32, p2 : u32, p3 : u32, p4 : u32, p5 : u32, p6 : u32, p7 : u32, p8 : u32, p9 : u32, p10 : u32, p11 : u32, p12 : u32, p13 : u32, p14 : u32, p15 : u32, p16 : u32, p17 : u32, p18 : u32, p19 : u32) -> u32 { return p0 + p1 + p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9 + p10 + p11 + p12 + p13 + p14 + p15 + p16 + p17 + p18 + p19; }
fn d1(x : u32) -> u32 { return x + 1u; }
fn d2(x : u32) -> u32 { return d1(x) + 1u; }
fn d3(x : u32) -> u32 { return d2(x) + 1u; }
fn d4(x : u32) -> u32 { return d3(x) + 1u; }
fn d5(x : u32) -> u32 { return d4(x) + 1u; }
fn d6(x : u32) -> u32 { return d5(x) + 1u; }
fn d7(x : u32) -> u32 { return d6(x) + 1u; }
fn d8(x : u32) -> u32 { return d7(x) + 1u; }
fn d9(x : u32) -> u32 { return d8(x) + 1u; }
fn d10(x : u32) -> u32 { return d9(x) + 1u; }
fn d11(x : u32) -> u32 { return d10(x) + 1u; }
fn d12(x : u32) -> u32 { return d11(x) + 1u; }
fn d13(x : u32) -> u32 { return d12(x) + 1u; }
fn d14(x : u32) -> u32 { return d13(x) + 1u; }
fn d15(x : u32) -> u32 { return d14(x) + 1u; }
fn d16(x : u32) -> u32 { return d15(x) + 1u; }
fn d17(x : u32) -> u32 { return d16(x) + 1u; }
fn d18(x : u32) -> u32 { return d17(x) + 1u; }
fn d19(x : u32) -> u32 { return d18(x) + 1u; }
fn d20(x : u32) -> u32 { return d19(x) + 1u; }
@compute @workgroup_size(1) fn main() {
  out[0] = C[19];
  var a = array<u32, 20>(1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u, 16u, 17u, 18u, 19u, 20u);
  out[1] = a[out[0] - 1u];
  out[2] = sum20(1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u, 16u, 17u, 18u, 19u, 20u);
  out[3] = d20(0u);
  out[4] = sum20(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19]);
}
