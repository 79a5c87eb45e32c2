import { describe, expect, it } from 'vitest';
import { fixtureComponents } from '../../test/support/score-record.ts';
import type { CriterionScore } from '../core/criteria.ts';
import type { ChecksSummary, ScoreRecord } from '../core/record.ts';
import { summarizeRun } from './summary.ts';
import type { EvalRecord } from './types.ts';

function checks(over: Partial<ChecksSummary> = {}): ChecksSummary {
  return {
    renders: true,
    blank: false,
    ink_coverage: 0.3,
    clipped: false,
    text_in_image: false,
    clutter: false,
    output_tokens: 300,
    svg_tokens: 250,
    dwt_stages: [],
    dwt_valid: false,
    values: {},
    ...over,
  };
}

const crit = (key: string, axis: string, weight: number, score: number | null): CriterionScore => ({
  key,
  axis,
  weight,
  score,
});

function score(
  reward: number,
  over: Partial<ScoreRecord> = {},
  c: Partial<ChecksSummary> = {},
): ScoreRecord {
  return {
    id: 'x',
    prompt_id: null,
    reward,
    status: 'ok',
    reward_kind: 'universal',
    components: fixtureComponents(over.reward_kind ?? 'universal', reward, over.status),
    criteria: [],
    checks: checks(c),
    cached: false,
    usage: { calls: 1, inputTokens: 100, outputTokens: 50, costUsd: 0.01, latencyMs: 10 },
    render_ms: 5,
    ...over,
  };
}

function rec(id: string, prompt_id: string, scores: Record<string, ScoreRecord>): EvalRecord {
  return { id, prompt_id, prompt: `draw ${prompt_id}`, run: 'm1', scores };
}

// Six samples over three prompts in two sets (prompt_id prefixes), hand-computed below.
const RECORDS: EvalRecord[] = [
  rec('r1', 'icon/1', {
    universal: score(
      0.8,
      {
        criteria: [
          crit('k1', 'semantic', 5, 0.9),
          crit('k2', 'semantic', 5, 0.7),
          crit('k3', 'visual', 4, 0.8),
        ],
      },
      { output_tokens: 300 },
    ),
    ruler: score(0.9, { reward_kind: 'ruler' }),
  }),
  rec('r2', 'icon/1', {
    universal: score(
      0.6,
      {
        criteria: [
          crit('k1', 'semantic', 5, 0.5),
          crit('k2', 'semantic', 5, 0.7),
          crit('k3', 'visual', 4, 0.6),
        ],
      },
      { output_tokens: 500, text_in_image: true, judge_text: true },
    ),
  }),
  rec('r3', 'icon/2', {
    universal: score(
      0,
      { status: 'unscoreable', reason: 'parse_error' },
      { renders: false, output_tokens: 4000 },
    ),
  }),
  rec('r4', 'icon/2', {
    universal: score(
      0,
      { status: 'unscoreable', reason: 'judge_error', criteria: [crit('k1', 'semantic', 5, null)] },
      { output_tokens: 700 },
    ),
  }),
  rec('r5', 'illus/3', {
    universal: score(
      0,
      { status: 'unscoreable', reason: 'blank' },
      { blank: true, output_tokens: 100 },
    ),
  }),
  rec('r6', 'illus/3', {
    universal: score(
      0.4,
      {
        criteria: [
          crit('k1', 'semantic', 5, 0.4),
          crit('k2', 'semantic', 5, null),
          crit('k3', 'visual', 4, 0.1),
        ],
      },
      { output_tokens: 1000, clutter: true },
    ),
  }),
];

