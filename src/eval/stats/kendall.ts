// Kendall's τ-b and the pair counts behind it (concordant, discordant, ties), in O(n log n)
// by Knight's method: sort by (x, y), then count the inversions left in y with a merge sort.
// Goodman–Kruskal γ reuses the same counts, so both statistics agree on what a tie is.

export interface PairCounts {
  /** Number of items. */
  n: number;
  /** Pairs ordered the same way by x and by y (no tie in either). */
  concordant: number;
  /** Pairs ordered opposite ways by x and by y (no tie in either). */
  discordant: number;
  /** Pairs tied in x (including those also tied in y). */
  tiedX: number;
  /** Pairs tied in y (including those also tied in x). */
  tiedY: number;
  /** Pairs tied in both. */
  tiedXY: number;
}

/** Σ t(t−1)/2 over runs of equal values in an already sorted sequence (by `same`). */
function tiedPairs(n: number, same: (i: number) => boolean): number {
  let total = 0;
  let run = 1;
  for (let i = 1; i < n; i++) {
    if (same(i)) run++;
    else {
      total += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  return total + (run * (run - 1)) / 2;
}

/** Sorts `a` in place (ascending) and returns how many strict inversions it held. */
function countInversions(a: number[]): number {
  const buf = new Array<number>(a.length);
  let swaps = 0;
  for (let width = 1; width < a.length; width *= 2) {
    for (let lo = 0; lo < a.length - width; lo += 2 * width) {
      const mid = lo + width;
      const hi = Math.min(lo + 2 * width, a.length);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        // `<=` keeps equal values in place: equal y values are ties, not inversions.
        if (a[i]! <= a[j]!) buf[k++] = a[i++]!;
        else {
          swaps += mid - i;
          buf[k++] = a[j++]!;
        }
      }
      while (i < mid) buf[k++] = a[i++]!;
      while (j < hi) buf[k++] = a[j++]!;
      for (let t = lo; t < hi; t++) a[t] = buf[t]!;
    }
  }
  return swaps;
}

/** Counts concordant, discordant and tied pairs of (x[i], y[i]). Lengths must match. */
export function pairCounts(x: readonly number[], y: readonly number[]): PairCounts {
  const n = Math.min(x.length, y.length);
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((i, j) => x[i]! - x[j]! || y[i]! - y[j]!);
  const xs = order.map((i) => x[i]!);
  const ys = order.map((i) => y[i]!);
  const tiedX = tiedPairs(n, (i) => xs[i] === xs[i - 1]);
  const tiedXY = tiedPairs(n, (i) => xs[i] === xs[i - 1] && ys[i] === ys[i - 1]);
  // Within an x-tie the ys are ascending, so every inversion is a pair with x strictly
  // ordered and y strictly reversed: exactly a discordant pair.
  const discordant = countInversions(ys);
  const tiedY = tiedPairs(n, (i) => ys[i] === ys[i - 1]);
  const all = (n * (n - 1)) / 2;
  const concordant = all - tiedX - tiedY + tiedXY - discordant;
  return { n, concordant, discordant, tiedX, tiedY, tiedXY };
}

/**
 * Kendall's τ-b = (C − D) / √((n0 − n1)(n0 − n2)), n0 = n(n−1)/2, n1 / n2 = pairs tied in
 * x / y. Null when undefined: fewer than two items, non-finite input, or a constant side.
 */
export function kendallTauB(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length || x.length < 2) return null;
  if (!x.every(Number.isFinite) || !y.every(Number.isFinite)) return null;
  const c = pairCounts(x, y);
  const all = (c.n * (c.n - 1)) / 2;
  const denom = Math.sqrt((all - c.tiedX) * (all - c.tiedY));
  if (denom === 0) return null;
  return Math.max(-1, Math.min(1, (c.concordant - c.discordant) / denom));
}
