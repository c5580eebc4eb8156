// The probes: one WGSL expression over the row's a..h each (or a body that sets `r`), grouped
// by what they isolate.  `models` are rewritings of the expression that say what a compiler did;
// compare.mjs runs them on stex (profile=nvidia and spec) beside the probe itself.
const P = [];
const add = (group, name, expr, models = {}, extra = {}) => P.push({ group, name, expr, models, ...extra });

// contraction: which shapes become one fused multiply-add
add('contract', 'mad', 'a * b + c', { fused: 'fma(a, b, c)' });
add('contract', 'mad_rev', 'c + a * b', { fused: 'fma(a, b, c)' });
add('contract', 'msub', 'a * b - c', { fused: 'fma(a, b, -c)' });
add('contract', 'nmsub', 'c - a * b', { fused: 'fma(-a, b, c)' });
add('contract', 'negprod_add', '-(a * b) + c', { fused: 'fma(-a, b, c)' });
add('contract', 'negprod_sub', '-(a * b) - c', { fused: 'fma(-a, b, -c)' });
add('contract', 'let_mad', null, { fused: 'fma(a, b, c)' }, { body: 'let p = a * b; let r : f32 = p + c;' });
add('contract', 'let_msub', null, { fused: 'fma(a, b, -c)' }, { body: 'let p = a * b; let r : f32 = p - c;' });
add('contract', 'var_mad', null, { fused: 'fma(a, b, c)' }, { body: 'var p = a * b; p = p + c; let r : f32 = p;' });
add('contract', 'fn_mul_add', 'mulf(a, b) + c', { fused: 'fma(a, b, c)' },
  { decls: 'fn mulf(x : f32, y : f32) -> f32 { return x * y; }' });
add('contract', 'fn_add_mul', 'addf(a * b, c)', { fused: 'fma(a, b, c)' },
  { decls: 'fn addf(x : f32, y : f32) -> f32 { return x + y; }' });
add('contract', 'two_products', 'a * b + c * d', { fuse_left: 'fma(a, b, c * d)', fuse_right: 'fma(c, d, a * b)' });
add('contract', 'diff_products', 'a * b - c * d', { fuse_left: 'fma(a, b, -(c * d))', fuse_right: 'fma(-c, d, a * b)' });
add('contract', 'vec2_mad_y', '(vec2(a, c) * vec2(b, d) + vec2(c, a)).y', { fused: 'fma(c, d, a)' });
add('contract', 'vec3_mad_y', '(vec3(a, b, c) * vec3(b, c, d) + vec3(d, a, b)).y', { fused: 'fma(b, c, a)' });
add('contract', 'dot2', 'dot(vec2(a, b), vec2(e, f))', { fuse_first: 'fma(a, e, b * f)', fuse_last: 'fma(b, f, a * e)' });
add('contract', 'dot3', 'dot(vec3(a, b, c), vec3(e, f, g))',
  { chain: 'fma(c, g, fma(b, f, a * e))', first: 'fma(a, e, fma(b, f, c * g))' });
add('contract', 'dot4', 'dot(vec4(a, b, c, d), vec4(e, f, g, h))',
  { chain: 'fma(d, h, fma(c, g, fma(b, f, a * e)))', first: 'fma(a, e, fma(b, f, fma(c, g, d * h)))' });
add('contract', 'matvec_x', '(mat2x2<f32>(a, b, c, d) * vec2(e, f)).x', { fuse_first: 'fma(a, e, c * f)', fuse_last: 'fma(c, f, a * e)' });
add('contract', 'vecmat_x', '(vec2(a, b) * mat2x2<f32>(e, f, g, h)).x', { fuse_first: 'fma(a, e, b * f)', fuse_last: 'fma(b, f, a * e)' });
add('contract', 'matvec3_y', '(mat3x3<f32>(a, b, c, d, e, f, g, h, a) * vec3(h, g, f)).y');
add('contract', 'matmat_x', '(mat2x2<f32>(a, b, c, d) * mat2x2<f32>(e, f, g, h))[1].x', { fuse_first: 'fma(a, g, c * h)' });
add('contract', 'mix', 'mix(a, b, c)', { lerp_fused: 'fma(c, b - a, a)', spec: 'a * (1.0 - c) + b * c',
  two_fma: 'fma(b, c, fma(-a, c, a))' });
