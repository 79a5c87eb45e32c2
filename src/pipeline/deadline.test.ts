// scoreByDeadline on its own: rollouts done by the deadline keep their records, the rest are
// `deadline` grader faults naming every requested reward; a configuration error still throws;
// the late work is not cancelled and its end is reported.
import { describe, expect, it } from 'vitest';
import type { RolloutInput, ScoreRecord } from '../core/record.ts';
import { isGraderFaultRecord } from '../core/status.ts';
import { deadlineRecord, scoreByDeadline } from './deadline.ts';
import { ScorerConfigError } from './score.ts';
import type { ScoreBatchOptions } from './types.ts';

const item = (id: string): RolloutInput => ({ id, prompt_id: 'g', completion: id });
const okRecord = (it: RolloutInput): ScoreRecord => ({
  ...deadlineRecord(it, ['ruler'], 1),
  status: 'ok',
  reason: undefined,
  reward: 0.5,
});

/** Answers each rollout after the ms its id names ("slow" never by itself: `release()`). */
function scorer() {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  return {
    release,
    async scoreBatch(items: RolloutInput[], o?: ScoreBatchOptions) {
      if (o?.reward === 'hybrid') throw new ScorerConfigError('hybrid_unavailable', 'no hybrid');
      const it = items[0]!;
      if (it.id === 'slow') await gate;
      else await new Promise((r) => setTimeout(r, Number(it.id)));
      return [okRecord(it)];
    },
  };
}

describe('scoreByDeadline', () => {
  it('answers by the deadline: done rollouts kept, the rest deadline faults of every reward', async () => {
    const s = scorer();
    const late: boolean[] = [];
    const t0 = performance.now();
    const out = await scoreByDeadline(
      s,
      [item('5'), item('slow'), item('10')],
      { reward: ['ruler', 'universal'] },
      300,
      { onLateFinished: (ok) => late.push(ok) },
    );
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(out.map((r) => r.status)).toEqual(['ok', 'grader_error', 'ok']);
    expect(out[1]).toMatchObject({ id: 'slow', reason: 'deadline', reward_kind: 'ruler' });
    expect(Object.keys(out[1]!.rewards ?? {})).toEqual(['ruler', 'universal']);
    expect(isGraderFaultRecord(out[1]!)).toBe(true);
    // The late work was not cancelled: it finishes and says so.
    s.release();
    await new Promise((r) => setTimeout(r, 20));
    expect(late).toEqual([true]);
  });

  it('resolves as soon as every rollout is done, and rethrows a configuration error', async () => {
    const s = scorer();
    const t0 = performance.now();
    await scoreByDeadline(s, [item('1'), item('2')], {}, 60_000);
    expect(performance.now() - t0).toBeLessThan(10_000);
    await expect(scoreByDeadline(s, [item('1')], { reward: 'hybrid' }, 1000)).rejects.toThrow(
      ScorerConfigError,
    );
  });
});
