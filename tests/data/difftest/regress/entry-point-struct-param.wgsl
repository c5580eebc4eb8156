// An entry point parameter may be a structure of built-in inputs (WGSL
// 13.3.1), beside plain ones; stex once refused it (CTS
// shader_io,compute_builtins:inputs method="struct" and "mixed").
//! dispatch 3 1 1
//! out 8
//! expect 0000012c 0000012d 00000136 00000137 00000140 00000141 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out : array<u32, 8>;
struct In { @builtin(workgroup_id) wg : vec3u, @builtin(num_workgroups) n : vec3u,
            @builtin(local_invocation_index) li : u32 }
@compute @workgroup_size(2) fn main(i : In, @builtin(global_invocation_id) g : vec3u) {
  out[g.x] = i.n.x * 100u + i.wg.x * 10u + i.li;
}
