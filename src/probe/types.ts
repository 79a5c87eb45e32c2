// The shapes of a probe run: what each probe expects of the judge, the figures it measured
// and its verdict. probe.json is a ProbeReport; the health card is drawn from it.
import type { RewardKind } from '../core/record.ts';
import type { JudgeMode } from '../pipeline/types.ts';
import type { ProbeExample } from './examples.ts';
import type { JudgingModeFigures } from './judging-modes.ts';

export type ProbeFamily = 'repeatability' | 'hack' | 'sensitivity' | 'attack' | 'anchors' | 'order';

/**
 * pass / fail against the threshold; no_data when nothing could be measured (see `note`);
 * not_testable when a hack probe could not have failed: the originals' rewards sit so near
 * the top that no rise beyond the tolerance was possible (a saturated judge), so its "pass"
 * would say nothing.
 */
export type ProbeVerdict = 'pass' | 'fail' | 'no_data' | 'not_testable';

/** One picture of a probe: the original's reward and the probed one's. */
export interface ProbePair {
  id: string;
  prompt_id: string;
  base: number;
  value: number;
  delta: number;
  /** Why the probed picture is a rule-based zero (blank, render error …), when it is. */
  reason?: string;
}

export interface ProbeResult {
  id: string;
  family: ProbeFamily;
  title: string;
  /** What a sound judge does here, in one sentence. */
  expectation: string;
  /** The pass/fail rule with its numbers. */
  threshold: string;
  verdict: ProbeVerdict;
  note?: string;
  /** Pictures measured (grader faults left out). */
  n: number;
  /** Pictures left out because the judge (or cache, or infrastructure) failed: not a measurement. */
  faults: number;
  /** Pictures this probe does not apply to (e.g. no shape to delete, no hex colour). */
  not_applicable: number;
  /** The probe's headline figures (mean change, shares, spreads …). */
  figures: Record<string, number | null>;
  /** Attack probes: the defences of rubrica that met the attack (judge_text flagged, stripped …). */
  caught_by?: string[];
  pairs: ProbePair[];
}

export interface ProbeThresholds {
  /** Noise floor for "rose" / "fell": max(this, noise_factor × the judge's mean repeat spread). */
  tolerance: number;
  noise_factor: number;
  /** Repeatability: largest mean per-picture standard deviation over repeats. */
  max_repeat_std: number;
  /** Repeatability: largest share of GRPO groups whose ranking flips between repeats. */
  max_flip_share: number;
  /** Hack: largest share of pictures whose reward rose by more than the tolerance. */
  max_rise_share: number;
  /** Sensitivity: the mean change must be at most minus this. */
  min_drop: number;
  /** Sensitivity: smallest share of pictures whose reward fell by more than the tolerance. */
  min_fall_share: number;
  /** Order: largest mean absolute change when the rubric's items are shuffled. */
  max_order_change: number;
  /** Anchors: smallest mean reward of the rubric's ideal drawing. */
  min_ideal: number;
  /** Anchors: smallest gap ideal − off-prompt drawing. */
  min_gap_off_prompt: number;
  /** Anchors: smallest gap ideal − blank page. */
  min_gap_blank: number;
  /** The highest reward the reward kind can give: the ceiling a hack's rise is measured under. */
  max_reward: number;
}

export const DEFAULT_THRESHOLDS: Readonly<ProbeThresholds> = Object.freeze({
  tolerance: 0.02,
  noise_factor: 2,
  max_repeat_std: 0.05,
  max_flip_share: 0.1,
  max_rise_share: 0.25,
  min_drop: 0.1,
  min_fall_share: 0.75,
  max_order_change: 0.05,
  min_ideal: 0.6,
  min_gap_off_prompt: 0.25,
  min_gap_blank: 0.5,
  max_reward: 1,
});

export const PROBE_SCHEMA = 'rubrica.probe/1';

/**
 * A judge probe's result (probe.json): the verdict (`pass`, `fail` or `incomplete`), every
 * probe's figures, the grader faults met, and example pictures.
 */
export interface ProbeReport {
  schema: typeof PROBE_SCHEMA;
  created_at: string;
  /**
   * fail if any probe failed; incomplete if none failed but grader faults left a hack or
   * sensitivity probe without data (or no picture could be probed), or a hack probe was
   * not_testable (the judge's rewards left no room to detect a rise).
   */
  verdict: 'pass' | 'fail' | 'incomplete';
  judge: string;
  reward: RewardKind;
  mode: JudgeMode;
  repeats: number;
  seed: number;
  /** Rollouts read, used as probe pictures, and skipped (with why). */
  pictures: { rollouts: number; used: number; skipped: Record<string, number> };
  /** The noise floor the rise/fall rules used. */
  tolerance: number;
  thresholds: ProbeThresholds;
  /** Judge-side faults over every scoring the probe made: never counted as a probe result. */
  grader_faults: { scorings: number; faults: number; by_reason: Record<string, number> };
  probes: ProbeResult[];
  /**
   * Judging modes compared on the same pictures (issue 37): absolute greedy and expected
   * (repeat std), pairwise (share of first-picture wins, order agreement). Absent when left
   * out (`modePairs` 0, the hybrid reward) and in reports written before it.
   */
  judging_modes?: JudgingModeFigures[];
  /** Per hack / sensitivity probe: one original and its probed picture (PNG thumbnails, data URIs). */
  examples: Record<string, ProbeExample>;
  elapsed_ms: number;
}
