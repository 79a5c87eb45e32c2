import { describe, expect, it } from 'vitest';
import { align, formatAlignReport } from './align.ts';

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n');

// Two prompts of three images each (the paper's triplets), hand-worked below.
//   item  pred  human        item  pred  human
//   a1    0.9   80           b1    0.2   10
//   a2    0.5   60           b2    0.2   30
//   a3    0.1   70           b3    0.8   20
const PRED: Record<string, number> = { a1: 0.9, a2: 0.5, a3: 0.1, b1: 0.2, b2: 0.2, b3: 0.8 };
const HUMAN = [
  { id: 'a1', group: 'A', score: 80 },
  { id: 'a2', group: 'A', score: 60 },
  { id: 'a3', group: 'A', score: 70 },
  { id: 'b1', group: 'B', score: 10 },
  { id: 'b2', group: 'B', score: 30 },
  { id: 'b3', group: 'B', score: 20 },
];

function scoreLine(id: string, reward: number, extra: Record<string, unknown> = {}) {
  return { id, prompt_id: null, reward, status: 'ok', reward_kind: 'universal', ...extra };
}

describe('align: absolute ratings', () => {
  const pred = jsonl(Object.entries(PRED).map(([id, r]) => scoreLine(id, r)));
  const report = align(pred, jsonl(HUMAN), { resamples: 400, seed: 3 });
  const a = report.absolute!;

  it('computes ρ, r and τ-b over all items', () => {
    // Ranks pred: 6 4 1 2.5 2.5 5; human: 6 4 5 1 3 2 (means 3.5).
    // Σdx·dy = 3.5, Σdx² = 17, Σdy² = 17.5 → ρ = 3.5/√297.5.
    expect(a.spearman.estimate).toBeCloseTo(3.5 / Math.sqrt(297.5), 12);
    // Means 0.45 and 45; Σdx·dy = 11.5, Σdx² = 0.575, Σdy² = 4150 → r = 11.5/√2386.25.
    expect(a.pearson.estimate).toBeCloseTo(11.5 / Math.sqrt(2386.25), 12);
    // 15 pairs: 8 concordant, 6 discordant, 1 tied in pred (b1,b2) → τb = 2/√(14·15).
    expect(a.kendall_tau_b.estimate).toBeCloseTo(2 / Math.sqrt(210), 12);
    expect(a.items).toBe(6);
    expect(a.groups).toBe(2);
  });

  it('computes γ inside each group only, pooled and averaged', () => {
    // A: C=2 D=1 (γ=1/3). B: (b1,b2) tied in pred, C=1 D=1 (γ=0).
    expect(a.gamma.estimate).toBeCloseTo(1 / 5, 12);
    expect(a.gamma_mean_per_group.estimate).toBeCloseTo(1 / 6, 12);
    expect(a.gamma_pairs).toEqual({ concordant: 3, discordant: 2, tied: 1, groups_with_pairs: 2 });
  });

  it('resamples groups for γ: its interval only takes values of whole-group mixes', () => {
    // Resampling two groups can only give {A,A} → 1/3, {B,B} → 0 or {A,B} → 1/5.
    expect([0, 0.2, 1 / 3].some((v) => Math.abs(a.gamma.low! - v) < 1e-12)).toBe(true);
    expect([0, 0.2, 1 / 3].some((v) => Math.abs(a.gamma.high! - v) < 1e-12)).toBe(true);
    expect(a.gamma.valid).toBe(400);
  });

  it('gives every statistic an interval inside [−1, 1] around its estimate', () => {
    for (const i of [a.spearman, a.pearson, a.kendall_tau_b, a.gamma]) {
      expect(i.low!).toBeGreaterThanOrEqual(-1);
      expect(i.high!).toBeLessThanOrEqual(1);
      expect(i.low!).toBeLessThanOrEqual(i.high!);
    }
  });

  it('is reproducible for a seed', () => {
    expect(align(pred, jsonl(HUMAN), { resamples: 400, seed: 3 })).toEqual(report);
  });
});

