import { describe, expect, it } from 'vitest';
import { alignJudges, type JudgeInput } from './align-table.ts';
import { formatAlignTable } from './align-table-text.ts';
import { binomialTest } from './stats/agreement.ts';
import { type PairwiseVote, parseHuman, parsePredictions } from './stats/align-input.ts';

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n');
const BOOT = { resamples: 200, seed: 5 };

/** 300 human votes on distinct pairs; the judge agrees on 205, disagrees on 84, ties 11. */
function bigStudy() {
  const human: PairwiseVote[] = [];
  const judge: PairwiseVote[] = [];
  for (let i = 0; i < 300; i++) {
    const a = `p${i}-x`;
    const b = `p${i}-y`;
    human.push({ group: `p${i}`, a, b, winner: 'a', rater: null });
    // The judge sees the pair the other way round half the time: b first.
    const verdict = i < 205 ? 'same' : i < 289 ? 'other' : 'tie';
    const flip = i % 2 === 1;
    const winnerId = verdict === 'same' ? a : b;
    judge.push(
      flip
        ? {
            group: null,
            a: b,
            b: a,
            winner: verdict === 'tie' ? 'tie' : winnerId === b ? 'a' : 'b',
            rater: null,
          }
        : {
            group: null,
            a,
            b,
            winner: verdict === 'tie' ? 'tie' : winnerId === a ? 'a' : 'b',
            rater: null,
          },
    );
  }
  return { human, judge };
}

const choicesJudge = (name: string, choices: PairwiseVote[]): JudgeInput => ({
  name,
  predictions: { scores: new Map(), byRun: new Map(), choices, issues: [] },
});

describe('alignJudges: pairwise choices', () => {
  const { human, judge } = bigStudy();
  const humanJ = { absolute: [], pairwise: human, issues: [] };

  it('matches choices to votes whatever the side order, under each tie policy', () => {
    const ex = alignJudges([choicesJudge('j', judge)], humanJ, { ...BOOT, ties: 'exclude' });
    const p = ex.judges[0]!.pairwise!;
    expect(p).toMatchObject({
      votes: 300,
      human_decided: 300,
      agree: 205,
      disagree: 84,
      judge_ties: 11,
    });
    expect(p.counted).toBe(289);
    expect(p.agreement.estimate).toBeCloseTo(205 / 289, 12);
    expect(p.low_support).toBe(false);
    const half = alignJudges([choicesJudge('j', judge)], humanJ, { ...BOOT, ties: 'half' });
    expect(half.judges[0]!.pairwise!.agreement.estimate).toBeCloseTo((205 + 5.5) / 300, 12);
    const loss = alignJudges([choicesJudge('j', judge)], humanJ, { ...BOOT, ties: 'loss' });
    expect(loss.judges[0]!.pairwise!.agreement.estimate).toBeCloseTo(205 / 300, 12);
  });

  it('measures position bias on the judge’s own votes with a binomial test', () => {
    const t = alignJudges([choicesJudge('j', judge)], humanJ, BOOT);
    const pos = t.judges[0]!.pairwise!.position!;
    // Even i: a shown first; agree → 'a'. Odd i: flipped; agree → 'b'. Count by hand:
    const first = judge.filter((v) => v.winner === 'a').length;
    const second = judge.filter((v) => v.winner === 'b').length;
    expect(pos).toMatchObject({ votes: 300, first, second, ties: 11 });
    expect(pos.share_first).toBeCloseTo(first / (first + second), 12);
    expect(pos.p_value).toBeCloseTo(binomialTest(first, first + second)!, 12);
    // People here always picked the first shown: share 1, p tiny.
    expect(t.human.position!.share_first).toBe(1);
    expect(t.human.position!.p_value!).toBeLessThan(1e-80);
  });

  it('flags an agreement that stands on a handful of decided votes', () => {
    // The issue's case: a judge that ties 298 of 300 votes and gets the other 2 right.
    const tieHeavy = judge.map((v, i) =>
      i < 2 ? { ...v, winner: human[i]!.winner } : { ...v, winner: 'tie' as const },
    );
    tieHeavy[1] = { ...human[1]! };
    const t = alignJudges([choicesJudge('tiny', tieHeavy)], humanJ, BOOT);
    const p = t.judges[0]!.pairwise!;
    expect(p.counted).toBe(2);
    expect(p.agreement.estimate).toBe(1);
    expect(p.low_support).toBe(true);
    const text = formatAlignTable(t);
    expect(text).toContain(
      'warning: tiny: agreement rests on 2 of 300 votes people decided (298 judge ties',
    );
    expect(text).toMatch(/tiny\s+choices\s+1\.000 .* 2\/300 .* LOW/);
  });
});

