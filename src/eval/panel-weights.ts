// Fitting a judge panel's weights to human pairwise votes (`rubrica align --fit-weights`,
// issue 37 item 4). Each vote compares rollouts a and b; judge j's evidence is d_j = its score
// of a minus its score of b (or ±1 / 0 from its own choice on that pair). The panel's score
// difference is Σ w_j·d_j, and people prefer a with probability σ(β·Σ w_j·d_j) — a
// Bradley–Terry / logistic model without intercept (a picture's place must not matter). With
// v = β·w ≥ 0 the log-likelihood is concave in v, so projected gradient ascent on v ≥ 0 finds
// its maximum; w = v / Σv (≥ 0, summing to 1) and β = Σv. A tie counts one half for each side.
// A tiny ridge keeps v finite when the votes are separable.
import type { PairwiseVote, Predictions } from './stats/align-input.ts';

export const PANEL_WEIGHTS_KIND = 'rubrica.panel-weights';

export interface PanelWeightsFile {
  kind: typeof PANEL_WEIGHTS_KIND;
  version: 1;
  /** The judges in `--pred` order, by their NAME (give each its --judge spec). */
  judges: string[];
  /** ≥ 0, summing to 1, in `judges` order. */
  weights: number[];
  /** β: how sharply the weighted score difference predicts the vote (log-odds per unit). */
  scale: number;
  /** Votes used (every judge had evidence on both pictures) and left out. */
  votes: number;
  skipped: number;
  /** Mean log loss of the fitted model and of equal weights at their own best β. */
  log_loss: number;
  log_loss_equal: number;
  fitted_at: string;
  sources?: Record<string, string>;
}

/** A panel weights fit that cannot be made (no usable vote): a stable code. */
export class PanelWeightsError extends Error {
  readonly code = 'no_votes';
}

interface Row {
  d: number[];
  y: number;
}

const sigmoid = (x: number) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x)));
const RIDGE = 1e-6;

/** One judge's evidence that a beats b: score difference, or its own choice on the pair. */
function evidence(p: Predictions, a: string, b: string): number | null {
  const sa = p.scores.get(a);
  const sb = p.scores.get(b);
  if (sa !== undefined && sb !== undefined) return sa - sb;
  for (const c of p.choices) {
    const sign = c.a === a && c.b === b ? 1 : c.a === b && c.b === a ? -1 : 0;
    if (sign !== 0) return c.winner === 'tie' ? 0 : (c.winner === 'a' ? 1 : -1) * sign;
  }
  return null;
}

function meanLogLoss(rows: readonly Row[], v: readonly number[]): number {
  let s = 0;
  for (const { d, y } of rows) {
    const z = d.reduce((acc, x, j) => acc + x * v[j]!, 0);
    s -=
      y * Math.log(Math.max(sigmoid(z), 1e-300)) +
      (1 - y) * Math.log(Math.max(sigmoid(-z), 1e-300));
  }
  return s / rows.length;
}

/** Maximises the ridge-penalised likelihood over v ≥ 0 (projected gradient, step 1/L). */
export function fitNonNegativeLogistic(
  rows: readonly Row[],
  dims: number,
  iters = 20000,
): number[] {
  // The gradient is Lipschitz with L ≤ ¼ Σ‖d‖² + ridge: a step of 1/L never overshoots.
  const lip = rows.reduce((s, r) => s + r.d.reduce((a, x) => a + x * x, 0), 0) / 4 + RIDGE;
  const step = 1 / lip;
  let v = new Array<number>(dims).fill(0);
  for (let t = 0; t < iters; t++) {
    const g = v.map((x) => -RIDGE * x);
    for (const { d, y } of rows) {
      const z = d.reduce((acc, x, j) => acc + x * v[j]!, 0);
      const r = y - sigmoid(z);
      for (let j = 0; j < dims; j++) g[j]! += r * d[j]!;
    }
    const next = v.map((x, j) => Math.max(0, x + step * g[j]!));
    const moved = next.reduce((m, x, j) => Math.max(m, Math.abs(x - v[j]!)), 0);
    v = next;
    if (moved < 1e-12) break;
  }
  return v;
}

/** Fits weights for the judges (in order) from people's pairwise votes; see the header. */
export function fitPanelWeights(
  judges: readonly { name: string; predictions: Predictions }[],
  votes: readonly PairwiseVote[],
  opts: { now?: () => Date; sources?: Record<string, string> } = {},
): PanelWeightsFile {
  const rows: Row[] = [];
  let skipped = 0;
  for (const vote of votes) {
    const d = judges.map((j) => evidence(j.predictions, vote.a, vote.b));
    if (d.some((x) => x === null)) {
      skipped++;
      continue;
    }
    rows.push({ d: d as number[], y: vote.winner === 'a' ? 1 : vote.winner === 'b' ? 0 : 0.5 });
  }
  if (rows.length === 0)
    throw new PanelWeightsError('no human vote compares two rollouts every judge scored');
  const v = fitNonNegativeLogistic(rows, judges.length);
  const beta = v.reduce((a, b) => a + b, 0);
  // No judge predicts the votes at all: equal weights, said by scale 0.
  const weights = beta > 0 ? v.map((x) => x / beta) : judges.map(() => 1 / judges.length);
  // Equal weights at their own best β: the same fit on the mean evidence alone.
  const mean = rows.map((r) => ({ d: [r.d.reduce((a, b) => a + b, 0) / r.d.length], y: r.y }));
  const eq = fitNonNegativeLogistic(mean, 1);
  return {
    kind: PANEL_WEIGHTS_KIND,
    version: 1,
    judges: judges.map((j) => j.name),
    weights,
    scale: beta,
    votes: rows.length,
    skipped,
    log_loss: meanLogLoss(rows, v),
    log_loss_equal: meanLogLoss(mean, eq),
    fitted_at: (opts.now ?? (() => new Date()))().toISOString(),
    ...(opts.sources ? { sources: opts.sources } : {}),
  };
}
