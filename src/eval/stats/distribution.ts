// Describing a distribution of counts (output token lengths): mean, quantiles and a histogram
// with fixed bin edges, so two runs' histograms line up bin for bin in a comparison and a
// length-hacking run (hundreds → thousands of tokens) shows up as mass moving right.
import { mean, quantileSorted } from 'simple-statistics';

/** Bin edges in tokens; the last bin is open-ended. */
export const TOKEN_BIN_EDGES = [0, 250, 500, 1000, 2000, 4000, 8000, 16000] as const;

export interface HistogramBin {
  /** Inclusive lower edge. */
  lo: number;
  /** Exclusive upper edge; null for the open last bin. */
  hi: number | null;
  count: number;
}

export interface DistributionSummary {
  n: number;
  mean: number | null;
  min: number | null;
  max: number | null;
  /** Linear-interpolation quantiles (numpy's default); null when n = 0. */
  p10: number | null;
  p25: number | null;
  p50: number | null;
  p75: number | null;
  p90: number | null;
  p99: number | null;
  histogram: HistogramBin[];
}

export function histogram(values: readonly number[], edges: readonly number[]): HistogramBin[] {
  const bins: HistogramBin[] = edges.map((lo, i) => ({ lo, hi: edges[i + 1] ?? null, count: 0 }));
  for (const v of values) {
    // Values below the first edge (never for token counts) fall into the first bin.
    let i = bins.length - 1;
    while (i > 0 && v < bins[i]!.lo) i--;
    bins[i]!.count++;
  }
  return bins;
}

export function describe(
  values: readonly number[],
  edges: readonly number[] = TOKEN_BIN_EDGES,
): DistributionSummary {
  const finite = values.filter(Number.isFinite);
  const sorted = [...finite].sort((a, b) => a - b);
  const q = (p: number) => (sorted.length > 0 ? quantileSorted(sorted, p) : null);
  return {
    n: sorted.length,
    mean: sorted.length > 0 ? mean(sorted) : null,
    min: sorted[0] ?? null,
    max: sorted[sorted.length - 1] ?? null,
    p10: q(0.1),
    p25: q(0.25),
    p50: q(0.5),
    p75: q(0.75),
    p90: q(0.9),
    p99: q(0.99),
    histogram: histogram(sorted, edges),
  };
}