add('contract', 'mix_vec_y', 'mix(vec2(a, e), vec2(b, f), vec2(c, g)).y', { lerp_fused: 'fma(g, f - e, e)' });
add('contract', 'smoothstep', 'smoothstep(a, b, c)');
add('contract', 'normalize2_x', 'normalize(vec2(a, b)).x', { rsq: 'a * inverseSqrt(fma(a, a, b * b))', rsq2: 'a * inverseSqrt(fma(b, b, a * a))' });
add('contract', 'normalize3_x', 'normalize(vec3(a, b, c)).x');
add('contract', 'normalize3_z', 'normalize(vec3(a, b, c)).z');
add('contract', 'length2', 'length(vec2(a, b))', { sqrt_fma: 'sqrt(fma(b, b, a * a))', sqrt_fma2: 'sqrt(fma(a, a, b * b))' });
add('contract', 'length3', 'length(vec3(a, b, c))');
add('contract', 'length4', 'length(vec4(a, b, c, d))');
add('contract', 'distance2', 'distance(vec2(a, b), vec2(e, f))');
add('contract', 'distance3', 'distance(vec3(a, b, c), vec3(e, f, g))');
add('contract', 'reflect2_x', 'reflect(vec2(a, b), vec2(e, f)).x');
add('contract', 'reflect3_x', 'reflect(vec3(a, b, c), vec3(e, f, g)).x');
add('contract', 'faceforward_x', 'faceForward(vec2(a, b), vec2(c, d), vec2(e, f)).x');
add('contract', 'cross_x', 'cross(vec3(a, b, c), vec3(e, f, g)).x', { fuse_first: 'fma(b, g, -(c * f))', fuse_second: 'fma(-c, f, b * g)' });
add('contract', 'cross_z', 'cross(vec3(a, b, c), vec3(e, f, g)).z', { fuse_first: 'fma(a, f, -(b * e))', fuse_second: 'fma(-b, e, a * f)' });
add('contract', 'determinant2', 'determinant(mat2x2<f32>(a, b, c, d))', { fuse_first: 'fma(a, d, -(c * b))', fuse_second: 'fma(-c, b, a * d)' });
add('contract', 'determinant3', 'determinant(mat3x3<f32>(a, b, c, d, e, f, g, h, a))');
// factoring: the compiler rewrites a*x + a*y as a*(x + y) (found through dot(v, w) with a shared component)
add('factor', 'shared_dot3', 'dot(vec3(a, b, c), vec3(d, a, b))', { factored: 'fma(a, d + b, c * b)' });
add('factor', 'factor_add', 'a * b + a * c', { factored: 'a * (b + c)' });
add('factor', 'factor_sub', 'a * b - a * c', { factored: 'a * (b - c)' });
add('factor', 'factor_add3', 'a * b + c * d + a * e', { factored: 'fma(a, b + e, c * d)' });
// division
add('divide', 'div', 'a / b', { rcp: 'a * (1.0 / b)' });
add('divide', 'recip', '1.0 / a');
add('divide', 'div_sub', 'a / b - c', { rcp_fused: 'fma(a, 1.0 / b, -c)' });
add('divide', 'div_add', 'a / b + c', { rcp_fused: 'fma(a, 1.0 / b, c)' });
add('divide', 'div_const3', 'a / 3.0', { mul_rcp: 'a * (1.0 / 3.0)' });
add('divide', 'div_const01', 'a / 0.1', { mul_rcp: 'a * (1.0 / 0.1)' });
add('divide', 'div_pow2', 'a / 4.0', { mul: 'a * 0.25' });
add('divide', 'recip_mul', 'a * (1.0 / b)');
add('divide', 'loop_div', null, {}, { body: 'var s = 0.0; for (var k = 0u; k < 3u; k++) { s += (a + f32(k)) / b; } let r : f32 = s;' });
add('divide', 'rsqrt_div', '1.0 / sqrt(a)', { rsq: 'inverseSqrt(a)' });
add('divide', 'div_sqrt', 'b / sqrt(a)', { rsq: 'b * inverseSqrt(a)' });
// re-association with constants
add('reassoc', 'sub_mul', '(a - 0.5) * 0.1', { fma: 'fma(a, 0.1, -0.05)' });
add('reassoc', 'add_mul', '(a + 1.0) * 3.0', { fma: 'fma(a, 3.0, 3.0)' });
add('reassoc', 'mul_mul', 'a * 2.5 * 3.0', { folded: 'a * 7.5' });
add('reassoc', 'add_add', 'a + 0.1 + 0.2', { folded: 'a + (0.1 + 0.2)' });
add('reassoc', 'sum_half', '(a + b) * 0.5', { fma: 'fma(a, 0.5, b * 0.5)' });
add('reassoc', 'mul_add_mul', '(a * 0.5 + 0.25) * 2.0', { fma: 'fma(a, 1.0, 0.5)' });
add('reassoc', 'add_sub', '(a + b) - a', { folded: 'b' });
add('reassoc', 'mul_zero', 'a * 0.0', { folded: '0.0' });
add('reassoc', 'sub_zero', 'a - 0.0', { folded: 'a' });
add('reassoc', 'zero_sub', '0.0 - a', { folded: '-a' });
add('reassoc', 'zero_div', '0.0 / a', { folded: '0.0' });
add('reassoc', 'fma_zero', 'fma(0.0, a, b)', { folded: 'b' });
add('reassoc', 'fma_zero_c', 'fma(a, b, 0.0)', { folded: 'a * b' });
add('reassoc', 'mix_zero', 'mix(a, b, 0.0)', { folded: 'a' });
add('reassoc', 'mix_one', 'mix(a, b, 1.0)', { folded: 'b' });
add('reassoc', 'sub_add', '(a - b) + b', { folded: 'a' });
add('reassoc', 'add_sub_b', '(a + b) - b', { folded: 'a' });
add('reassoc', 'sub_sub', '(a - b) - a', { folded: '-b' });
add('reassoc', 'mul_div', '(a * b) / b');
add('reassoc', 'const_add_mul', '0.25 + a * 2.0');
add('reassoc', 'mul_neg_const', '(a + 2.0) * -3.0', { fma: 'fma(a, -3.0, -6.0)' });
add('reassoc', 'var_const', null, { fma: 'fma(a, 0.1, -0.05)' }, { body: 'var k = 0.5; let r : f32 = (a - k) * 0.1;' });
// flushing and the sign of zero, per builtin (rows of kind 4 and 7)
for (const [name, expr] of [
  ['copy', 'a'], ['neg', '-a'], ['abs', 'abs(a)'], ['min', 'min(a, c)'], ['max', 'max(a, c)'],
  ['clamp', 'clamp(a, -abs(c), abs(d))'], ['sign', 'sign(a)'], ['floor', 'floor(a)'], ['ceil', 'ceil(a)'],
  ['round', 'round(a)'], ['trunc', 'trunc(a)'], ['fract', 'fract(a)'], ['saturate', 'saturate(a)'],
  ['select', 'select(a, c, d > 0.0)'], ['mul_one', 'a * 1.0'], ['add_zero', 'a + 0.0'], ['add', 'a + c'],
  ['mul', 'a * b'], ['fma', 'fma(a, b, c)'], ['ldexp', 'ldexp(a, 3)'], ['frexp_fract', 'frexp(a).fract'],
  ['modf_fract', 'modf(a).fract'], ['rem', 'a % b'], ['step', 'step(a, c)'], ['sqrt', 'sqrt(a)'],
  ['inverseSqrt', 'inverseSqrt(a)'], ['exp', 'exp(a)'], ['exp2', 'exp2(a)'], ['log', 'log(a)'],
  ['log2', 'log2(a)'], ['pow', 'pow(a, b)'], ['sin', 'sin(a)'], ['cos', 'cos(a)'], ['tan', 'tan(a)'],
  ['asin', 'asin(a)'], ['acos', 'acos(a)'], ['atan', 'atan(a)'], ['atan2', 'atan2(a, b)'],
  ['sinh', 'sinh(a)'], ['cosh', 'cosh(a)'], ['tanh', 'tanh(a)'], ['asinh', 'asinh(a)'],
  ['acosh', 'acosh(a)'], ['atanh', 'atanh(a)'], ['degrees', 'degrees(a)'], ['radians', 'radians(a)'],
  ['dot1', 'dot(vec2(a, 0.0), vec2(b, 0.0))'], ['quantize', 'quantizeToF16(a)'],
]) add('builtin', name, expr);
// transcendental building blocks: candidate constructions from the units
add('unit', 'exp_from_exp2', 'exp(b)', { exp2_mul: 'exp2(b * 1.44269504)' });
add('unit', 'log_from_log2', 'log(abs(b))', { log2_mul: 'log2(abs(b)) * 0.693147181' });
add('unit', 'pow_pos', 'pow(abs(a), b)', { exp2_log2: 'exp2(b * log2(abs(a)))' });
add('unit', 'tan_pos', 'tan(b)', { sin_cos: 'sin(b) / cos(b)', sin_rcp: 'sin(b) * (1.0 / cos(b))' });
add('unit', 'tanh_b', 'tanh(b)');
add('unit', 'sinh_b', 'sinh(b)', { exp_diff: '(exp(b) - exp(-b)) * 0.5' });
add('unit', 'cosh_b', 'cosh(b)', { exp_sum: '(exp(b) + exp(-b)) * 0.5' });
add('unit', 'atan_b', 'atan(b)');
add('unit', 'asin_unit', 'asin(d)');
add('unit', 'acos_unit', 'acos(d)');
// whole small programs (one value each): what a shader of users does, all rules at once
add('program', 'particle', null, {}, { body: `var p = vec2(a, b); var v = vec2(c, d);
  for (var k = 0; k < 8; k++) { v = v + vec2(0.0, -9.8) * 0.016; v = v * 0.99; p = p + v * 0.016; }
  let r : f32 = p.y + p.x * 0.5;` });