describe('alignJudges: several judges, majority, human ceiling', () => {
  // Four pairs; people (two raters) vote; r1 repeats pairs P and Q.
  const human = parseHuman(
    jsonl([
      { group: 'g1', a: 'p1', b: 'p2', winner: 'a', rater: 'r1' }, // P
      { group: 'g1', a: 'p2', b: 'p1', winner: 'b', rater: 'r1' }, // P repeated, same choice
      { group: 'g2', a: 'q1', b: 'q2', winner: 'a', rater: 'r1' }, // Q
      { group: 'g2', a: 'q1', b: 'q2', winner: 'b', rater: 'r1' }, // Q repeated, other choice
      { group: 'g1', a: 'p1', b: 'p2', winner: 'a', rater: 'r2' }, // P by r2
      { group: 'g3', a: 's1', b: 's2', winner: 'tie', rater: 'r2' },
      { group: 'g4', a: 't1', b: 't2', winner: 'b', rater: 'r2' },
    ]),
  );
  // J1 (choices): P→p1, Q→q1, S→s1, T→t2. J2 (scores): P→p1, Q→q2, S tie, T→t2.
  // J3 (choices, sides reversed, CSV-ish winners): P→p2, Q→q2, T→t2, no S.
  const j1 = parsePredictions(
    jsonl([
      { a: 'p1', b: 'p2', winner: 'a' },
      { a: 'q1', b: 'q2', winner: 'a' },
      { a: 's1', b: 's2', winner: 'a' },
      { a: 't1', b: 't2', winner: 'b' },
    ]),
  );
  const j2 = parsePredictions(
    jsonl([
      { id: 'p1', score: 0.9 },
      { id: 'p2', score: 0.1 },
      { id: 'q1', score: 0.2 },
      { id: 'q2', score: 0.8 },
      { id: 's1', score: 0.5 },
      { id: 's2', score: 0.5 },
      { id: 't1', score: 0.3 },
      { id: 't2', score: 0.7 },
    ]),
  );
  const j3 = parsePredictions(
    jsonl([
      { a: 'p2', b: 'p1', winner: 'left' },
      { a: 'q2', b: 'q1', winner: 'q2' },
      { a: 't2', b: 't1', winner: 1 },
    ]),
  );
  const t = alignJudges(
    [
      { name: 'j1', predictions: j1 },
      { name: 'j2', predictions: j2 },
      { name: 'j3', predictions: j3 },
    ],
    human,
    BOOT,
  );
  const row = (name: string) => t.judges.find((j) => j.name === name)!;

  it('scores each judge against every human vote, repeats included', () => {
    // Human votes: P p1, P p1, Q q1, Q q2, P p1, S tie, T t2 (6 decided, 1 tie).
    expect(row('j1').pairwise).toMatchObject({
      votes: 7,
      agree: 5,
      disagree: 1,
      judge_ties: 0,
      human_ties: 1,
      both_tie: 0,
    });
    expect(row('j2').source).toBe('scores');
    expect(row('j2').pairwise).toMatchObject({ votes: 7, agree: 5, disagree: 1, both_tie: 1 });
    expect(row('j2').pairwise!.position).toBeNull();
    // j3 has no verdict on S: 6 votes, P ×3 wrong, Q one right one wrong, T right.
    expect(row('j3').pairwise).toMatchObject({ votes: 6, agree: 2, disagree: 4 });
    expect(row('j3').unmatched).toBe(1);
  });

  it('adds the majority of the judges as an extra judge', () => {
    // P: p1,p1,p2 → p1. Q: q1,q2,q2 → q2. S: s1, tie, — → s1. T: t2 ×3 → t2.
    const m = row('majority');
    expect(m.source).toBe('majority');
    // vs people: P ✓✓✓, Q ✗✓, S human tie, T ✓.
    expect(m.pairwise).toMatchObject({ votes: 7, agree: 5, disagree: 1, human_ties: 1 });
  });

  it('reports judge-vs-judge agreement over the voted pairs', () => {
    const j1j2 = t.judge_vs_judge.find((p) => p.a === 'j1' && p.b === 'j2')!;
    // Pairs P,Q,S,T: same on P,T; differ on Q; S j1 decided, j2 tie.
    expect(j1j2).toMatchObject({ pairs: 4, both_decided: 3, agree: 2 });
    expect(j1j2.exact).toBeCloseTo(2 / 4, 12);
    const j1j3 = t.judge_vs_judge.find((p) => p.a === 'j1' && p.b === 'j3')!;
    expect(j1j3).toMatchObject({ pairs: 3, both_decided: 3, agree: 1 });
  });

  it('measures self-agreement from a rater’s repeats and inter-rater agreement apart', () => {
    // r1: P twice (same), Q twice (different) → 1 of 2. r1 vs r2 on P: two couples, both agree.
    expect(t.human.self_agreement).toMatchObject({
      couples: 2,
      both_decided: 2,
      agree: 1,
      agreement: 0.5,
    });
    expect(t.human.inter_rater).toMatchObject({ couples: 2, agree: 2, agreement: 1 });
    expect(t.human.raters).toBe(2);
    const text = formatAlignTable(t);
    expect(text).toContain('human votes: 7 (6 decided, 1 ties) from 2 raters');
    expect(text).toContain('self-agreement on repeated pairs: 0.500 (1/2 couples');
  });
});

