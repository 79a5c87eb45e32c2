// Expected scoring removes most of a sampling judge's noise: a judge double that samples at
// temperature 1 from a known digit law (each call's law moved a little, as a sampled
// reasoning would move it), one picture scored 10 times with each mode, no cache. The
// reward's standard deviation must be at least 50 % lower with `expected` than `greedy`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rulerItems, solidPng } from '../../test/score/support/fixtures.ts';
import { digitJudge, type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { createModelClient } from '../models/client.ts';
import { createJudge } from './judge.ts';
import type { ScoringMode } from './strategy.ts';

const PROMPT = 'a red fox sitting in snow';
const items = rulerItems(PROMPT);
let double: ModelDouble;
let png: Buffer;

beforeAll(async () => {
  double = await startModelDouble({
    handler: digitJudge({
      shape: 'vllm',
      law: () => ({ '3': 0.2, '4': 0.3, '5': 0.3, '6': 0.2 }),
      jitter: 0.1,
      seed: 11,
    }),
  });
  png = await solidPng(30, 120, 60);
});
afterAll(() => double.close());

async function rewards(scoring: ScoringMode): Promise<number[]> {
  const client = createModelClient('vllm:judge-m', {
    role: 'judge',
    baseUrl: double.url,
    env: {},
    maxRetries: 0,
  });
  const judge = createJudge({ client, scoring, temperature: 1 });
  const out: number[] = [];
  for (let i = 0; i < 10; i++) {
    const v = await judge.judge({ prompt: PROMPT, items, png });
    if (!v.ok) throw new Error(v.message);
    let num = 0;
    let den = 0;
    for (const c of v.criteria) {
      num += c.weight * c.score!;
      den += c.weight;
    }
    out.push(num / den);
  }
  return out;
}

const std = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
};

describe('a sampling judge (temperature 1)', () => {
  it('gives a reward std over 10 scorings at least 50 % lower with expected than greedy', async () => {
    const greedy = std(await rewards('greedy'));
    const expected = std(await rewards('expected'));
    console.log(
      `reward std over 10 scorings: greedy ${greedy.toFixed(4)}, expected ${expected.toFixed(4)}`,
    );
    expect(greedy).toBeGreaterThan(0);
    expect(expected).toBeLessThanOrEqual(0.5 * greedy);
  });
});
