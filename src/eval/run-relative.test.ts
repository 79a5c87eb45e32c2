// The pieces of `eval --judging pairwise|group` (run-relative.ts), by hand: which ids a resume
// judges again, the grouped run order, the group batcher, and how a relatively re-scored record
// with several rewards is split into eval's per-reward verdicts.
import { describe, expect, it } from 'vitest';
import { scoreRecord } from '../../test/support/score-record.ts';
import type { RewardResult } from '../core/record.ts';
import {
  createEvalGroupBatcher,
  groupedOrder,
  isRelativeJudging,
  relativeScoresByKind,
  unfinishedGroupIds,
} from './run-relative.ts';

const r = (id: string, prompt_id: string) => ({ id, prompt_id, completion: id });
const rows = [r('a0', 'a'), r('b0', 'b'), r('a1', 'a'), r('c0', 'c'), r('b1', 'b')];

describe('eval relative judging, by hand', () => {
  it('names the relative modes', () => {
    expect(['absolute', 'pairwise', 'group', undefined].map(isRelativeJudging)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('re-judges every member of a group with any rollout not done', () => {
    const done = new Set(['a0', 'a1', 'b0', 'c0']);
    expect([...unfinishedGroupIds(rows, (id) => done.has(id))].sort()).toEqual(['b0', 'b1']);
    expect(unfinishedGroupIds(rows, () => true).size).toBe(0);
  });

  it('runs each group together, groups in first-seen order', () => {
    expect(groupedOrder(rows).map((x) => x.id)).toEqual(['a0', 'a1', 'b0', 'b1', 'c0']);
  });

  it('scores a group once, when its last member arrives, and answers each in order', async () => {
    const calls: string[][] = [];
    const score = createEvalGroupBatcher(rows, async (items) => {
      calls.push(items.map((x) => x.id));
      return items.map((x) => `${x.id}!`);
    });
    const answers = rows.map((x) => score(x));
    expect(await Promise.all(answers)).toEqual(rows.map((x) => `${x.id}!`));
    expect(calls).toEqual([['a0', 'a1'], ['c0'], ['b0', 'b1']]);
  });

  it('scores a part-arrived group as it stands when the run drains, so nothing waits forever', async () => {
    const drain = new AbortController();
    const calls: string[][] = [];
    const score = createEvalGroupBatcher(
      rows,
      async (items) => {
        calls.push(items.map((x) => x.id));
        return items.map((x) => x.id);
      },
      drain.signal,
    );
    const a0 = score(rows[0]!); // a1 never comes: the run stopped taking rollouts
    drain.abort();
    expect(await a0).toBe('a0');
    expect(calls).toEqual([['a0']]);
  });

  it('passes a failed group to each of its members', async () => {
    const score = createEvalGroupBatcher([r('a0', 'a'), r('a1', 'a')], async () => {
      throw new Error('boom');
    });
    const both = [score(r('a0', 'a')), score(r('a1', 'a'))];
    for (const p of both) await expect(p).rejects.toThrow('boom');
  });

  it('gives the first reward the relative verdict and the comparisons cost; the others stay', () => {
    const u = (calls: number, inputTokens: number) => ({
      calls,
      inputTokens,
      outputTokens: 0,
      costUsd: 0,
      latencyMs: 0,
    });
    const universal: RewardResult = {
      ...scoreRecord({ reward_kind: 'universal', reward: 0.4, usage: u(1, 100) }),
    };
    const ruler: RewardResult = {
      ...scoreRecord({ reward_kind: 'ruler', reward: 0.7, usage: u(1, 200) }),
    };
    // As relative.ts leaves it: top level = the first reward, re-scored; usage = both rewards
    // plus 4 comparisons of 50 tokens.
    const rec = scoreRecord({
      reward_kind: 'universal',
      reward: 0.9,
      components: { total: 0.9 },
      cached: false,
      usage: u(6, 500),
      rewards: { universal, ruler },
      relative: {
        judging: 'pairwise',
        pairs: 'circular',
        group_size: 3,
        comparisons: 4,
        answered: 4,
        masked: 0,
        wins: 3,
        strength: 1.2,
        absolute_reward: 0.4,
        fallback: false,
      },
    });
    const s = relativeScoresByKind(rec);
    expect(s.universal).toMatchObject({
      reward: 0.9,
      components: { total: 0.9 },
      relative: { judging: 'pairwise', absolute_reward: 0.4 },
      usage: u(5, 300),
    });
    expect(s.ruler!.reward).toBe(0.7);
    expect(s.ruler!.relative).toBeUndefined();
    expect(s.ruler!.usage).toEqual(u(1, 200));
  });
});
