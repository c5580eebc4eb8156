// A module-scope const whose initializer names another one (A), used in a
// function whose local A hides it: the initializer still means the module's
// A. stex resolved it in the function's scope ("type i32 where vec4<i32> is
// expected", or '!' applied to the local). gen.mjs --on shadow seeds 72898, 72529.
//! dispatch 1 1 1
//! out 2
//! expect 00000004 00000007
@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;
const A: vec4<i32> = vec4<i32>(1, 2, 3, 4);
const B: array<vec4<i32>, 2> = array<vec4<i32>, 2>(vec4<i32>(0), A);
@compute @workgroup_size(1)
fn main() {
  let A: i32 = 7;
  out[0] = bitcast<u32>(B[1].w);
  out[1] = bitcast<u32>(A);
}
