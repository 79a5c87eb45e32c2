// Bradley–Terry fit of a group's pairwise comparisons (issue 37, `--judging pairwise`): each
// rollout i has a strength θᵢ and P(i beats j) = σ(θᵢ − θⱼ). A tie counts half a win to each
// side (the usual convention, and what a judge that flips with the order produces when both
// orders are asked). The fit is the maximum a posteriori estimate under a Gaussian prior
// θ ~ N(0, σ²): the prior keeps the estimate finite when one rollout wins every comparison
// (plain maximum likelihood sends θ to ∞) and identifies the scale when all are tied. The
// log posterior is strictly concave, so Newton's method with a step-halving guard finds the
// one optimum; the answer does not depend on the order comparisons are listed in, up to the
// rounding of sums (callers that need exact equality list them in a canonical order).
//
// A strength is not a reward: the reward of i is its expected win rate against a groupmate
// drawn at random, mean over j≠i of σ(θᵢ − θⱼ), a number in (0, 1) whose mean over a group is
// exactly 0.5 — what a GRPO advantage, which only reads the ranking and spread inside a
// group, needs.

/** One comparison of rollout `i` with rollout `j`: `score` 1 = i won, 0 = j won, 0.5 = tie. */
export interface Comparison {
  i: number;
  j: number;
  score: 0 | 0.5 | 1;
}

export interface BradleyTerryFit {
  /** Strength of each rollout (log-odds scale, mean ≈ 0 under the prior). */
  theta: number[];
  /** Expected win rate against a random groupmate, in (0, 1). */
  scores: number[];
  /** Newton iterations used. */
  iterations: number;
}

/** Prior standard deviation of a strength: σ = 2 lets a unanimous winner reach p ≈ 0.9 over a groupmate, not 1. */
export const BT_PRIOR_SD = 2;

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function logPosterior(theta: readonly number[], comps: readonly Comparison[], tau: number): number {
  let lp = 0;
  for (const c of comps) {
    const d = theta[c.i]! - theta[c.j]!;
    // log σ(d) = −log(1 + e^{−d}), computed without overflow.
    const logP = -softplus(-d);
    const logQ = -softplus(d);
    lp += c.score * logP + (1 - c.score) * logQ;
  }
  for (const t of theta) lp -= (t * t) / (2 * tau * tau);
  return lp;
}

function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/** Solves A x = b for a symmetric positive-definite A (Gaussian elimination, partial pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, r) => [...row, b[r]!]);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[piv]![col]!)) piv = r;
    [m[col], m[piv]] = [m[piv]!, m[col]!];
    const p = m[col]![col]!;
    for (let r = col + 1; r < n; r++) {
      const f = m[r]![col]! / p;
      if (f === 0) continue;
      for (let k = col; k <= n; k++) m[r]![k]! -= f * m[col]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/**
 * Fits strengths of `n` rollouts from `comparisons` (maximum a posteriori, Gaussian prior of
 * standard deviation `priorSd`) and maps them to expected win rates. A rollout with no
 * comparison keeps θ = 0. Throws on an index outside [0, n).
 */
export function fitBradleyTerry(
  n: number,
  comparisons: readonly Comparison[],
  priorSd = BT_PRIOR_SD,
): BradleyTerryFit {
  for (const c of comparisons) {
    if (!(c.i >= 0 && c.i < n && c.j >= 0 && c.j < n) || c.i === c.j)
      throw new RangeError(`comparison (${c.i}, ${c.j}) is outside a group of ${n}`);
  }
  const tau = priorSd;
  let theta = new Array<number>(n).fill(0);
  let lp = logPosterior(theta, comparisons, tau);
  let iterations = 0;
  for (; iterations < 100; iterations++) {
    // Gradient and (negated) Hessian of the log posterior.
    const g = theta.map((t) => -t / (tau * tau));
    const h = Array.from({ length: n }, (_, r) =>
      Array.from({ length: n }, (_, k) => (r === k ? 1 / (tau * tau) : 0)),
    );
    for (const c of comparisons) {
      const p = sigmoid(theta[c.i]! - theta[c.j]!);
      const r = c.score - p;
      g[c.i]! += r;
      g[c.j]! -= r;
      const w = p * (1 - p);
      h[c.i]![c.i]! += w;
      h[c.j]![c.j]! += w;
      h[c.i]![c.j]! -= w;
      h[c.j]![c.i]! -= w;
    }
    if (Math.max(0, ...g.map(Math.abs)) < 1e-12) break;
    const step = solve(h, g);
    // Newton on a strictly concave function: halve the step until the posterior rises.
    let t = 1;
    let next = theta.map((v, k) => v + t * step[k]!);
    let nextLp = logPosterior(next, comparisons, tau);
    while (nextLp < lp && t > 1e-6) {
      t /= 2;
      next = theta.map((v, k) => v + t * step[k]!);
      nextLp = logPosterior(next, comparisons, tau);
    }
    if (nextLp < lp) break;
    const moved = Math.max(0, ...step.map((s) => Math.abs(t * s)));
    theta = next;
    lp = nextLp;
    if (moved < 1e-13) break;
  }
  const scores = theta.map((ti, i) => {
    if (n < 2) return 0.5;
    let s = 0;
    for (let j = 0; j < n; j++) if (j !== i) s += sigmoid(ti - theta[j]!);
    return s / (n - 1);
  });
  return { theta, scores, iterations };
}
