// How each run fared with the raters: in pairwise and triple studies its win rate against
// the other runs, in absolute studies its mean rating — each with a 95 % percentile
// bootstrap interval that resamples prompts (votes on one prompt are not independent: the
// same pair is judged by every rater). Only first showings of real units count: no practice,
// no attention checks, no repeats.
import { bootstrapCI, DEFAULT_RESAMPLES, DEFAULT_SEED } from '../eval/stats/bootstrap.ts';

/** What standings read of an exported answer (an ExportRow fits). */
export interface StandingRow {
  group: string;
  repeat: boolean;
  a?: string;
  b?: string;
  winner?: 'a' | 'b' | 'tie';
  id?: string;
  score?: number;
}

/** One run's line on the admin page. */
export interface RunStanding {
  run: string;
  /** Pairwise/triple: decided and tied comparisons against other runs; absolute: ratings. */
  n: number;
  wins: number;
  losses: number;
  ties: number;
  /** Win rate (ties count half) or mean 0–100 rating; null without data. */
  estimate: number | null;
  low: number | null;
  high: number | null;
}

/** The statistic reported per run, the interval's level and how it was resampled. */
export interface RunStandings {
  measure: 'win_rate' | 'mean_rating';
  level: number;
  resamples: number;
  runs: RunStanding[];
}

interface Outcome {
  group: string;
  /** 1 win, 0 loss, 0.5 tie; or a 0–100 rating. */
  value: number;
}

function mean(xs: readonly Outcome[][]): number | null {
  let s = 0;
  let n = 0;
  for (const g of xs)
    for (const o of g) {
      s += o.value;
      n++;
    }
  return n > 0 ? s / n : null;
}

/**
 * Per-run standings from the export rows (first showings only). `runOf` maps an item key
 * (`run/id`) to its run.
 */
export function runStandings(
  rows: readonly StandingRow[],
  runOf: (key: string) => string | undefined,
  kind: 'pairwise' | 'absolute' | 'triple',
): RunStandings {
  const byRun = new Map<string, Outcome[]>();
  const add = (run: string | undefined, o: Outcome) => {
    if (run !== undefined) byRun.set(run, [...(byRun.get(run) ?? []), o]);
  };
  for (const r of rows) {
    if (r.repeat) continue;
    if (r.score !== undefined && r.id !== undefined)
      add(runOf(r.id), { group: r.group, value: r.score });
    else if (r.a !== undefined && r.b !== undefined && r.winner !== undefined) {
      const ra = runOf(r.a);
      const rb = runOf(r.b);
      // Two pictures of one run say nothing about that run against the others.
      if (ra === rb) continue;
      const va = r.winner === 'tie' ? 0.5 : r.winner === 'a' ? 1 : 0;
      add(ra, { group: r.group, value: va });
      add(rb, { group: r.group, value: 1 - va });
    }
  }
  const standings: RunStanding[] = [...byRun.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([run, outcomes]) => {
      const groups = new Map<string, Outcome[]>();
      for (const o of outcomes) groups.set(o.group, [...(groups.get(o.group) ?? []), o]);
      const ci = bootstrapCI([...groups.values()], mean, {
        resamples: DEFAULT_RESAMPLES,
        seed: DEFAULT_SEED,
      });
      const pairwise = kind !== 'absolute';
      return {
        run,
        n: outcomes.length,
        wins: pairwise ? outcomes.filter((o) => o.value === 1).length : 0,
        losses: pairwise ? outcomes.filter((o) => o.value === 0).length : 0,
        ties: pairwise ? outcomes.filter((o) => o.value === 0.5).length : 0,
        estimate: ci.estimate,
        low: ci.low,
        high: ci.high,
      };
    });
  return {
    measure: kind === 'absolute' ? 'mean_rating' : 'win_rate',
    level: 0.95,
    resamples: DEFAULT_RESAMPLES,
    runs: standings,
  };
}
