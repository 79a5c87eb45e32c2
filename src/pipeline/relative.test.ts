// `--judging pairwise` through the real pipeline: a real render pool draws every rollout, a
// judge over loopback HTTP (the model double) gives every close call to the picture shown
// first and otherwise names the better one. Each rollout draws a bar whose width is its latent
// quality, and the double reads the quality back from the pixels.
// Shown: the same reward to the last bit whichever order a group arrives in; groups of 8 and
// 16 ranked with Kendall τ ≥ 0.9 under all pairs (a single order, the same judge, ranks them
// worse); 2N calls a group of N for circular, N(N−1) for all; a faulted comparison masked; a
// group of one keeps its absolute score.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeClient, rulerRubric } from '../../test/score/support/fixtures.ts';
import { judgeByImage } from '../../test/server/support.ts';
import { type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { inkShare, pairwiseFirstBias } from '../../test/support/model-double-pairwise.ts';
import { seededRng } from '../../test/support/schema-random.ts';
import type { RolloutInput, ScoreRecord } from '../core/record.ts';
import { createRenderPool } from '../render/pool.ts';
import { type Comparison, fitBradleyTerry } from '../reward/bradley-terry.ts';
import { pairPlan } from './relative.ts';
import { createRolloutScorer } from './score.ts';
import type { InspectingScorer } from './types.ts';

/** A bar of width 10 + 80·q (of 100): ink share 0.1 + 0.8·q. */
const bar = (q: number) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="0" y="0" width="${(10 + 80 * q).toFixed(3)}" height="100" fill="#000"/></svg>\n\`\`\``;
const qualityOf = async (url: string) =>
  Math.round(((await inkShare(url)) - 0.1) / 0.8 / 1e-3) * 1e-3;

/** Kendall τ-a between two score lists (ties count neither way). */
function kendall(x: readonly number[], y: readonly number[]): number {
  let s = 0;
  const n = x.length;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) s += Math.sign(x[i]! - x[j]!) * Math.sign(y[i]! - y[j]!);
  return s / ((n * (n - 1)) / 2);
}

function group(id: string, qs: readonly number[]): RolloutInput[] {
  return qs.map((q, k) => ({ id: `${id}-${k}`, prompt_id: id, completion: bar(q) }));
}

/** Qualities spread over [0, 1] in a seeded random arrival order. */
function latent(n: number, seed: number): number[] {
  const rng = seededRng(seed);
  const qs = Array.from({ length: n }, (_, k) => k / (n - 1));
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [qs[i], qs[j]] = [qs[j]!, qs[i]!];
  }
  return qs;
}

const CLOSE = 0.3;
const biased = pairwiseFirstBias({
  quality: qualityOf,
  close: CLOSE,
  single: judgeByImage(),
  fails: (a, b) => failing.has(`${a}>${b}`),
});
const failing = new Set<string>();
const rubrics = ['g8', 'g16', 'solo', 'gf'].map((id) => rulerRubric(id, `a bar for ${id}`));
let double: ModelDouble;
const renderer = createRenderPool({ workers: 2 });
let scorer: InspectingScorer;

beforeAll(async () => {
  double = await startModelDouble({ handler: biased });
  scorer = await createRolloutScorer({
    rubrics,
    judge: judgeClient(double.url, { maxRetries: 0 }),
    renderer,
    cache: false,
    judging: { judging: 'pairwise' },
  });
});
afterAll(async () => {
  await scorer?.close();
  await renderer.close();
  await double?.close();
});

const pairwiseCalls = () => double.requests.filter((r) => r.images.length === 2).length;
const byId = (recs: ScoreRecord[]) => new Map(recs.map((r) => [r.id, r]));

