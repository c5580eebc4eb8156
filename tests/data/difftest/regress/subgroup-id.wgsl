// @builtin(subgroup_id) and @builtin(num_subgroups) (the language feature
// subgroup_id): a workgroup of 20 on lavapipe's sub-groups of 8 has three,
// the last partial; stex once had neither.
//! features subgroups
//! dispatch 2 1 1
//! out 40
//! expect 00000003 00000003 00000003 00000003 00000003 00000003 00000003 00000003 00000067 00000067 00000067 00000067 00000067 00000067 00000067 00000067 000000cb 000000cb 000000cb 000000cb 00000003 00000003 00000003 00000003 00000003 00000003 00000003 00000003 00000067 00000067 00000067 00000067 00000067 00000067 00000067 00000067 000000cb 000000cb 000000cb 000000cb
enable subgroups;
@group(0) @binding(0) var<storage, read_write> out : array<u32, 40>;
@compute @workgroup_size(20) fn main(@builtin(global_invocation_id) g : vec3u,
                                     @builtin(subgroup_id) sid : u32,
                                     @builtin(num_subgroups) ns : u32) {
  out[g.x] = sid * 100u + ns;
}
