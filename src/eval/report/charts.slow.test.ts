// The report's charts agree with summary.json and stay readable: one quantile definition for
// p90 (card and chart), whole-number ticks on count axes, long criterion names wrapped and
// listed in full, and the n behind every chart in its note.
import { describe, expect, it } from 'vitest';
import { fixtureComponents } from '../../../test/support/score-record.ts';
import type { ChecksSummary, ScoreRecord } from '../../core/record.ts';
import { summarizeRun } from '../summary.ts';
import type { EvalRecord } from '../types.ts';
import { renderCharts, wrapLabel } from './charts.ts';

const CHECKS: ChecksSummary = {
  renders: true,
  blank: false,
  ink_coverage: 0.3,
  clipped: false,
  text_in_image: false,
  clutter: false,
  output_tokens: 0,
  svg_tokens: 0,
  dwt_stages: [],
  dwt_valid: false,
  values: {},
};

const LONG =
  'the lighthouse stands on a rocky cliff and its beam sweeps across the dark sea where a small boat with a red sail is heading home before the storm';

function rec(i: number, tokens: number, status: 'ok' | 'grader_error' = 'ok'): EvalRecord {
  const score: ScoreRecord = {
    id: `r${i}`,
    prompt_id: `p${i}`,
    reward: 0.5,
    status,
    reason: status === 'ok' ? undefined : 'judge_error',
    reward_kind: 'universal',
    components: fixtureComponents('universal', 0.5, status),
    criteria:
      status === 'ok'
        ? [
            { key: LONG, axis: 'semantic', weight: 5, score: 0.4 },
            { key: 'colour', axis: 'visual', weight: 1, score: 0.9 },
          ]
        : [],
    checks: { ...CHECKS, output_tokens: tokens },
    cached: false,
    usage: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: null, latencyMs: 0 },
    render_ms: 1,
  };
  return { id: `r${i}`, prompt_id: `p${i}`, prompt: 'x', run: 'm', scores: { universal: score } };
}

const texts = (svg: string) =>
  [...svg.matchAll(/<(?:text|tspan)[^>]*>([^<]*)(?=<)/g)].map((m) => m[1]!).filter(Boolean);

describe('renderCharts', () => {
  // Tokens 100 200 300 400 1000: linear p90 = 400 + .6·600 = 760; nearest rank would say 1000.
  const records = [
    rec(0, 100),
    rec(1, 200),
    rec(2, 300),
    rec(3, 400, 'grader_error'),
    rec(4, 1000),
  ];

  it('marks the same p90 as summary.json and the headline tile', async () => {
    const p90 = summarizeRun(records).rewards.universal!.output_tokens.p90;
    expect(p90).toBe(760);
    const tokens = (await renderCharts(records, ['universal'])).find((c) => c.id === 'tokens')!;
    expect(texts(tokens.svg!)).toContain('p90 760');
    expect(tokens.note).toContain('n = 5 rollouts');
  });

  it('ticks count axes at whole numbers only', async () => {
    // Two rollouts per bin at most: vega's default ticks would be 0, 0.2, … 2.
    const charts = await renderCharts(records, ['universal']);
    for (const id of ['reward', 'status', 'tokens']) {
      const svg = charts.find((c) => c.id === id)!.svg!;
      const numbers = texts(svg).filter((t) => /^\d+(\.\d+)?$/.test(t));
      expect(numbers.length, id).toBeGreaterThan(0);
      // Reward bins are labelled 0.0 … 1.0 on the x axis; count labels have no decimal point.
      const counts = id === 'reward' ? numbers.filter((t) => !t.includes('.')) : numbers;
      expect(counts.length, id).toBeGreaterThan(0);
      if (id !== 'reward')
        expect(
          numbers.filter((t) => t.includes('.')),
          id,
        ).toEqual([]);
    }
    const reward = charts.find((c) => c.id === 'reward')!.svg!;
    expect(
      texts(reward)
        .filter((t) => /^\d\.\d$/.test(t))
        .every((t) => Number(t) <= 1),
    ).toBe(true);
  });

  it('wraps long criterion names, lists them in full and shows each n', async () => {
    const charts = await renderCharts(records, ['universal']);
    const crit = charts.find((c) => c.id === 'criteria')!;
    const lines = texts(crit.svg!);
    // The name is spread over lines (the first words are there, nothing cut mid-label at 260 px).
    expect(lines).toContain('the lighthouse stands on a rocky');
    expect(lines).toContain('(n = 4)');
    expect(crit.fullNames).toEqual([LONG]);
    const axes = charts.find((c) => c.id === 'axes')!;
    expect(texts(axes.svg!)).toEqual(expect.arrayContaining(['semantic', '(n = 4)']));
    const reward = charts.find((c) => c.id === 'reward')!;
    expect(reward.note).toBe('n = 4 (4 judged, 0 failures drawn at 0); 1 not judged, left out.');
  });
});

describe('wrapLabel', () => {
  it('breaks at spaces, cuts words longer than a line and shortens past four lines', () => {
    expect(wrapLabel('colour')).toEqual({ lines: ['colour'], cut: false });
    const long = wrapLabel(LONG);
    expect(long.cut).toBe(true);
    expect(long.lines).toHaveLength(4);
    expect(long.lines.every((l) => l.length <= 34)).toBe(true);
    expect(long.lines[3]!.endsWith('…')).toBe(true);
    expect(wrapLabel('x'.repeat(40)).lines).toEqual(['x'.repeat(34), 'x'.repeat(6)]);
  });
});

describe('renderCharts with nothing judged', () => {
  it('draws no reward distribution from the failures alone', async () => {
    const failed = rec(0, 100, 'grader_error');
    failed.scores.universal = {
      ...failed.scores.universal!,
      status: 'unscoreable',
      reason: 'no_svg',
      reward: 0,
    };
    const charts = await renderCharts([failed, rec(1, 200, 'grader_error')], ['universal']);
    const reward = charts.find((c) => c.id === 'reward')!;
    expect(reward.svg).toBeNull();
    expect(reward.note).toBe('0 of 2 judged; no reward to draw (1 failed, 1 not judged).');
  });
});
