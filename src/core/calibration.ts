// The calibration file (issue 37 item 2): what `rubrica align --calibrate` writes and
// `--calibration FILE` reads, a split-conformal widening of one reward kind's intervals
// (src/reward/conformal.ts fits and applies it). Its shape lives here, at the bottom, because
// the judging strategy (src/judge/strategy.ts) carries a parsed one down to the pipeline.
import { z } from 'zod';

export const CALIBRATION_KIND = 'rubrica.calibration';

/** The calibration file `rubrica align --calibrate` writes and `--calibration FILE` reads. */
export const CalibrationSchema = z.object({
  kind: z.literal(CALIBRATION_KIND),
  version: z.literal(1),
  method: z.literal('split-conformal'),
  /** Coverage the widened interval is calibrated to (of a new rollout's human rating). */
  level: z.number().gt(0).lt(1),
  /**
   * Probability (over the calibration draw) that coverage is ≥ `level`: the rank is chosen
   * training-conditionally (src/reward/conformal.ts). null: marginal, ≥ level on average.
   */
  confidence: z.number().gt(0).lt(1).nullable(),
  /** Level of the judge's own intervals it was fitted on; applying it recomputes them so. */
  base_level: z.number().gt(0).lt(1),
  /** Added to each side of the judge's interval (then clamped to [0, 1]). */
  offset: z.number(),
  /** Rank k of the nonconformity score taken (see `confidence`); null when k > n. */
  rank: z.number().int().nullable(),
  /** Calibration rollouts (with a judge score and a human rating). */
  n: z.number().int().min(1),
  /** The reward kind whose intervals it widens (others are left uncalibrated). */
  reward_kind: z.string(),
  fitted_at: z.string(),
  /** What produced the judge scores it was fitted on (first record's provenance, if any). */
  judge: z.record(z.string(), z.unknown()).nullable(),
  /** How the human ratings were read to [0, 1]: unit, percent (0–100, the studio's) or bands 1–5. */
  rating_scale: z.enum(['unit', 'percent', 'bands']),
  /**
   * Two-fold cross-fit on the same ratings: coverage and median width of the calibrated
   * intervals on each half by the offset fitted on the other, and of the judge's own.
   */
  held_out: z
    .object({
      n: z.number().int(),
      coverage: z.number(),
      median_width: z.number(),
      uncalibrated_coverage: z.number(),
      uncalibrated_median_width: z.number(),
    })
    .nullable()
    .optional(),
  /** Where the fit came from (file names), for the appendix. */
  sources: z.record(z.string(), z.string()).optional(),
});
/** A parsed calibration: pass it as `judging: { calibration }` to the scorer or the service. */
export type Calibration = z.infer<typeof CalibrationSchema>;

/** A calibration file that is not one: stable code for every face. */
export class CalibrationError extends Error {
  readonly code = 'bad_calibration';
}

/** Parses and checks a calibration file's text; a bad one throws CalibrationError. */
export function parseCalibration(text: string, file = 'calibration'): Calibration {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CalibrationError(`${file}: not JSON (${(err as Error).message})`);
  }
  const parsed = CalibrationSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new CalibrationError(
      `${file}: not a rubrica calibration (${first?.path.join('.') || '(root)'}: ${first?.message})`,
    );
  }
  return parsed.data;
}
