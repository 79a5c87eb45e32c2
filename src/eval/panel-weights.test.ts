// Panel weights fitted to human votes: a sharp judge gets most of the weight, a noisy one less,
// one that knows nothing none; weights are ≥ 0 and sum to 1, and predict the votes better than
// equal weights. Choice-only judges count by their own winner. `--panel-weights FILE` maps the
// fitted weights to --judge specs by name, and a list may hold a 0.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePanelWeights } from '../cli/align-weights.ts';
import { UsageError } from '../cli/usage-error.ts';
import { fitPanelWeights, PanelWeightsError } from './panel-weights.ts';
import type { PairwiseVote, Predictions } from './stats/align-input.ts';

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const preds = (scores: Map<string, number>, choices: PairwiseVote[] = []): Predictions => ({
  scores,
  byRun: new Map(),
  choices,
  issues: [],
});

/** 200 rollouts of latent quality q; people vote by Bradley–Terry on q (scale 6). */
function world(seed: number) {
  const u = rng(seed);
  const q = Array.from({ length: 200 }, () => u());
  const judge = (noise: number) =>
    new Map(q.map((x, i) => [`r${i}`, x + (u() - 0.5) * 2 * noise] as [string, number]));
  const votes: PairwiseVote[] = [];
  for (let k = 0; k < 600; k++) {
    const a = Math.floor(u() * 200);
    const b = (a + 1 + Math.floor(u() * 199)) % 200;
    const pa = 1 / (1 + Math.exp(-6 * (q[a]! - q[b]!)));
    votes.push({ group: null, a: `r${a}`, b: `r${b}`, winner: u() < pa ? 'a' : 'b', rater: null });
  }
  const blind = new Map(q.map((_, i) => [`r${i}`, u()] as [string, number]));
  return { sharp: judge(0.05), noisy: judge(0.4), blind, votes };
}

describe('panel weights from human votes', () => {
  it('a sharp judge outweighs a noisy one; a blind one gets ~0; ≥ 0, sum 1, better than equal', () => {
    const w = world(7);
    const fit = fitPanelWeights(
      [
        { name: 'sharp', predictions: preds(w.sharp) },
        { name: 'noisy', predictions: preds(w.noisy) },
        { name: 'blind', predictions: preds(w.blind) },
      ],
      w.votes,
      { now: () => new Date(0) },
    );
    const [sharp, noisy, blind] = fit.weights as [number, number, number];
    console.log(
      `fitted weights sharp ${sharp.toFixed(3)} noisy ${noisy.toFixed(3)} blind ${blind.toFixed(3)}, scale ${fit.scale.toFixed(2)}, log loss ${fit.log_loss.toFixed(4)} vs equal ${fit.log_loss_equal.toFixed(4)}`,
    );
    for (const x of fit.weights) expect(x).toBeGreaterThanOrEqual(0);
    expect(sharp + noisy + blind).toBeCloseTo(1, 12);
    expect(sharp).toBeGreaterThan(noisy);
    expect(noisy).toBeGreaterThan(blind);
    expect(blind).toBeLessThan(0.1);
    expect(fit.log_loss).toBeLessThan(fit.log_loss_equal);
    expect(fit.votes).toBe(600);
    expect(fit.judges).toEqual(['sharp', 'noisy', 'blind']);
  });

  it('a choice-only judge counts by its own winner on the pair, in either order', () => {
    const votes: PairwiseVote[] = [
      { group: null, a: 'x', b: 'y', winner: 'a', rater: null },
      { group: null, a: 'y', b: 'x', winner: 'b', rater: null },
      { group: null, a: 'z', b: 'x', winner: 'a', rater: null },
      { group: null, a: 'q', b: 'x', winner: 'a', rater: null },
    ];
    const right: PairwiseVote[] = [
      { group: null, a: 'x', b: 'y', winner: 'a', rater: null },
      { group: null, a: 'x', b: 'z', winner: 'b', rater: null },
    ];
    const wrong: PairwiseVote[] = [
      { group: null, a: 'y', b: 'x', winner: 'a', rater: null },
      { group: null, a: 'x', b: 'z', winner: 'a', rater: null },
    ];
    const fit = fitPanelWeights(
      [
        { name: 'right', predictions: preds(new Map(), right) },
        { name: 'wrong', predictions: preds(new Map(), wrong) },
      ],
      votes,
    );
    // The vote on (q, x) is left out: neither judge saw that pair.
    expect(fit.votes).toBe(3);
    expect(fit.skipped).toBe(1);
    expect(fit.weights[0]).toBeCloseTo(1, 9);
    expect(fit.weights[1]).toBeCloseTo(0, 9);
    expect(() => fitPanelWeights([{ name: 'a', predictions: preds(new Map()) }], votes)).toThrow(
      PanelWeightsError,
    );
  });

  it('--panel-weights FILE maps weights to --judge specs by name; a list may hold a 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rubrica-pw-'));
    const file = join(dir, 'w.json');
    writeFileSync(
      file,
      JSON.stringify({
        kind: 'rubrica.panel-weights',
        version: 1,
        judges: ['vllm:a', 'vllm:b'],
        weights: [0.25, 0.75],
      }),
    );
    expect(parsePanelWeights(file, ['vllm:b', 'vllm:a'])).toEqual([0.75, 0.25]);
    expect(() => parsePanelWeights(file, ['vllm:a', 'vllm:c'])).toThrow(
      /no weight for judge vllm:c/,
    );
    expect(parsePanelWeights('0,1', ['a', 'b'])).toEqual([0, 1]);
    expect(() => parsePanelWeights('0,0', ['a', 'b'])).toThrow(UsageError);
  });
});
