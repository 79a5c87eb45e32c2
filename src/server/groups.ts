// GRPO groups inside one request: rollouts that share a prompt form a group (the one rule of
// src/core/group-key.ts: same prompt_id, else the same prompt text after whitespace
// normalisation, else alone), and each result carries its group's statistics and its
// advantage A_i = (R_i − mean) / (std + ε).
//
// A grader fault (status `grader_error`: the judge, a scorer, the cache or the infrastructure
// failed) is not a measurement of the drawing, so it is left out of its group's statistics and
// gets advantage 0: the other rollouts' advantages are exactly what they would be without it.
// Trainers that compute advantages themselves (verl, OpenRLHF) get the faulted rollout's score
// set to the mean of its measured group-mates (see imputedScores), which is the value that
// moves neither their group mean nor its own advantage away from 0.
import { type GroupKeyInput, groupIndices } from '../core/group-key.ts';
import type { ScoreRecord } from '../core/record.ts';
import { isGraderFaultRecord } from '../core/status.ts';
import { DEFAULT_FLAT_EPSILON } from '../monitors/health.ts';
import { GRPO_EPSILON, groupAdvantages, sampleStd } from '../reward/grpo.ts';
import type { GroupStats } from './schemas.ts';

// Re-exported: rubrica/server has always offered the group rule to trainers.
export { groupKey } from '../core/group-key.ts';

/**
 * Stats per group over the measured rewards (an unscoreable rollout counts with reward 0, as
 * the trainer sees it; a grader fault is left out). std is the sample (n − 1) estimate and the
 * advantage is the reward room's groupAdvantages, which follows verl's GRPO; for a group of one
 * verl uses mean 0 / std 1, so its advantage is R/(1+ε) while the reported stats stay
 * descriptive. A group with no measured rollout has mean, std, min and max 0.
 */
export function groupStats(
  items: readonly GroupKeyInput[],
  records: readonly ScoreRecord[],
  eps = GRPO_EPSILON,
  flatEpsilon = DEFAULT_FLAT_EPSILON,
): Array<{ group: GroupStats; advantage: number }> {
  const out = new Array<{ group: GroupStats; advantage: number }>(items.length);
  for (const [key, idx] of groupIndices(items)) {
    const measured = idx.filter((i) => !isGraderFaultRecord(records[i]!));
    const rewards = measured.map((i) => records[i]!.reward);
    const n = rewards.length;
    const group: GroupStats = {
      key,
      size: n,
      excluded: idx.length - n,
      mean: n ? rewards.reduce((a, b) => a + b, 0) / n : 0,
      std: sampleStd(rewards),
      min: n ? Math.min(...rewards) : 0,
      max: n ? Math.max(...rewards) : 0,
      // Two or more measured rollouts within ε of each other: GRPO learns nothing from them.
      flat: n >= 2 && Math.max(...rewards) - Math.min(...rewards) <= flatEpsilon,
    };
    const advantages = groupAdvantages(rewards, eps);
    for (const i of idx) out[i] = { group, advantage: 0 };
    measured.forEach((i, k) => {
      out[i] = { group, advantage: advantages[k]! };
    });
  }
  return out;
}

/**
 * The score each rollout should be trained on by a trainer that computes its own advantages:
 * its reward, or, for a grader fault, the mean reward of its group's measured rollouts (0 when
 * none was measured).
 */
export function imputedScores(
  items: readonly GroupKeyInput[],
  records: readonly ScoreRecord[],
): number[] {
  const stats = groupStats(items, records);
  return records.map((r, i) => (isGraderFaultRecord(r) ? stats[i]!.group.mean : r.reward));
}