describe('align: inputs', () => {
  it('reads eval records, score lines and plain {id, score}, and reports what it skipped', () => {
    const pred = [
      JSON.stringify({
        id: 'a1',
        prompt_id: 'A',
        run: 'r',
        scores: { universal: scoreLine('a1', 0.9), ruler: scoreLine('a1', 0.1) },
      }),
      JSON.stringify(scoreLine('a2', 0.5)),
      JSON.stringify({ id: 'a3', score: 0.1 }),
      JSON.stringify({ id: 'b1', score: 0.2 }),
      JSON.stringify({ id: 'b1', score: 0.99 }), // duplicate: first kept
      'not json',
      JSON.stringify({
        id: 'b2',
        prompt_id: 'B',
        run: 'r',
        scores: { ruler: scoreLine('b2', 0.2) },
      }), // no universal
      JSON.stringify(scoreLine('b3', 0, { status: 'unscoreable', reason: 'judge_error' })),
      JSON.stringify({ id: 'q', hello: 1 }),
      JSON.stringify({ id: 'extra', score: 0.3 }),
    ].join('\n');
    const human = `${jsonl([...HUMAN, { id: 'zz', group: 'Z', score: 5 }])}\n{"id":"a1","score":"high"}`;
    const r = align(pred, human, { resamples: 50 });
    expect(r.predictions).toBe(5);
    expect(r.absolute!.items).toBe(4);
    expect(r.unmatched_human).toEqual(['b2', 'b3', 'zz']);
    expect(r.unmatched_pred).toBe(1);
    expect(r.issues.map((i) => [i.file, i.line, i.code])).toEqual([
      ['pred', 5, 'duplicate_id'],
      ['pred', 6, 'bad_json'],
      ['pred', 7, 'no_reward'],
      ['pred', 8, 'grader_error'],
      ['pred', 9, 'bad_shape'],
      ['human', 8, 'bad_shape'],
    ]);
  });

  it('picks another reward from eval records with --reward', () => {
    const pred = jsonl([
      {
        id: 'a1',
        prompt_id: 'A',
        run: 'r',
        scores: { universal: scoreLine('a1', 0.1), ruler: scoreLine('a1', 0.9) },
      },
      {
        id: 'a2',
        prompt_id: 'A',
        run: 'r',
        scores: { universal: scoreLine('a2', 0.9), ruler: scoreLine('a2', 0.1) },
      },
    ]);
    const human = jsonl([
      { id: 'a1', group: 'A', score: 9 },
      { id: 'a2', group: 'A', score: 1 },
    ]);
    expect(align(pred, human, { resamples: 10 }).absolute!.gamma.estimate).toBe(-1);
    expect(align(pred, human, { reward: 'ruler', resamples: 10 }).absolute!.gamma.estimate).toBe(1);
  });

  it('keeps ungrouped items out of γ but in ρ', () => {
    const pred = jsonl(Object.entries(PRED).map(([id, score]) => ({ id, score })));
    const human = jsonl(HUMAN.map(({ id, score }) => ({ id, score })));
    const a = align(pred, human, { resamples: 10 }).absolute!;
    expect(a.spearman.estimate).toBeCloseTo(3.5 / Math.sqrt(297.5), 12);
    expect(a.gamma.estimate).toBeNull();
    expect(a.gamma_pairs.groups_with_pairs).toBe(0);
    expect(a.groups).toBe(6);
  });

  it('returns nulls, not throws, for constant predictions and empty files', () => {
    const flat = jsonl(HUMAN.map(({ id }) => ({ id, score: 0.5 })));
    const a = align(flat, jsonl(HUMAN), { resamples: 20 }).absolute!;
    expect(a.spearman).toMatchObject({ estimate: null, low: null, high: null });
    expect(a.gamma.estimate).toBeNull();
    const empty = align('', '');
    expect(empty.absolute).toBeNull();
    expect(empty.pairwise).toBeNull();
    expect(formatAlignReport(empty)).toContain('no human judgements found');
  });
});

describe('align: pairwise votes', () => {
  const pred = jsonl(Object.entries(PRED).map(([id, score]) => ({ id, score })));
  const votes = [
    { group: 'A', a: 'a1', b: 'a2', winner: 'a' }, // .9 > .5 → agree
    { group: 'A', a: 'a2', b: 'a3', winner: 'b' }, // .5 > .1 → disagree
    { group: 'B', a: 'b1', b: 'b2', winner: 'a' }, // .2 = .2 → predicted tie
    { group: 'B', a: 'b1', b: 'b3', winner: 'tie' }, // human tie, prediction decided
    { group: 'B', a: 'b2', b: 'b1', winner: 'tie' }, // both tie
    { group: 'C', a: 'a1', b: 'b3', winner: 'a' }, // .9 > .8 → agree
    { group: 'C', a: 'a1', b: 'zz', winner: 'a' }, // no prediction for zz
  ];

  it('counts agreement with ties apart', () => {
    const p = align(pred, jsonl(votes), { resamples: 200 }).pairwise!;
    expect(p).toMatchObject({
      votes: 6,
      human_ties: 2,
      decided: 4,
      agree: 2,
      disagree: 1,
      predicted_ties: 1,
      both_tie: 1,
    });
    expect(p.agreement.estimate).toBeCloseTo(2 / 3, 12); // 2 / (2 + 1)
    expect(p.agreement_ties_half.estimate).toBeCloseTo(0.625, 12); // (2 + ½) / 4
    expect(p.exact.estimate).toBeCloseTo(0.5, 12); // (2 + 1) / 6
  });

  it('widens predicted ties with tieEpsilon', () => {
    const p = align(pred, jsonl(votes), { resamples: 20, tieEpsilon: 0.15 }).pairwise!;
    // a1 vs b3 (0.1 apart) becomes a predicted tie; b1 vs b3 (0.6 apart) stays decided.
    expect(p).toMatchObject({ agree: 1, disagree: 1, predicted_ties: 2, both_tie: 1 });
    expect(p.agreement.estimate).toBe(0.5);
  });

  it('reports vote items with no prediction and rejects malformed votes', () => {
    const bad = `${jsonl(votes)}\n{"a":"a1","b":"a1","winner":"a"}\n{"a":"a1","b":"a2","winner":"sideways"}`;
    const r = align(pred, bad, { resamples: 10 });
    expect(r.unmatched_human).toEqual(['zz']);
    expect(r.issues.map((i) => [i.line, i.code])).toEqual([
      [8, 'bad_shape'],
      [9, 'bad_shape'],
    ]);
    // Spreadsheet spellings of a winner are read, not rejected: "left" is the first item.
    const left = align(pred, `${jsonl(votes)}\n{"a":"a1","b":"a2","winner":"left"}`, {
      resamples: 10,
    });
    expect(left.issues).toEqual([]);
    expect(left.pairwise!.votes).toBe(7);
    const text = formatAlignReport(r);
    expect(text).toContain('pairwise votes: 6');
    expect(text).toContain('agreement (both sides decided)');
    expect(text).toContain('0.667');
  });
});
