// The rows every probe reads: eight f32 (a..h) per row, a deterministic function of the row
// count.  Row i's kind is i % 8, each kind made to expose one effect:
//   0 random values of exponents -6..6, either sign (rounding of products and sums)
//   1 c = -(a*b rounded) * (1 + tiny): a*b + c cancels, so a fused and an unfused sum differ widely
//   2 c = +(a*b rounded) * (1 + tiny): the same for a*b - c and c - a*b
//   3 a, b, c in [0, 1), d in (-1, 1): blend factors, smoothstep's t, normalised vectors
//   4 a and c subnormal, d tiny: flushing of inputs and results
//   5 special values from a list (signed zeros, powers of two, the f32 limits, 0.1, 3)
//   6 random values of exponents -30..30
//   7 a = -0.0, the rest random: the sign of zero through each builtin
// e..h follow the kind of a..d (rows 1 and 2: g = -+(e*f rounded) * (1 + tiny)).
export const SPECIAL = [0, -0, 1, -1, 0.5, -0.5, 2, 3, 0.1, -0.1, 2 ** -126, -(2 ** -126), 2 ** -149,
  -(2 ** -149), 2 ** -127 * 1.5, 3.4028234663852886e38, -3.4028234663852886e38, 1e-30, 65504, 1e10];

export function makeInputs(rows) {
  const u = new Uint32Array(rows * 8), f = new Float32Array(u.buffer);
  let s = 0x9e3779b97f4a7c15n;
  const next = () => { // xorshift64*
    s ^= s >> 12n; s ^= (s << 25n) & 0xffffffffffffffffn; s ^= s >> 27n;
    return Number(((s * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn) >> 32n);
  };
  const unit = () => next() / 2 ** 32;
  const rand = (emin, emax) => {
    const m = 1 + (next() >>> 9) / 2 ** 23, e = emin + (next() % (emax - emin + 1));
    return Math.fround((next() & 1 ? -1 : 1) * m * 2 ** e);
  };
  const sub = () => Math.fround((next() & 1 ? -1 : 1) * ((next() & 0x7fffff) || 1) * 2 ** -149);
  const quad = (k) => {
    const r = [rand(-6, 6), rand(-6, 6), rand(-6, 6), rand(-6, 6)];
    if (k === 1 || k === 2) {
      const p = Math.fround(r[0] * r[1]) * (1 + (unit() - 0.5) * 2 ** -12);
      r[2] = Math.fround(k === 1 ? -p : p);
    } else if (k === 3) {
      r[0] = Math.fround(unit()); r[1] = Math.fround(unit()); r[2] = Math.fround(unit());
      r[3] = Math.fround(unit() * 2 - 1);
    } else if (k === 4) {
      r[0] = sub(); r[2] = sub(); r[3] = rand(-126, -120);
    } else if (k === 5) {
      for (let j = 0; j < 4; j++) r[j] = SPECIAL[next() % SPECIAL.length];
    } else if (k === 6) {
      for (let j = 0; j < 4; j++) r[j] = rand(-30, 30);
    } else if (k === 7) {
      r[0] = -0;
    }
    return r;
  };
  for (let i = 0; i < rows; i++) {
    const r = [...quad(i % 8), ...quad(i % 8)];
    if (i % 8 === 7) r[4] = rand(-6, 6);
    for (let j = 0; j < 8; j++) f[i * 8 + j] = r[j];
  }
  return u;
}