describe('alignJudges: absolute ratings from several raters', () => {
  it('averages raters per item for the correlations and reports their α', () => {
    const human = parseHuman(
      jsonl([
        { id: 'x', group: 'g', score: 10, rater: 'r1' },
        { id: 'x', group: 'g', score: 30, rater: 'r2' },
        { id: 'y', group: 'g', score: 60, rater: 'r1' },
        { id: 'y', group: 'g', score: 80, rater: 'r2' },
        { id: 'z', group: 'g', score: 90, rater: 'r1' },
        { id: 'z', group: 'g', score: 99, rater: 'r1', repeat: true },
      ]),
    );
    expect(human.absolute).toHaveLength(5);
    const pred = parsePredictions(
      jsonl([
        { id: 'x', score: 1 },
        { id: 'y', score: 2 },
        { id: 'z', score: 3 },
      ]),
    );
    const t = alignJudges([{ name: 'j', predictions: pred }], human, BOOT);
    expect(t.judges[0]!.absolute!.items).toBe(3);
    expect(t.judges[0]!.absolute!.spearman.estimate).toBeCloseTo(1, 12);
    // Units x: {10,30}, y: {60,80} (z has one value). n = 4, mean 45.
    // Do = (2·400 + 2·400)/4 = 400; Σ(v−45)² = 1225+225+225+1225 = 2900;
    // De = 2·4·2900/(4·3) → α = 1 − 400/(8·2900/12) = 0.7931.
    expect(t.human.ratings_alpha).toBeCloseTo(1 - 400 / ((8 * 2900) / 12), 12);
  });
});