add('program', 'softmax', null, {}, { body: `let m = max(max(a, b), max(c, d));
  let ea = exp(a - m); let eb = exp(b - m); let ec = exp(c - m); let ed = exp(d - m);
  let r : f32 = eb / (ea + eb + ec + ed);` });
add('program', 'layernorm', null, {}, { body: `let mean = (a + b + c + d) * 0.25;
  let va = ((a - mean) * (a - mean) + (b - mean) * (b - mean) + (c - mean) * (c - mean) + (d - mean) * (d - mean)) * 0.25;
  let r : f32 = (c - mean) * inverseSqrt(va + 1e-5) * e + f;` });
add('program', 'blur5', null, {}, { body: `let w = array<f32, 5>(0.0625, 0.25, 0.375, 0.25, 0.0625);
  let x = array<f32, 5>(a, b, c, d, e);
  var s = 0.0;
  for (var k = 0; k < 5; k++) { s += w[k] * x[k]; }
  let r : f32 = s;` });
add('program', 'boids', null, {}, { body: `let pos = vec2(a, b); let vel = vec2(c, d); let other = vec2(e, f);
  var dv = (other - pos) * 0.02 - vel * 0.05;
  var nv = vel + dv;
  nv = normalize(nv) * clamp(length(nv), 0.0, 0.1);
  let r : f32 = nv.x + (pos + nv).y;` });
