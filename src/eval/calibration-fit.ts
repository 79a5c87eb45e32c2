// Fitting a calibration (src/reward/conformal.ts) from files: the judge's records (`rubrica
// score` lines or an eval run's results.jsonl) and human ratings of the same rollouts (a
// ratings file or a studio export, read by parseHuman). Ratings are mapped to [0, 1] by a
// declared scale; several ratings of one rollout are averaged (the truth is the raters'
// mean). Besides the calibration fitted on every matched rollout, it reports a two-fold
// cross-fit: each half's coverage by the offset fitted on the other half, the held-out
// number that says whether the calibration holds, next to the judge's own intervals'.
import { createHash } from 'node:crypto';
import { CALIBRATION_KIND, type Calibration, CalibrationError } from '../core/calibration.ts';
import { type CalibrationPoint, coverageOf, fitOffset, widen } from '../reward/conformal.ts';
import type { AbsoluteRating } from './stats/align-input.ts';
import { readRecords } from './stats/table-input.ts';

/** Default probability that a fitted calibration covers its level (training-conditional). */
export const DEFAULT_CONFIDENCE = 0.95;

export type RatingScale = 'unit' | 'percent' | 'bands';
export const RATING_SCALES: readonly (RatingScale | 'auto')[] = [
  'auto',
  'unit',
  'percent',
  'bands',
];

