import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreRecord } from '../../test/support/score-record.ts';
import type { ScoreRecord } from '../core/record.ts';
import { groupAdvantages } from '../reward/grpo.ts';
import { groupStats, imputedScores } from './groups.ts';

const rec = (id: string, reward: number, fault = false): ScoreRecord =>
  scoreRecord({
    id,
    reward: fault ? 0 : reward,
    status: fault ? 'grader_error' : 'ok',
    ...(fault ? { reason: 'judge_error' as const } : {}),
  });

describe('GRPO groups with grader faults', () => {
  it('property: adding faulted members changes no other advantage and gives them 0', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat({ max: 12 }), { maxLength: 4 }),
        (rewards, faultAt) => {
          const clean = rewards.map((r, i) => rec(`m${i}`, r));
          const mixed = [...clean];
          for (const [k, at] of faultAt.entries())
            mixed.splice(Math.min(at, mixed.length), 0, rec(`f${k}`, 0, true));
          const items = mixed.map((r) => ({ id: r.id, prompt_id: 'p' }));
          const stats = groupStats(items, mixed);
          const without = groupAdvantages(rewards);
          const measured = mixed.flatMap((r, i) =>
            r.status === 'ok' ? [stats[i]!.advantage] : [],
          );
          const faults = mixed.flatMap((r, i) => (r.status === 'ok' ? [] : [stats[i]!.advantage]));
          return (
            measured.length === without.length &&
            measured.every((a, i) => Object.is(a, without[i])) &&
            faults.every((a) => a === 0) &&
            stats[0]!.group.excluded === faultAt.length
          );
        },
      ),
    );
  });

  it('imputes a fault as the mean of its measured group-mates (0 when there are none)', () => {
    const recs = [rec('a', 0.2), rec('b', 0, true), rec('c', 0.6)];
    expect(
      imputedScores(
        recs.map((r) => ({ id: r.id, prompt_id: 'p' })),
        recs,
      ),
    ).toEqual([0.2, 0.4, 0.6]);
    const alone = [rec('x', 0, true)];
    expect(imputedScores([{ id: 'x', prompt_id: 'q' }], alone)).toEqual([0]);
  });
});