describe('pairwise judging of a group', () => {
  it('plans 2N ordered calls for circular and N(N−1) for all pairs', () => {
    expect(pairPlan(8, 'circular')).toHaveLength(16);
    expect(pairPlan(8, 'all')).toHaveLength(56);
    expect(pairPlan(2, 'circular')).toHaveLength(2);
    expect(pairPlan(1, 'all')).toHaveLength(0);
    // Both orders of every pair.
    const plan = pairPlan(5, 'circular').map(([a, b]) => `${a},${b}`);
    for (const p of plan) expect(plan).toContain(p.split(',').reverse().join(','));
  });

  for (const n of [8, 16]) {
    it(`ranks a group of ${n} by latent quality (τ ≥ 0.9) whatever order it arrives in`, async () => {
      const qs = latent(n, n);
      const items = group(`g${n}`, qs);
      double.reset();
      const a = await scorer.scoreBatch(items, { pairs: 'all' });
      expect(pairwiseCalls()).toBe(n * (n - 1));
      const tauAll = kendall(
        a.map((r) => r.reward),
        qs,
      );
      expect(tauAll).toBeGreaterThanOrEqual(0.9);
      for (const r of a) expect(r.relative).toMatchObject({ judging: 'pairwise', masked: 0 });
      // The judge's bias: about two thirds of its answers name the first picture.
      const said = biased.answers.first + biased.answers.second + biased.answers.tie;
      expect(biased.answers.first / said).toBeGreaterThan(0.6);

      // Reversed and shuffled arrival: the same reward to the last bit, for both pair plans.
      const reversed = [...items].reverse();
      const b = byId(await scorer.scoreBatch(reversed, { pairs: 'all' }));
      for (const r of a) expect(b.get(r.id)!.reward).toBe(r.reward);
      double.reset();
      const c1 = byId(await scorer.scoreBatch(items, { pairs: 'circular' }));
      expect(pairwiseCalls()).toBe(2 * n);
      const c2 = byId(await scorer.scoreBatch(reversed, { pairs: 'circular' }));
      for (const [id, r] of c1) expect(c2.get(id)!.reward).toBe(r.reward);

      // The same judge asked one order only (arrival order): the bias moves the ranking.
      const one: Comparison[] = [];
      for (let i = 0; i < n; i++)
        for (let j = i + 1; j < n; j++) {
          const close = Math.abs(qs[i]! - qs[j]!) < CLOSE;
          one.push({ i, j, score: close || qs[i]! > qs[j]! ? 1 : 0 });
        }
      const tauOne = kendall(fitBradleyTerry(n, one).scores, qs);
      expect(tauOne).toBeLessThan(tauAll);
      console.info(
        `group of ${n}: τ all pairs both orders ${tauAll.toFixed(3)}, circular ${kendall(
          items.map((it) => c1.get(it.id)!.reward),
          qs,
        ).toFixed(3)}, one order ${tauOne.toFixed(3)}`,
      );
    });
  }

  it('a group of one keeps its absolute score; records keep the trainer shape', async () => {
    const [solo] = await scorer.scoreBatch(group('solo', [0.5]), { pairs: 'all' });
    expect(solo!.relative).toBeUndefined();
    expect(solo!.status).toBe('ok');
    expect(solo!.components).toHaveProperty('semantic');
  });

  it('masks a faulted comparison instead of counting it a loss', async () => {
    const qs = [0, 0.5, 1];
    failing.add('1>0.5'); // the best picture shown first against the middle one: a 500
    try {
      double.reset();
      const recs = await scorer.scoreBatch(group('gf', qs), { pairs: 'all' });
      expect(recs.map((r) => r.relative!.masked)).toEqual([0, 1, 1]);
      expect(recs.every((r) => r.status === 'ok')).toBe(true);
      // Still ranked by quality, and the components still sum to the reward.
      expect(recs[2]!.reward).toBeGreaterThan(recs[1]!.reward);
      expect(recs[1]!.reward).toBeGreaterThan(recs[0]!.reward);
      for (const r of recs) {
        const sum = Object.values(r.components).reduce((x, y) => x + y, 0);
        expect(sum).toBeCloseTo(r.reward, 12);
      }
    } finally {
      failing.clear();
    }
  });
});