add('program', 'mlp', null, {}, { body: `let x = vec4(a, b, c, d);
  let w0 = vec4(0.5, -0.25, 0.125, 0.75); let w1 = vec4(-0.3, 0.6, 0.1, -0.2);
  let h0 = max(dot(x, w0) + 0.1, 0.0); let h1 = max(dot(x, w1) - 0.05, 0.0);
  let r : f32 = tanh(h0 * 1.5 - h1 * 0.7 + e);` });
add('program', 'raysphere', null, {}, { body: `let o = vec3(a, b, c); let dir = normalize(vec3(e, f, g));
  let oc = o - vec3(0.0, 0.0, 5.0);
  let bq = dot(oc, dir); let cq = dot(oc, oc) - 1.0;
  let disc = bq * bq - cq;
  let r : f32 = select(-1.0, -bq - sqrt(max(disc, 0.0)), disc > 0.0);` });
add('program', 'lerp_color', null, {}, { body: `let c0 = vec3(a, b, c); let c1 = vec3(e, f, g);
  let t = fract(d);
  let col = mix(c0, c1, t) * 0.8 + 0.1;
  let r : f32 = dot(col, vec3(0.2126, 0.7152, 0.0722));` });
add('program', 'horner', null, {}, { body: `let x = fract(a);
  let r : f32 = ((((0.008333 * x - 0.041667) * x + 0.166667) * x - 0.5) * x + 1.0) * x;` });
add('program', 'div_loop', null, {}, { body: `var s = 0.0; let inv = b;
  for (var k = 0; k < 4; k++) { s = s + (a + f32(k) * c) / inv; }
  let r : f32 = s;` });
add('program', 'fn_chain', null, {}, { decls: `fn sq(x : f32) -> f32 { return x * x; }
fn sub_mul(x : f32, y : f32, z : f32) -> f32 { return x * y - z; }`, body: `let r : f32 = sub_mul(sq(a), b, c) + sq(d);` });
add('program', 'atan_angle', null, {}, { body: `let ang = atan2(b, a);
  let r : f32 = sin(ang) * length(vec2(a, b)) - b;` });