/** One judged rollout as the judge's file holds it. */
export interface JudgedItem {
  reward: number;
  interval: [number, number];
  level: number | null;
  kind: string;
  provenance: Record<string, unknown> | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function judgedOf(v: unknown, kind: string | undefined): JudgedItem | null {
  if (!isObj(v) || v.status !== 'ok' || typeof v.reward !== 'number') return null;
  const k = typeof v.reward_kind === 'string' ? v.reward_kind : '';
  if (kind !== undefined && k !== kind) return null;
  const iv = Array.isArray(v.interval) && v.interval.length === 2 ? v.interval : null;
  const interval: [number, number] =
    iv && typeof iv[0] === 'number' && typeof iv[1] === 'number'
      ? [iv[0], iv[1]]
      : [v.reward, v.reward];
  return {
    reward: v.reward,
    interval,
    level: typeof v.interval_level === 'number' ? v.interval_level : null,
    kind: k,
    provenance: isObj(v.provenance) ? v.provenance : null,
  };
}

/**
 * id → judged item from score lines (top level, or `rewards[kind]`) or eval records
 * (`scores[kind]`). Without `kind`: a score line's first reward, an eval record's ruler, else
 * universal. Faulted, unscoreable and unmatched lines are left out.
 */
export function readJudged(text: string, file: string, kind?: string): Map<string, JudgedItem> {
  const out = new Map<string, JudgedItem>();
  const { lines } = readRecords(text, file, {});
  for (const { value } of lines) {
    if (!isObj(value) || (typeof value.id !== 'string' && typeof value.id !== 'number')) continue;
    let item: JudgedItem | null = null;
    if (isObj(value.scores)) {
      const scores = value.scores;
      const k = kind ?? ['ruler', 'universal'].find((x) => scores[x] !== undefined);
      if (k) item = judgedOf(scores[k], undefined);
      if (item && !item.kind && k) item.kind = k;
    } else {
      item = judgedOf(value, kind);
      if (!item && kind && isObj(value.rewards)) item = judgedOf(value.rewards[kind], kind);
    }
    const id = String(value.id);
    if (item && !out.has(id)) out.set(id, item);
  }
  return out;
}

/** The scale `auto` reads: > 5 somewhere → percent; > 1 → bands 1–5; else unit [0, 1]. */
export function detectScale(values: readonly number[]): RatingScale {
  const max = Math.max(...values);
  return max > 5 ? 'percent' : max > 1 ? 'bands' : 'unit';
}

/** A rating on its scale → [0, 1]; off the scale is a CalibrationError. */
export function toUnit(x: number, scale: RatingScale): number {
  const [lo, hi] = scale === 'unit' ? [0, 1] : scale === 'percent' ? [0, 100] : [1, 5];
  if (!(x >= lo && x <= hi))
    throw new CalibrationError(`rating ${x} is off the ${scale} scale [${lo}, ${hi}]`);
  return (x - lo) / (hi - lo);
}

/** id → mean rating in [0, 1]. */
export function meanRatings(ratings: readonly AbsoluteRating[], scale: RatingScale) {
  const sums = new Map<string, { s: number; n: number }>();
  for (const r of ratings) {
    const a = sums.get(r.id) ?? { s: 0, n: 0 };
    a.s += toUnit(r.score, scale);
    a.n += 1;
    sums.set(r.id, a);
  }
  return new Map([...sums].map(([id, a]) => [id, a.s / a.n]));
}

export interface FitReport {
  calibration: Calibration;
  /** Rollouts with a judge score and no rating, and the reverse (left out of the fit). */
  unmatched: { judged: number; rated: number };
  /** Two-fold cross-fit: every rollout's coverage under the offset fitted without it. */
  heldOut: {
    calibrated: ReturnType<typeof coverageOf>;
    uncalibrated: ReturnType<typeof coverageOf>;
  } | null;
}

/** A stable half for an id (seeded hash), so the cross-fit is reproducible. */
const half = (id: string, seed: number) =>
  createHash('sha256').update(`${seed}:${id}`).digest()[0]! & 1;

export interface FitOptions {
  level: number;
  /** Training-conditional confidence 1−δ (default 0.95); null: marginal. */
  confidence?: number | null;
  scale: RatingScale | 'auto';
  seed?: number;
  now?: () => Date;
  sources?: Record<string, string>;
}

/** Fits a calibration from judged items and ratings; see the header. */
export function fitCalibration(
  judged: ReadonlyMap<string, JudgedItem>,
  ratings: readonly AbsoluteRating[],
  opts: FitOptions,
): FitReport {
  if (ratings.length === 0) throw new CalibrationError('the ratings file holds no ratings');
  const scale = opts.scale === 'auto' ? detectScale(ratings.map((r) => r.score)) : opts.scale;
  const human = meanRatings(ratings, scale);
  const ids = [...human.keys()].filter((id) => judged.has(id)).sort();
  if (ids.length === 0)
    throw new CalibrationError('no rated rollout is among the judged records (ids differ?)');
  const levels = new Set(ids.map((id) => judged.get(id)!.level ?? -1));
  if (levels.size > 1)
    throw new CalibrationError('the judged records carry intervals at different levels');
  const kinds = new Set(ids.map((id) => judged.get(id)!.kind));
  if (kinds.size > 1)
    throw new CalibrationError('the judged records mix reward kinds: give --reward');
  const first = judged.get(ids[0]!)!;
  const point = (id: string): CalibrationPoint => {
    const j = judged.get(id)!;
    return { lo: j.interval[0], hi: j.interval[1], human: human.get(id)! };
  };
  const points = ids.map(point);
  const confidence = opts.confidence === undefined ? DEFAULT_CONFIDENCE : opts.confidence;
  const { offset, rank } = fitOffset(points, opts.level, confidence);
  const seed = opts.seed ?? 0;
  const halves = [0, 1].map((h) => ids.filter((id) => half(id, seed) === h).map(point));
  const heldOut =
    halves[0]!.length > 0 && halves[1]!.length > 0
      ? {
          calibrated: coverageOf(
            [0, 1].flatMap((h) => {
              const q = fitOffset(halves[1 - h]!, opts.level, confidence).offset;
              return halves[h]!.map((p) => {
                const [lo, hi] = widen([p.lo, p.hi], q);
                return { lo, hi, human: p.human };
              });
            }),
          ),
          uncalibrated: coverageOf(points),
        }
      : null;
  const calibration: Calibration = {
    kind: CALIBRATION_KIND,
    version: 1,
    method: 'split-conformal',
    level: opts.level,
    confidence,
    base_level: first.level ?? opts.level,
    offset,
    rank,
    n: points.length,
    reward_kind: first.kind,
    fitted_at: (opts.now ?? (() => new Date()))().toISOString(),
    judge: first.provenance,
    rating_scale: scale,
    held_out: heldOut
      ? {
          n: heldOut.calibrated.n,
          coverage: heldOut.calibrated.coverage,
          median_width: heldOut.calibrated.median_width,
          uncalibrated_coverage: heldOut.uncalibrated.coverage,
          uncalibrated_median_width: heldOut.uncalibrated.median_width,
        }
      : null,
    ...(opts.sources ? { sources: opts.sources } : {}),
  };
  return {
    calibration,
    unmatched: { judged: judged.size - ids.length, rated: human.size - ids.length },
    heldOut,
  };
}
