// `rubrica align --calibrate FILE`: fits a split-conformal calibration (src/reward/conformal.ts)
// from the one --pred judge's records and --human's ratings, writes it as JSON and says on
// stderr what it holds out of sample (two-fold cross-fit coverage and median width, the judge's
// own intervals beside it), so stdout stays align's table.
import { writeFile } from 'node:fs/promises';
import { CalibrationError } from '../core/calibration.ts';
import {
  DEFAULT_CONFIDENCE,
  fitCalibration,
  RATING_SCALES,
  type RatingScale,
  readJudged,
} from '../eval/calibration-fit.ts';
import type { AbsoluteRating } from '../eval/stats/align-input.ts';
import { UsageError } from './usage-error.ts';

export interface CalibrateFlags {
  calibrate?: string;
  level?: string;
  confidence?: string;
  ratingScale: string;
  reward?: string;
  seed?: string;
}

/** Checks the calibration flags before any file is read (usage errors exit 2). */
export function checkCalibrateFlags(
  flags: CalibrateFlags,
  preds: number,
): { level: number; confidence: number | null } {
  const level = flags.level === undefined ? 0.9 : Number(flags.level);
  if (!(level > 0 && level < 1))
    throw new UsageError(`--level must be in (0,1), got "${flags.level}"`);
  const c = flags.confidence === undefined ? DEFAULT_CONFIDENCE : Number(flags.confidence);
  if (!(c >= 0 && c < 1))
    throw new UsageError(`--confidence must be in [0,1) (0: marginal), got "${flags.confidence}"`);
  if (!RATING_SCALES.includes(flags.ratingScale as RatingScale))
    throw new UsageError(
      `--rating-scale must be one of ${RATING_SCALES.join(', ')}, got "${flags.ratingScale}"`,
    );
  if (flags.calibrate !== undefined && preds !== 1)
    throw new UsageError('--calibrate fits one judge: give exactly one --pred');
  return { level, confidence: c === 0 ? null : c };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** Fits, writes and reports; a fit that cannot be made is reported with its code (exit 1). */
export async function writeCalibration(
  flags: CalibrateFlags & { calibrate: string },
  fitFlags: { level: number; confidence: number | null },
  pred: { text: string; file: string },
  ratings: readonly AbsoluteRating[],
  humanFile: string,
  setExit: (code: number) => void,
): Promise<void> {
  try {
    const fit = fitCalibration(readJudged(pred.text, pred.file, flags.reward), ratings, {
      ...fitFlags,
      scale: flags.ratingScale as RatingScale | 'auto',
      seed: flags.seed === undefined ? 0 : Number(flags.seed),
      sources: { judged: pred.file, ratings: humanFile },
    });
    const c = fit.calibration;
    await writeFile(flags.calibrate, `${JSON.stringify(c, null, 2)}\n`);
    const lines = [
      `calibration (${c.reward_kind}, ${c.rating_scale} ratings): n ${c.n}, level ${c.level}${c.confidence === null ? ' (marginal)' : ` with probability ${c.confidence}`}, offset ±${c.offset.toFixed(4)}${c.rank === null ? ' (too few ratings for this level: whole range)' : ''} → ${flags.calibrate}`,
    ];
    if (c.held_out)
      lines.push(
        `held out (2-fold cross-fit, n ${c.held_out.n}): coverage ${pct(c.held_out.coverage)}, median width ${c.held_out.median_width.toFixed(4)}; the judge's own intervals: coverage ${pct(c.held_out.uncalibrated_coverage)}, median width ${c.held_out.uncalibrated_median_width.toFixed(4)}`,
      );
    if (fit.unmatched.judged || fit.unmatched.rated)
      lines.push(
        `left out: ${fit.unmatched.judged} judged without a rating, ${fit.unmatched.rated} rated without an ok judge score`,
      );
    process.stderr.write(`${lines.join('\n')}\n`);
  } catch (err) {
    if (!(err instanceof CalibrationError)) throw err;
    process.stderr.write(`rubrica align: ${err.code}: ${err.message}\n`);
    setExit(1);
  }
}