// loop folding (round 3): what the compiler makes of a constant-trip loop that multiplies by a
// constant - the powers it folds (pow_loop_N: v = a * 0.99^N), the sums of terms it builds
// (sum_loop_N: p = b + sum of v_k * 0.016), the same written out by hand (unrolled), and the
// particle probe's two halves apart
for (const n of [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16]) {
  add('loopfold', `pow_loop_${n}`, null, {}, { body: `var v = a; for (var k = 0; k < ${n}; k++) { v = v * 0.99; } let r : f32 = v;` });
}
add('loopfold', 'pow_unrolled_8', null, {}, { body: `var v = a; ${'v = v * 0.99; '.repeat(8)}let r : f32 = v;` });
for (const n of [3, 4, 6, 8]) {
  add('loopfold', `sum_loop_${n}`, null, {}, { body: `var p = b; var v = a; for (var k = 0; k < ${n}; k++) { v = v * 0.99; p = p + v * 0.016; } let r : f32 = p;` });
}
add('loopfold', 'sum_unrolled_8', null, {}, { body: `var p = b; var v = a; ${'v = v * 0.99; p = p + v * 0.016; '.repeat(8)}let r : f32 = p;` });
add('loopfold', 'particle_x', null, {}, { body: `var p = vec2(a, b); var v = vec2(c, d);
  for (var k = 0; k < 8; k++) { v = v + vec2(0.0, -9.8) * 0.016; v = v * 0.99; p = p + v * 0.016; }
  let r : f32 = p.x;` });
add('loopfold', 'particle_y', null, {}, { body: `var p = vec2(a, b); var v = vec2(c, d);
  for (var k = 0; k < 8; k++) { v = v + vec2(0.0, -9.8) * 0.016; v = v * 0.99; p = p + v * 0.016; }
  let r : f32 = p.y;` });
add('loopfold', 'div_unrolled_3', null, {}, { body: `let r : f32 = (a + 0.0) / b + (a + 1.0) / b + (a + 2.0) / b;` });
// which term's constant a longer loop folds another way (round 4): the sums for more trip
// counts, the sum of v itself (its constants are the powers), and a power-of-two step (exact:
// the constants are the powers again)
for (const n of [5, 7, 10, 12, 16]) {
  add('loopfold', `sum_loop_${n}`, null, {}, { body: `var p = b; var v = a; for (var k = 0; k < ${n}; k++) { v = v * 0.99; p = p + v * 0.016; } let r : f32 = p;` });
}
for (const n of [6, 8, 12]) {
  add('loopfold', `sumv_loop_${n}`, null, {}, { body: `var p = b; var v = a; for (var k = 0; k < ${n}; k++) { v = v * 0.99; p = p + v; } let r : f32 = p;` });
  add('loopfold', `sumq_loop_${n}`, null, {}, { body: `var p = b; var v = a; for (var k = 0; k < ${n}; k++) { v = v * 0.9; p = p + v * 0.25; } let r : f32 = p;` });
}
// one integration step, as a particle system's compute shader does once per frame: gravity,
// drag, position, a bounce off the floor and a respawn when the particle's life runs out
add('program', 'particle_step', null, {}, { body: `var pos = vec2(a, b); var vel = vec2(c, d); let dt = 0.016;
  vel = vel + vec2(0.0, -9.8) * dt;
  vel = vel * (1.0 - 0.5 * dt);
  pos = pos + vel * dt;
  if (pos.y < 0.0) { pos.y = -pos.y * 0.5; vel.y = -vel.y * 0.8; }
  let r : f32 = pos.x + pos.y * 0.25 + vel.y * 0.125;` });
add('program', 'particle_life', null, {}, { body: `var pos = vec3(a, b, c); var vel = vec3(e, f, g); var life = fract(d) * 2.0;
  let dt = 0.02;
  vel = vel * 0.98 + vec3(0.0, -1.0, 0.0) * dt;
  pos = pos + vel * dt;
  life = life - dt;
  if (life < 0.0) { pos = vec3(h, 0.0, -h); vel = normalize(vec3(e, 1.0, f)) * 0.5; life = 1.0; }
  let r : f32 = dot(pos, vec3(1.0, 0.5, 0.25)) + vel.y + life * 0.0625;` });
export const PROBES = P;
