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

  it('scores a relatively judged GRPO group as one unit, and answers a late group whole', async () => {
    // Pairwise judging compares a group's pictures with each other: a deadline that scored
    // them one by one would turn every group into a group of one (absolute scores, silently).
    const batches: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const relative = {
      judgingFor: (o?: ScoreBatchOptions) => o?.judging ?? ('pairwise' as const),
      async scoreBatch(items: RolloutInput[]) {
        batches.push(items.map((it) => it.id));
        if (items.some((it) => it.id.startsWith('slow'))) await gate;
        return items.map(okRecord);
      },
    };
    const g = (id: string, group: string): RolloutInput => ({
      id,
      prompt_id: group,
      completion: id,
    });
    const items = [g('a1', 'A'), g('slow1', 'B'), g('a2', 'A'), g('b2', 'B')];
    const out = await scoreByDeadline(relative, items, {}, 200);
    expect(batches).toEqual([
      ['a1', 'a2'],
      ['slow1', 'b2'],
    ]);
    // Group A answered; group B (one slow member) is a deadline fault as a whole.
    expect(out.map((r) => [r.id, r.status])).toEqual([
      ['a1', 'ok'],
      ['slow1', 'grader_error'],
      ['a2', 'ok'],
      ['b2', 'grader_error'],
    ]);
    release();
    // Absolute judging named by the request still scores rollout by rollout.
    batches.length = 0;
    await scoreByDeadline(relative, [g('a1', 'A'), g('a2', 'A')], { judging: 'absolute' }, 5000);
    expect(batches).toEqual([['a1'], ['a2']]);
  });

  it('counts the deadline from when its clock started (the request arrival), not from the call', async () => {
    // serve starts the clock when the request arrives; reading, parsing and admitting the
    // body took 5 s of a 6 s deadline here: 1 s is left, not 6.
    const s = scorer();
    const t0 = performance.now();
    const out = await scoreByDeadline(s, [item('slow')], {}, 6000, {
      startedAt: performance.now() - 5000,
    });
    const took = performance.now() - t0;
    expect(out[0]).toMatchObject({ reason: 'deadline' });
    expect(took).toBeGreaterThan(500);
    expect(took).toBeLessThan(4000);
    // A clock already past the deadline answers at once.
    const t1 = performance.now();
    await scoreByDeadline(s, [item('slow')], {}, 6000, { startedAt: performance.now() - 9000 });
    expect(performance.now() - t1).toBeLessThan(4000);
    s.release();
  });
});
