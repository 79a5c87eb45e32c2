// The judge's own uncertainty over an eval run (issue 37): every judged reward carries
// `interval: [lo, hi]` at `interval_level` (src/reward/interval.ts); here they are averaged
// per reward kind, per prompt and per run (model / checkpoint), so a reader sees how wide the
// judge's intervals are next to the score they qualify ("can rank but cannot score": a
// 0.4-wide interval around a 0.7 mean says the mean is not a fine measurement). Records
// scored greedily have a point interval [r, r]: they are counted apart (`scoring`), so a
// width of 0 is read as "no distribution", not as "certain".
import type { ScoreRecord } from '../core/record.ts';

/** Mean interval of a set of rewards. */
export interface IntervalMean {
  /** Records with an interval. */
  n: number;
  /** Mean of the lower ends. */
  lo: number;
  /** Mean of the upper ends. */
  hi: number;
  /** Mean width (hi − lo). */
  width: number;
}

export interface JudgeIntervals extends IntervalMean {
  /** The records' interval level; null when they differ (mixed runs). */
  level: number | null;
  /** Median width over the records. */
  median_width: number;
  /** Records by the scoring actually used (`expected`, `greedy`; `unknown` when unsaid). */
  scoring: Record<string, number>;
  /** Records whose interval was calibrated (`--calibration`). */
  calibrated: number;
  /** Per prompt, in prompt-id order. */
  per_prompt: ({ prompt_id: string } & IntervalMean)[];
  /** Per run (the model or checkpoint that drew), in run order; one entry for a one-run eval. */
  per_run: ({ run: string } & IntervalMean)[];
}

interface Acc {
  n: number;
  lo: number;
  hi: number;
}

const add = (m: Map<string, Acc>, key: string, lo: number, hi: number) => {
  const a = m.get(key) ?? { n: 0, lo: 0, hi: 0 };
  a.n++;
  a.lo += lo;
  a.hi += hi;
  m.set(key, a);
};
const mean = (a: Acc): IntervalMean => ({
  n: a.n,
  lo: a.lo / a.n,
  hi: a.hi / a.n,
  width: (a.hi - a.lo) / a.n,
});

/** The interval summary of judged records of one reward kind; null when none has one. */
export function judgeIntervals(
  scored: readonly { prompt_id: string; run?: string; score: ScoreRecord }[],
): JudgeIntervals | null {
  const all: Acc = { n: 0, lo: 0, hi: 0 };
  const byPrompt = new Map<string, Acc>();
  const byRun = new Map<string, Acc>();
  const widths: number[] = [];
  const levels = new Set<number>();
  const scoring: Record<string, number> = {};
  let calibrated = 0;
  for (const { prompt_id, run, score: s } of scored) {
    const iv = s.interval;
    if (s.status !== 'ok' || !iv || !Number.isFinite(iv[0]) || !Number.isFinite(iv[1])) continue;
    const [lo, hi] = iv;
    all.n++;
    all.lo += lo;
    all.hi += hi;
    widths.push(hi - lo);
    add(byPrompt, prompt_id, lo, hi);
    add(byRun, run ?? '', lo, hi);
    if (s.interval_level !== undefined) levels.add(s.interval_level);
    const used = s.scoring ?? 'unknown';
    scoring[used] = (scoring[used] ?? 0) + 1;
    if (s.interval_calibrated) calibrated++;
  }
  if (all.n === 0) return null;
  widths.sort((a, b) => a - b);
  const mid = widths.length >> 1;
  const median = widths.length % 2 ? widths[mid]! : (widths[mid - 1]! + widths[mid]!) / 2;
  return {
    ...mean(all),
    level: levels.size === 1 ? [...levels][0]! : null,
    median_width: median,
    scoring,
    calibrated,
    per_prompt: [...byPrompt]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([prompt_id, a]) => ({ prompt_id, ...mean(a) })),
    per_run: [...byRun].map(([run, a]) => ({ run, ...mean(a) })),
  };
}

const f3 = (v: number) => v.toFixed(3);

/** One line for the text report: "judge interval (90%) mean [0.612, 0.804], width 0.192 …". */
export function formatJudgeIntervals(j: JudgeIntervals): string {
  const level = j.level === null ? 'mixed levels' : `${Math.round(j.level * 100)}%`;
  const used = Object.entries(j.scoring)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const widest = [...j.per_prompt].sort((a, b) => b.width - a.width)[0];
  const parts = [
    `judge interval (${level}) mean [${f3(j.lo)}, ${f3(j.hi)}], width mean ${f3(j.width)} median ${f3(j.median_width)} over ${j.n} rewards (${used})`,
  ];
  if (widest && j.per_prompt.length > 1)
    parts.push(`widest prompt ${widest.prompt_id} ${f3(widest.width)}`);
  if (j.calibrated > 0) parts.push(`${j.calibrated} calibrated`);
  return parts.join('; ');
}
