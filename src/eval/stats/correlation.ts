// Pearson r and Spearman ρ over paired scores. Both come from simple-statistics; its
// sampleRankCorrelation ranks with midranks (ties share the average of the ranks they span),
// which is the textbook Spearman ρ with ties. What we add is the edge-case contract:
// an undefined correlation is `null`, never NaN and never a throw.
import { sampleCorrelation, sampleRankCorrelation } from 'simple-statistics';

/** Fewer than two pairs, unequal lengths, non-finite input or a constant side → null. */
function usable(x: readonly number[], y: readonly number[]): boolean {
  if (x.length !== y.length || x.length < 2) return false;
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) return false;
  }
  return !isConstant(x) && !isConstant(y);
}

export function isConstant(v: readonly number[]): boolean {
  for (let i = 1; i < v.length; i++) if (v[i] !== v[0]) return false;
  return true;
}

/** Floating error can push a perfect correlation a hair past ±1; pin it back. */
function clamp(r: number): number | null {
  if (!Number.isFinite(r)) return null;
  return Math.max(-1, Math.min(1, r));
}

/** Pearson product-moment correlation r, or null when undefined (constant side, n < 2). */
export function pearson(x: readonly number[], y: readonly number[]): number | null {
  if (!usable(x, y)) return null;
  return clamp(sampleCorrelation(x as number[], y as number[]));
}

/** Spearman ρ with average ranks for ties, or null when undefined. */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (!usable(x, y)) return null;
  return clamp(sampleRankCorrelation(x as number[], y as number[]));
}
