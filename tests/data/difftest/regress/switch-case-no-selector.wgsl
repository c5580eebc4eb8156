// A switch clause "case :" with no selectors is a parse error (a case
// clause needs at least one selector); stex accepted it as an empty clause.
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@compute @workgroup_size(1) fn main(@builtin(local_invocation_index) l: u32) {
  switch (l) {
    case 1u: { out[0] = 1u; }
    case : { out[0] = 2u; }
    default: { out[0] = 3u; }
  }
}
