// probe's judging-mode figures (issue 37), by hand: the repeat std per absolute scoring with
// faults left out, the share read as expected, and pairwise position bias — first-picture
// wins over answered comparisons and order agreement per pair; the card shows them.
import { describe, expect, it } from 'vitest';
import { scoreRecord } from '../../test/support/score-record.ts';
import { emptyUsage } from '../core/usage.ts';
import type { Asked } from '../judge/cached-ask.ts';
import type { GroupAnswer } from '../judge/group.ts';
import type { PairwiseAnswer } from '../judge/pairwise.ts';
import { renderHealthCard } from './card.ts';
import {
  absoluteFigures,
  groupFigures,
  groupsWithinPrompts,
  pairsWithinPrompts,
  pairwiseFigures,
} from './judging-modes.ts';
import { DEFAULT_THRESHOLDS, PROBE_SCHEMA, type ProbeReport } from './types.ts';

const rec = (reward: number, scoring: 'expected' | 'greedy' = 'expected') =>
  scoreRecord({ reward, scoring });
const fault = scoreRecord({ status: 'unscoreable', reason: 'judge_error', reward: 0 });
const said = (winner: PairwiseAnswer['winner']): Asked<PairwiseAnswer> => ({
  ok: true,
  value: { reasoning: '', winner },
  usage: emptyUsage(),
  cached: false,
});
const failed: Asked<PairwiseAnswer> = {
  ok: false,
  fault: 'judge_error',
  message: 'down',
  usage: emptyUsage(),
  cached: false,
};

describe('judging-mode figures', () => {
  it('absolute: the mean per-picture sample std over repeats, faults apart', () => {
    const f = absoluteFigures('absolute-expected', [
      [rec(0.5), rec(0.7), rec(0.6)], // sample std 0.1
      [rec(0.2), fault, rec(0.4, 'greedy')], // two measured: std √0.02
      [rec(0.9), fault], // one measured: no spread
    ]);
    expect(f.n).toBe(2);
    expect(f.faults).toBe(2);
    expect(f.repeat_std!).toBeCloseTo((0.1 + Math.sqrt(0.02)) / 2, 12);
    expect(f.expected_share!).toBeCloseTo(5 / 6, 12);
    expect(f.first_wins).toBeNull();
  });

  it('pairwise: first-picture wins over answered comparisons; both orders agreeing', () => {
    const f = pairwiseFigures([
      { ab: said('first'), ba: said('first') }, // a then b: the first each time, disagree
      { ab: said('first'), ba: said('second') }, // a both times: agree
      { ab: said('tie'), ba: said('tie') }, // tie both: agree
      { ab: failed, ba: said('first') }, // one fault: no pair, one answer
    ]);
    // Answers: first, first, first, second, tie, tie, first = 4 of 7 name the first picture.
    expect(f.first_wins!).toBeCloseTo(4 / 7, 12);
    expect(f.n).toBe(3);
    expect(f.order_agreement!).toBeCloseTo(2 / 3, 12);
    expect(f.faults).toBe(1);
    expect(f.repeat_std).toBeNull();
  });

  it('group: end pictures first versus last, rank agreement of the two orders', () => {
    const shown = (...scores: number[]): Asked<GroupAnswer> => ({
      ok: true,
      value: { pictures: scores.map((score) => ({ scores: { q: { score } } })), scoring: 'greedy' },
      usage: emptyUsage(),
      cached: false,
    });
    const score = (e: GroupAnswer['pictures'][number]) => e.scores.q!.score;
    const f = groupFigures([
      // Pictures a, b, c: forward a .9 b .5 c .2; reversed (c, b, a) c .4 b .5 a .6.
      // a first .9 vs last .6: first wins; c first .4 vs last .2: first wins. Ranks agree on
      // (a,b) a>b both, (a,c) a>c both, (b,c) b>c both: 3 of 3.
      { forward: shown(0.9, 0.5, 0.2), reversed: shown(0.4, 0.5, 0.6), score },
      // Two pictures: forward .3 .7, reversed (y, x) .6 .3: x first .3 vs last .3 (half);
      // y first .6 vs last .7 (loses). The pair ranks y>x both times: agree.
      { forward: shown(0.3, 0.7), reversed: shown(0.6, 0.3), score },
      { forward: failed as Asked<GroupAnswer>, reversed: shown(0.1, 0.2), score },
    ]);
    expect(f.mode).toBe('group');
    expect(f.n).toBe(2);
    expect(f.faults).toBe(1);
    expect(f.first_wins!).toBeCloseTo(2.5 / 4, 12);
    expect(f.order_agreement!).toBeCloseTo(4 / 4, 12);
    const pics = ['a1', 'a2', 'a3', 'b1', 'c1', 'c2'].map((id) => ({ id, prompt_id: id[0]! }));
    expect(groupsWithinPrompts(pics, 2, 10).map((g) => g.map((p) => p.id).join())).toEqual([
      'a1,a2',
      'c1,c2',
    ]);
  });

  it('pairs consecutive pictures of one prompt, up to the cap', () => {
    const pics = ['a1', 'b1', 'a2', 'a3', 'b2', 'c1'].map((id) => ({ id, prompt_id: id[0]! }));
    expect(pairsWithinPrompts(pics, 10).map(([x, y]) => `${x.id}-${y.id}`)).toEqual([
      'a1-a2',
      'a2-a3',
      'b1-b2',
    ]);
    expect(pairsWithinPrompts(pics, 2)).toHaveLength(2);
  });

  it('are a table of the health card', () => {
    const report: ProbeReport = {
      schema: PROBE_SCHEMA,
      created_at: '2026-01-01T00:00:00Z',
      verdict: 'pass',
      judge: 'j',
      reward: 'ruler',
      mode: 'joint',
      repeats: 3,
      seed: 1,
      pictures: { rollouts: 1, used: 1, skipped: {} },
      tolerance: 0.02,
      thresholds: DEFAULT_THRESHOLDS,
      grader_faults: { scorings: 3, faults: 0, by_reason: {} },
      probes: [],
      judging_modes: [
        absoluteFigures('absolute-greedy', [[rec(0.5, 'greedy'), rec(0.7, 'greedy')]]),
        pairwiseFigures([{ ab: said('first'), ba: said('first') }]),
      ],
      examples: {},
      elapsed_ms: 1,
    };
    const html = renderHealthCard(report);
    expect(html).toContain('<h2>Judging modes</h2>');
    expect(html).toContain('absolute · greedy (the written score)');
    expect(html).toContain(`<td class="fig">${(Math.sqrt(0.02)).toFixed(4)}</td>`);
    expect(html).toContain('<td class="fig">100.0%</td><td class="fig">0.0%</td>');
  });
});