describe('alignJudges: counting, pairing checks, pooled position, ceiling (issue 25)', () => {
  const v = (
    a: string,
    b: string,
    winner: 'a' | 'b' | 'tie',
    extra: Partial<PairwiseVote> = {},
  ): PairwiseVote => ({ group: 'g', a, b, winner, rater: null, ...extra });
  // Pair x–y voted twice by people (a, a) and the judge asked once per vote (a, then b): a split.
  // Pair u–w: people split (a, b), the judge votes a twice. Pair s–t: one vote each, agreed.
  const human = {
    absolute: [],
    pairwise: [
      v('x', 'y', 'a'),
      v('x', 'y', 'a'),
      v('u', 'w', 'a'),
      v('u', 'w', 'b'),
      v('s', 't', 'a'),
    ],
    issues: [],
  };
  const judge = [
    v('x', 'y', 'a'),
    v('y', 'x', 'a'),
    v('u', 'w', 'a'),
    v('u', 'w', 'a'),
    v('s', 't', 'a'),
  ];

  it('--count pairs merges a split into a tie; --count votes counts each vote, and says so', () => {
    const pairs = alignJudges([choicesJudge('j', judge)], human, BOOT);
    expect(pairs.count).toBe('pairs');
    expect(pairs.judges[0]!.pairwise).toMatchObject({ agree: 2, disagree: 1, judge_ties: 2 });
    expect(formatAlignTable(pairs)).toMatch(/^counting: pairs \(per pair: /m);
    const votes = alignJudges([choicesJudge('j', judge)], human, { ...BOOT, count: 'votes' });
    expect(votes.count).toBe('votes');
    expect(votes.judges[0]!.pairwise).toMatchObject({ agree: 3, disagree: 2, judge_ties: 0 });
    expect(votes.judges[0]!.pairwise!.agreement.estimate).toBeCloseTo(3 / 5, 12);
    expect(formatAlignTable(votes)).toMatch(/^counting: votes \(per vote: /m);
  });

  it('--count votes matches a judge vote by its vote id before file order', () => {
    const h = {
      ...human,
      pairwise: [v('x', 'y', 'a', { id: 'h1' }), v('x', 'y', 'b', { id: 'h2' })],
    };
    // The judge's file lists h2 first: by order it would disagree twice, by id it agrees twice.
    const j = [v('x', 'y', 'b', { id: 'h2' }), v('x', 'y', 'a', { id: 'h1' })];
    const t = alignJudges([choicesJudge('j', j)], h, { ...BOOT, count: 'votes' });
    expect(t.judges[0]!.pairwise).toMatchObject({ agree: 2, disagree: 0 });
    // A human vote with no judge vote left on its pair is unmatched, not a tie.
    const short = alignJudges([choicesJudge('j', [j[1]!])], human, { ...BOOT, count: 'votes' });
    expect(short.judges[0]!.unmatched).toBe(4);
  });

  it('warns when the two sides of a vote are pictures of different prompts, and counts them', () => {
    const preds = parsePredictions(
      jsonl([
        { id: 'a1', prompt_id: 'p1', reward: 0.9 },
        { id: 'b1', prompt_id: 'p1', reward: 0.2 },
        { id: 'b2', prompt_id: 'p2', reward: 0.5 },
      ]),
    );
    const h = {
      absolute: [],
      pairwise: [v('a1', 'b1', 'a'), v('a1', 'b2', 'a'), v('b2', 'a1', 'b')],
      issues: [],
    };
    const t = alignJudges([{ name: 's', predictions: preds }], h, BOOT);
    expect(t.pairing.cross_prompt_votes).toBe(2);
    expect(formatAlignTable(t)).toMatch(
      /warning: 2 of 3 human votes compare pictures of two different prompts \(e\.g\. a1 \(p1\) vs b2 \(p2\)\)/,
    );
    // Pairs of the same two items under two groups (a wrong grouping column): merged, said so.
    const merged = {
      absolute: [],
      pairwise: [v('m1', 'm2', 'a', { group: 'p1' }), v('m2', 'm1', 'a', { group: 'p2' })],
      issues: [],
    };
    const j = [v('m1', 'm2', 'a', { group: 'p3' })];
    const t2 = alignJudges([choicesJudge('j', j)], merged, BOOT);
    expect(t2.pairing.human_pairs_in_several_groups).toBe(1);
    expect(t2.pairing.judge_other_group).toEqual({ j: 2 });
    const text = formatAlignTable(t2);
    expect(text).toMatch(/warning: 1 pairs of items were voted on under more than one group/);
    expect(text).toMatch(
      /warning: j: 2 human votes meet this judge's votes on the same pair under another group/,
    );
    // A clean study gives no warning.
    expect(alignJudges([choicesJudge('j', judge)], human, BOOT).pairing.warnings).toEqual([]);
  });

  it('prints the pooled position share next to the per-judge ones', () => {
    const other = [v('x', 'y', 'b'), v('u', 'w', 'b'), v('s', 't', 'a'), v('s', 't', 'tie')];
    const t = alignJudges([choicesJudge('j', judge), choicesJudge('k', other)], human, BOOT);
    // j: first 5 of 5 decided; k: first 1 of 3 decided → pooled 6 of 8.
    expect(t.pooled_position).toMatchObject({ votes: 9, first: 6, second: 2, ties: 1 });
    expect(t.pooled_position!.share_first).toBeCloseTo(6 / 8, 12);
    expect(formatAlignTable(t)).toMatch(
      /^all choice judges pooled \(2, 9 votes\): first shown picked 75\.0% \(p /m,
    );
  });

  it('says which votes the human ceiling uses', () => {
    const named = {
      absolute: [],
      pairwise: [
        v('x', 'y', 'a', { rater: 'r1' }),
        v('x', 'y', 'a', { rater: 'r1' }),
        v('x', 'y', 'b', { rater: 'r2' }),
        v('s', 't', 'a', { rater: 'r2' }),
      ],
      issues: [],
    };
    const t = alignJudges([choicesJudge('j', judge)], named, BOOT);
    expect(t.human.self_agreement).toMatchObject({ couples: 1, votes: 2 });
    expect(t.human.inter_rater).toMatchObject({ couples: 2, votes: 3 });
    expect(formatAlignTable(t)).toMatch(
      /human ceiling uses every vote on a pair voted more than once, repeats \(studio "repeat": true\) included: self-agreement from 1 couples of votes on the same pair by the same rater, 2 votes; inter-rater from 2 couples by different raters, 3 votes/,
    );
  });
});
