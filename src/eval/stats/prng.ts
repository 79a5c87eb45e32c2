// A small seeded pseudo-random source for the bootstrap. Node has no seedable generator,
// and a reported confidence interval must be reproducible from `--seed`, so we keep one here.
// The generator is a 32-bit mulberry-style mixer: fast, well-spread, and plenty for resampling
// (it is not cryptographic and never used for anything secret).

/** Returns a function yielding floats in [0, 1), fully determined by `seed`. */
export function seededRandom(seed: number): () => number {
  // Fold any finite number (negative, fractional, huge) into an unsigned 32-bit state.
  let state = (Math.trunc(Number.isFinite(seed) ? seed : 0) ^ 0x9e3779b9) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
