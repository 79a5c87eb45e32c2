// Agreement statistics for human studies: the exact binomial test (is a judge's share of
// first-position picks different from 50%?), Fleiss' κ and raw pairwise agreement for
// categorical choices by several raters, and Krippendorff's α (interval and nominal) for
// ratings where raters may skip items. Written here because simple-statistics has none of
// them and scipy/R are not at hand; the tests check each against published worked examples.

/** ln(n!) by summing logs: exact enough for the counts a study has (thousands). */
function logFactorial(n: number): number {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
}

function binomialPmfs(n: number, p: number): number[] {
  const lf = logFactorial(n);
  const out: number[] = [];
  let lfk = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 1) lfk += Math.log(k);
    const lfnk = logFactorial(n - k);
    const logp =
      lf -
      lfk -
      lfnk +
      (k === 0 ? 0 : k * Math.log(p)) +
      (n - k === 0 ? 0 : (n - k) * Math.log(1 - p));
    out.push(Math.exp(logp));
  }
  return out;
}

/**
 * Two-sided exact binomial test of k successes in n trials against probability p: the sum of
 * the probabilities of every outcome no more likely than the one observed (scipy's
 * `binomtest(...).pvalue` definition, with the same 1 + 1e-7 relative tolerance for equal
 * probabilities). Null when n = 0.
 */
export function binomialTest(k: number, n: number, p = 0.5): number | null {
  if (n <= 0 || k < 0 || k > n || p <= 0 || p >= 1) return null;
  const pmf = binomialPmfs(n, p);
  const observed = pmf[k]! * (1 + 1e-7);
  let total = 0;
  for (const q of pmf) if (q <= observed) total += q;
  return Math.min(1, total);
}

export interface FleissResult {
  /** Fleiss' κ; null when undefined (fewer than one item, or chance agreement of 1). */
  kappa: number | null;
  /** P̄: mean over items of the share of agreeing rater couples (raw pairwise agreement). */
  observed: number | null;
  /** P̄e: agreement expected by chance from the pooled category shares. */
  expected: number | null;
  /** Items with at least two ratings (the others cannot show agreement and are left out). */
  items: number;
}

/**
 * Fleiss' κ from a table of counts: one row per item, one column per category, each cell
 * the number of raters who put the item in that category. Rows may have different totals
 * (raters who skipped an item); rows with fewer than two ratings are left out.
 */
export function fleissKappa(counts: readonly (readonly number[])[]): FleissResult {
  const rows = counts.filter((r) => r.reduce((a, b) => a + b, 0) >= 2);
  if (rows.length === 0) return { kappa: null, observed: null, expected: null, items: 0 };
  const k = Math.max(...rows.map((r) => r.length));
  const totals = new Array<number>(k).fill(0);
  let ratings = 0;
  let sumP = 0;
  for (const r of rows) {
    const n = r.reduce((a, b) => a + b, 0);
    let sq = 0;
    r.forEach((c, j) => {
      sq += c * c;
      totals[j]! += c;
    });
    ratings += n;
    sumP += (sq - n) / (n * (n - 1));
  }
  const observed = sumP / rows.length;
  const expected = totals.reduce((s, t) => s + (t / ratings) ** 2, 0);
  const kappa = expected < 1 ? (observed - expected) / (1 - expected) : null;
  return { kappa, observed, expected, items: rows.length };
}

export type AlphaMetric = 'interval' | 'nominal';

export interface AlphaResult {
  /** Krippendorff's α; null when there is no pairable value or no variation at all. */
  alpha: number | null;
  /** Units with at least two values (only those are pairable). */
  units: number;
  /** Pairable values n. */
  values: number;
}

const DELTA: Record<AlphaMetric, (a: number, b: number) => number> = {
  interval: (a, b) => (a - b) ** 2,
  nominal: (a, b) => (a === b ? 0 : 1),
};

/**
 * Krippendorff's α = 1 − Do/De for units rated by any subset of raters. `units` holds, per
 * unit, the values it received (missing ratings simply absent). Do averages δ over ordered
 * pairs of values inside a unit, each unit weighted 1/(m_u − 1); De averages δ over all
 * ordered pairs of pairable values (Krippendorff 2011, "Computing Krippendorff's
 * Alpha-Reliability", the coincidence-matrix form written out pair by pair).
 */
export function krippendorffAlpha(
  units: readonly (readonly number[])[],
  metric: AlphaMetric = 'interval',
): AlphaResult {
  const delta = DELTA[metric];
  const pairable = units.filter((u) => u.length >= 2);
  const all = pairable.flat();
  const n = all.length;
  if (n < 2) return { alpha: null, units: pairable.length, values: n };
  let within = 0;
  for (const u of pairable) {
    let s = 0;
    for (let i = 0; i < u.length; i++)
      for (let j = 0; j < u.length; j++) if (i !== j) s += delta(u[i]!, u[j]!);
    within += s / (u.length - 1);
  }
  const dObserved = within / n;
  let between = 0;
  if (metric === 'interval') {
    // Σ_{i≠j}(x_i − x_j)² = 2n·Σ(x − x̄)²: linear instead of quadratic in n.
    const mean = all.reduce((a, b) => a + b, 0) / n;
    between = 2 * n * all.reduce((s, x) => s + (x - mean) ** 2, 0);
  } else {
    const freq = new Map<number, number>();
    for (const x of all) freq.set(x, (freq.get(x) ?? 0) + 1);
    let same = 0;
    for (const c of freq.values()) same += c * (c - 1);
    between = n * (n - 1) - same;
  }
  const dExpected = between / (n * (n - 1));
  const alpha = dExpected > 0 ? 1 - dObserved / dExpected : null;
  return { alpha, units: pairable.length, values: n };
}