describe('summarizeRun', () => {
  const s = summarizeRun(RECORDS, { resamples: 300, seed: 9 });
  const u = s.rewards.universal!;

  it('counts renders and scores both ways, grader errors left out', () => {
    expect(s).toMatchObject({
      schema: 'rubrica.run-summary/1',
      runs: ['m1'],
      records: 6,
      prompts: 3,
    });
    expect(Object.keys(s.rewards)).toEqual(['universal', 'ruler']);
    expect(u).toMatchObject({ n: 6, prompts: 3, rendered: 5 });
    expect(u.render_success_rate).toBeCloseTo(5 / 6, 12);
    // Rendered, not a judge error: r1 .8, r2 .6, r5 0 (blank), r6 .4 → 1.8 / 4.
    expect(u.score_rendered.estimate).toBeCloseTo(0.45, 12);
    // All but the judge error: r1 .8, r2 .6, r3 0, r5 0, r6 .4 → 1.8 / 5.
    expect(u.score_all.estimate).toBeCloseTo(0.36, 12);
    expect(u.unscoreable).toEqual({ parse_error: 1, blank: 1 });
    expect(u.grader_errors).toEqual({ judge_error: 1 });
  });

  it('bootstraps over prompts, not samples', () => {
    // Units: icon/1 [.8,.6], icon/2 [] (nothing rendered but the judge error), illus/3 [0,.4].
    // Any resample's rendered mean is a mix of two equal-sized prompts: .7, .45 or .2 (a
    // resample of icon/2 alone has no mean and is dropped). Minimum lowered to reach the CI.
    const low = summarizeRun(RECORDS, { resamples: 300, seed: 9, minPrompts: 2 });
    const r = low.rewards.universal!.score_rendered;
    const possible = [0.7, 0.45, 0.2];
    for (const v of [r.low!, r.high!]) {
      expect(possible.some((p) => Math.abs(p - v) < 1e-12)).toBe(true);
    }
    expect(r).toMatchObject({ n: 4, prompts: 2, note: null });
    expect(low.bootstrap).toEqual({
      resamples: 300,
      seed: 9,
      level: 0.95,
      unit: 'prompt',
      min_prompts: 2,
    });
  });

  it('draws no interval from fewer prompts than the documented minimum', () => {
    // Two prompts hold rendered values; the default minimum is 10.
    expect(u.score_rendered).toMatchObject({ low: null, high: null, n: 4 });
    expect(u.score_rendered.estimate).toBeCloseTo(0.45, 12);
    expect(u.score_rendered.note).toBe('n too small: 2 prompts (a 95% CI needs ≥ 10)');
    expect(u.score_all.note).toBe('n too small: 3 prompts (a 95% CI needs ≥ 10)');
    // One prompt alone: a single value is never an interval.
    const one = summarizeRun([RECORDS[0]!], { minPrompts: 1, resamples: 50 });
    expect(one.rewards.universal!.score_rendered).toMatchObject({ low: 0.8, high: 0.8 });
    const strict = summarizeRun([RECORDS[0]!], { resamples: 50 });
    expect(strict.rewards.universal!.score_rendered.low).toBeNull();
    // Ten prompts are enough.
    const ten = Array.from({ length: 10 }, (_, i) =>
      rec(`t${i}`, `p${i}`, { universal: score(i / 10) }),
    );
    const t = summarizeRun(ten, { resamples: 200 }).rewards.universal!.score_rendered;
    expect(t.low).not.toBeNull();
    expect(t.low!).toBeLessThan(t.estimate!);
    expect(t.high!).toBeGreaterThan(t.estimate!);
    expect(t).toMatchObject({ n: 10, prompts: 10, note: null });
  });

  it('has no score when nothing was judged, only the reason', () => {
    // The judge never answered: one blank picture (a rule-based 0) and the rest not judged.
    // The old summary called that a rendered score of 0.000 [0.000, 0.000].
    const down = Array.from({ length: 12 }, (_, i) =>
      rec(`d${i}`, `p${i}`, {
        universal:
          i === 0
            ? score(0, { status: 'unscoreable', reason: 'blank' }, { blank: true })
            : i === 1
              ? score(0, { status: 'unscoreable', reason: 'no_svg' }, { renders: false })
              : score(0, { status: 'grader_error', reason: 'judge_error' }),
      }),
    );
    const d = summarizeRun(down, { resamples: 50 }).rewards.universal!;
    expect(d).toMatchObject({ judged: 0, not_judged: 10, n: 12 });
    // Its health figures are not made of the two rule-based zeros: nothing judged, no flat share.
    expect(d.health).toMatchObject({ judged: 0, groups: 0, flat_group_share: null });
    expect(d.health.clutter.mean_reward_unflagged).toBeNull();
    for (const est of [d.score_rendered, d.score_all]) {
      expect(est).toMatchObject({ estimate: null, low: null, high: null });
      expect(est.note).toBe(
        'none judged: 0 of 12 rollouts judged (10 not judged, 2 failed before judging)',
      );
    }
    expect(JSON.parse(JSON.stringify(d)).score_all.estimate).toBeNull();
    // Every rollout failing on its own is a measured 0 and keeps its score.
    const broken = down.slice(0, 2);
    expect(summarizeRun(broken, { resamples: 50 }).rewards.universal!.score_all).toMatchObject({
      estimate: 0,
      note: 'n too small: 2 prompts (a 95% CI needs ≥ 10)',
    });
  });

  it('means per axis (|w|-weighted within a record) and per criterion', () => {
    // semantic: r1 (5·.9+5·.7)/10 = .8, r2 .6, r6 .4 (k2 unscored) → .6
    // visual: .8, .6, .1 → .5
    expect(u.axes.semantic!.mean).toBeCloseTo(0.6, 12);
    expect(u.axes.semantic!.n).toBe(3);
    expect(u.axes.visual!.mean).toBeCloseTo(0.5, 12);
    const byKey = Object.fromEntries(u.criteria.map((c) => [c.key, c]));
    expect(byKey.k1).toMatchObject({ axis: 'semantic', weight: 5, n: 3 });
    expect(byKey.k1!.mean).toBeCloseTo(0.6, 12);
    expect(byKey.k2!.mean).toBeCloseTo(0.7, 12);
    expect(byKey.k2!.n).toBe(2);
    expect(byKey.k3!.mean).toBeCloseTo(0.5, 12);
  });

  it('describes output tokens and the reward-hacking monitors', () => {
    // Sorted tokens 100 300 500 700 1000 4000: mean 1100, p50 600, p90 = 1000 + .5·3000.
    expect(u.output_tokens).toMatchObject({ n: 6, mean: 1100, p50: 600, p90: 2500, max: 4000 });
    // Bins [0,250) [250,500) [500,1k) [1k,2k) [2k,4k) [4k,8k) [8k,16k) [16k,∞).
    expect(u.output_tokens.histogram.map((b) => b.count)).toEqual([1, 1, 2, 1, 0, 1, 0, 0]);
    // Shares among the five rendered samples.
    expect(u.hacking).toEqual({ text_in_image: 0.2, clutter: 0.2, blank: 0.2, judge_text: 0.2 });
    expect(u.hacking_counts).toEqual({ text_in_image: 1, clutter: 1, blank: 1, judge_text: 1 });
    expect(u).toMatchObject({ judged: 3, not_judged: 1 });
    expect(u.dwt).toEqual({ applicable: false, with_stages: 0, valid: 0, coverage: null });
    expect(u.usage).toMatchObject({ calls: 6, inputTokens: 600 });
    expect(u.usage.costUsd).toBeCloseTo(0.06, 12);
  });

  it('splits by prompt set', () => {
    expect(Object.keys(s.sets)).toEqual(['icon', 'illus']);
    const icon = s.sets.icon!;
    expect(icon).toMatchObject({ records: 4, prompts: 2 });
    expect(icon.rewards.universal!.score_rendered.estimate).toBeCloseTo(0.7, 12);
    expect(icon.rewards.universal!.score_all.estimate).toBeCloseTo(1.4 / 3, 12);
    expect(s.sets.illus!.rewards.universal!.score_rendered.estimate).toBeCloseTo(0.2, 12);
  });

  it('reads a `set` field first and has no sets when nothing names one', () => {
    const plain = RECORDS.map((r) => ({ ...r, prompt_id: r.prompt_id.replace('/', '-') }));
    expect(summarizeRun(plain, { resamples: 10 }).sets).toEqual({});
    const named = plain.map((r, i) => ({ ...r, set: i < 2 ? 'mmsvg-icon' : undefined }));
    expect(Object.keys(summarizeRun(named, { resamples: 10 }).sets)).toEqual([
      '(none)',
      'mmsvg-icon',
    ]);
  });

  it('measures DwT coverage when completions carry stages', () => {
    const stages = ['concept', 'canvas'];
    const dwt = [
      rec('d1', 'p', { universal: score(0.5, {}, { dwt_stages: stages, dwt_valid: true }) }),
      rec('d2', 'p', { universal: score(0.5, {}, { dwt_stages: stages, dwt_valid: false }) }),
      rec('d3', 'q', { universal: score(0.5, {}, { dwt_stages: [], dwt_valid: false }) }),
      rec('d4', 'q', { universal: score(0.5, {}, { dwt_stages: stages, dwt_valid: true }) }),
    ];
    expect(summarizeRun(dwt, { resamples: 10 }).rewards.universal!.dwt).toEqual({
      applicable: true,
      with_stages: 3,
      valid: 2,
      coverage: 0.5,
    });
  });

  it('is empty but well-formed for no records, and JSON round-trips', () => {
    const empty = summarizeRun([]);
    expect(empty).toMatchObject({ records: 0, prompts: 0, rewards: {}, sets: {} });
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});
