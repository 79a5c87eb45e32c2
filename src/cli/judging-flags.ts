// The one set of judging flags every judging command shares (score, serve, eval, curate,
// probe, rubric synth's ideal filter): add them with addJudgingFlags(command), then turn the
// parsed options into the one JudgingStrategy (src/judge/strategy.ts) that is passed down.
// A bad value is a usage error (exit 2). Relative judging and panels (--judging, --pairs,
// --quorum) are parsed here too, so a command never parses a judging flag of its own.
import type { Command } from 'commander';
import { type Calibration, CalibrationError, parseCalibration } from '../core/calibration.ts';
import { checkPanel } from '../judge/panel.ts';
import {
  DEFAULT_STRATEGY,
  GROUP_ORDERS,
  isGroupOrders,
  isJudgingMode,
  isPairsMode,
  isScoringMode,
  JUDGING_MODES,
  type JudgingStrategy,
  PAIRS_MODES,
  SCORING_MODES,
} from '../judge/strategy.ts';
import { parsePanelWeights } from './align-weights.ts';
import { readInputText } from './input-file.ts';
import { UsageError } from './usage-error.ts';

/** The judging options as commander hands them over (every value a string or absent). */
export interface JudgingFlags {
  judgeScoring?: string;
  intervalLevel?: string;
  judging?: string;
  pairs?: string;
  groupOrders?: string;
  quorum?: string;
  calibration?: string;
  /** `--judge`, once or repeated, each a spec or a comma list (see judgeSpecs). */
  judge?: string | readonly string[];
  panelWeights?: string;
}

/**
 * The `--judge` option's argument parser: repeat the flag or give a comma list, and the specs
 * add up in order. Two or more make a panel (judgingFromFlags puts them in the strategy).
 */
export function judgeSpecs(v: string, prev: string[] = []): string[] {
  return [
    ...prev,
    ...v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

/** `--judge`'s help, one text for every command that judges. */
export const JUDGE_PANEL_HELP =
  'repeat it or give a comma list for a panel: every criterion the mean of the judges, pairwise their majority';

/** The judge specs given, as a list (a command's first judge is the list's first). */
export function judgeList(judge: string | readonly string[] | undefined): string[] {
  return judge === undefined ? [] : typeof judge === 'string' ? judgeSpecs(judge) : [...judge];
}

/**
 * The panel flags (`--quorum`, `--panel-weights`) of every command that takes a panel of
 * `--judge`s (score, serve, eval, rescore); parsed by judgingFromFlags into the strategy.
 */
export function addPanelFlags(cmd: Command): Command {
  return cmd
    .option('--quorum <n>', 'panel: judges that must answer for the panel to answer (default: all)')
    .option(
      '--panel-weights <w,…>',
      'panel: one weight ≥ 0 per --judge, in order (default equal), or a file from rubrica align --fit-weights',
    );
}

export function addJudgingFlags(cmd: Command): Command {
  return cmd
    .option(
      '--judge-scoring <mode>',
      'how an item score is read: expected (Σ p·v over the judge logprobs) | greedy (the written score) | auto (expected when the judge returns logprobs, else greedy)',
      DEFAULT_STRATEGY.scoring,
    )
    .option(
      '--interval-level <x>',
      'level of each reward interval [lo, hi], in (0,1) (default 0.9)',
    );
}

/**
 * `--calibration FILE` (score, serve, eval): a split-conformal calibration written by `rubrica
 * align --calibrate`; parsed by judgingFromFlags into the strategy.
 */
export function addCalibrationFlag(cmd: Command): Command {
  return cmd.option(
    '--calibration <file>',
    'widen each reward interval by a split-conformal calibration fitted on human ratings (rubrica align --calibrate); records say interval_calibrated and its level',
  );
}

/** A calibration file read and checked; a missing or bad one is a usage error. */
function readCalibration(path: string): Calibration {
  // Checked first: a FIFO here blocked the process in readFileSync for ever (issue 35).
  const text = readInputText('--calibration', path);
  try {
    return parseCalibration(text, path);
  } catch (err) {
    if (err instanceof CalibrationError) throw new UsageError(`--calibration: ${err.message}`);
    throw err;
  }
}

/** The strategy from the parsed flags; defaults are DEFAULT_STRATEGY's. */
export function judgingFromFlags(flags: JudgingFlags): JudgingStrategy {
  const out: JudgingStrategy = { ...DEFAULT_STRATEGY, panel: [] };
  if (flags.judgeScoring !== undefined) {
    if (!isScoringMode(flags.judgeScoring))
      throw new UsageError(
        `--judge-scoring must be one of ${SCORING_MODES.join(', ')}, got "${flags.judgeScoring}"`,
      );
    out.scoring = flags.judgeScoring;
  }
  if (flags.intervalLevel !== undefined) {
    const x = Number(flags.intervalLevel);
    if (flags.intervalLevel.trim() === '' || !(x > 0 && x < 1))
      throw new UsageError(`--interval-level must be in (0,1), got "${flags.intervalLevel}"`);
    out.intervalLevel = x;
  }
  if (flags.judging !== undefined) {
    if (!isJudgingMode(flags.judging))
      throw new UsageError(
        `--judging must be one of ${JUDGING_MODES.join(', ')}, got "${flags.judging}"`,
      );
    out.judging = flags.judging;
  }
  if (flags.pairs !== undefined) {
    if (!isPairsMode(flags.pairs))
      throw new UsageError(
        `--pairs must be one of ${PAIRS_MODES.join(', ')}, got "${flags.pairs}"`,
      );
    out.pairs = flags.pairs;
  }
  if (flags.groupOrders !== undefined) {
    if (!isGroupOrders(flags.groupOrders))
      throw new UsageError(
        `--group-orders must be one of ${GROUP_ORDERS.join(', ')}, got "${flags.groupOrders}"`,
      );
    out.groupOrders = flags.groupOrders;
  }
  if (flags.quorum !== undefined) {
    const q = Number(flags.quorum);
    if (!Number.isInteger(q) || q < 1)
      throw new UsageError(`--quorum must be an integer ≥ 1, got "${flags.quorum}"`);
    out.quorum = q;
  }
  const judges = judgeList(flags.judge);
  if (judges.length > 1) out.panel = judges;
  if (flags.panelWeights !== undefined)
    out.panelWeights = parsePanelWeights(flags.panelWeights, judges);
  if (judges.length > 0 && (out.quorum !== null || out.panelWeights)) {
    // A quorum or weights that cannot work with the judges given are refused here, once
    // (without --judge specs, by the scorer).
    try {
      checkPanel(Math.max(1, judges.length), {
        ...(out.panelWeights ? { weights: out.panelWeights } : {}),
        quorum: out.quorum,
      });
    } catch (err) {
      throw new UsageError(`${(err as Error).message} (--judge given ${judges.length} times)`);
    }
  }
  if (flags.calibration !== undefined) {
    const cal = readCalibration(flags.calibration);
    // The offset was fitted on intervals at the base level: another level would void it.
    if (flags.intervalLevel !== undefined && out.intervalLevel !== cal.base_level)
      throw new UsageError(
        `--interval-level ${flags.intervalLevel} differs from the calibration's base level ${cal.base_level} (its level is ${cal.level}); leave --interval-level out`,
      );
    out.intervalLevel = cal.base_level;
    out.calibration = cal;
  }
  return out;
}
