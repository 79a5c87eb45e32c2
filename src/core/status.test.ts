// One grader-fault predicate: every place that sets faults apart (GRPO groups, the health
// monitor, summaries, resume) agrees on the same records, including a fault written by an
// older version (`unscoreable` with a fault reason), and `no_rubric` is set apart only where
// the 0 is "not a judgement" (summaries, eval's resume), never as a grader fault.
import { describe, expect, it } from 'vitest';
import { scoreRecord } from '../../test/support/score-record.ts';
import { scoreFault } from '../cli/commands/score.ts';
import { summarizeReward } from '../eval/summary.ts';
import { batchHealth } from '../monitors/health.ts';
import { summariseScores } from '../reward/summary.ts';
import { groupStats, imputedScores } from '../server/groups.ts';
import { hasGraderFault, type ScoreRecord } from './record.ts';
import { isGraderFaultRecord, isUnjudged, type UnscoreableReason } from './status.ts';

const rec = (
  id: string,
  reward: number,
  status: ScoreRecord['status'],
  reason?: UnscoreableReason,
): ScoreRecord =>
  scoreRecord({
    id,
    reward,
    status,
    ...(reason ? { reason } : {}),
    checks: { output_tokens: 10, svg_tokens: 5 },
  });

const records = [
  rec('a', 0.8, 'ok'),
  rec('b', 0.4, 'ok'),
  rec('c', 0, 'unscoreable', 'blank'),
  rec('d', 0, 'grader_error', 'judge_error'),
  // Written before the grader_error status existed: still a fault.
  rec('e', 0, 'unscoreable', 'scorer_error'),
  rec('f', 0, 'unscoreable', 'no_rubric'),
];

describe('the record-level predicates', () => {
  it('a grader fault is the status or (older files) a fault reason; no_rubric is not one', () => {
    expect(records.map(isGraderFaultRecord)).toEqual([false, false, false, true, true, false]);
    expect(isGraderFaultRecord({ status: 'grader_error' })).toBe(true);
    expect(isGraderFaultRecord({ status: 'ok', reason: 42 })).toBe(false);
  });

  it('unjudged adds no_rubric (its 0 says nothing about the policy)', () => {
    expect(records.map(isUnjudged)).toEqual([false, false, false, true, true, true]);
  });
});

describe('every site uses them', () => {
  it('GRPO groups leave out exactly the grader faults (no_rubric counts with 0)', () => {
    const items = records.map((r) => ({ id: r.id, prompt_id: 'p' }));
    const one = groupStats(items, records)[0]!.group;
    expect(one).toMatchObject({ size: 4, excluded: 2 });
    expect(one.mean).toBeCloseTo(0.3, 12);
    // The faulted ones are trained on their group's measured mean.
    const mean = (0.8 + 0.4) / 4;
    expect(imputedScores(items, records)).toEqual([0.8, 0.4, 0, mean, mean, 0]);
  });

  it('the health monitor counts the same faults', () => {
    const h = batchHealth(records, () => 'p');
    expect(h).toMatchObject({ rollouts: 6, measured: 4, grader_faults: 2 });
  });

  it('resume (score) and hasGraderFault agree; a fault in any reward counts', () => {
    expect(records.map((r) => scoreFault(r))).toEqual([
      null,
      null,
      null,
      'judge_error',
      'scorer_error',
      null,
    ]);
    expect(records.map((r) => hasGraderFault(r))).toEqual(records.map(isGraderFaultRecord));
    const multi = { ...records[0]!, rewards: { ruler: records[0]!, hybrid: records[4]! } };
    expect(scoreFault(multi)).toBe('scorer_error');
    expect(hasGraderFault(multi)).toBe(true);
  });

  it('summaries leave the unjudged out of the policy mean and count them apart', () => {
    const s = summariseScores(records);
    expect(s.meanRewardPolicy).toBeCloseTo((0.8 + 0.4 + 0) / 3, 12);
    const r = summarizeReward(
      'ruler',
      records.map((score) => ({ prompt_id: 'p', score })),
      { resamples: 10, level: 0.95, seed: 1, minPrompts: 1 },
    );
    expect(r.not_judged).toBe(3);
    expect(r.grader_errors).toEqual({ judge_error: 1, scorer_error: 1, no_rubric: 1 });
    expect(r.score_all.n).toBe(3);
  });
});
