// Expected scoring against judge doubles that return logprobs the way vLLM, SGLang and Ollama
// do (test/support/model-double-logprobs.ts, from ../shared/JUDGE-SERVERS.md): each item's
// score is Σ p·v over the digits the server's logprobs give, the same to 1e-9 whatever the
// shape; auto falls back to the written digit without logprobs, expected then faults; the
// request asks for top_logprobs ≤ 20 and the cache keeps modes apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rulerItems, solidPng } from '../../test/score/support/fixtures.ts';
import {
  type DigitLaw,
  digitJudge,
  type LogprobShape,
  type ModelDouble,
  startModelDouble,
} from '../../test/support/model-double.ts';
import { createModelClient } from '../models/client.ts';
import { openCache } from '../store/cache.ts';
import { createJudge } from './judge.ts';

const PROMPT = 'a red fox sitting in snow';
const items = rulerItems(PROMPT);
// A different law per item, none a point mass, so Σ p·v differs from the greedy digit.
const LAWS: DigitLaw[] = [
  { '6': 0.5, '7': 0.3, '5': 0.2 },
  { '2': 0.1, '3': 0.6, '4': 0.25, '9': 0.05 },
  { '8': 0.7, '9': 0.3 },
  { '0': 0.4, '1': 0.35, '2': 0.25 },
  { '4': 0.2, '5': 0.2, '6': 0.2, '7': 0.2, '8': 0.2 },
  { '5': 0.9, '6': 0.1 },
];
const lawOf = (key: string) => LAWS[items.findIndex((i) => i.key === key)] ?? { '0': 1 };
/** Σ p·v by hand: each law is already normalised, v = digit ÷ 9. */
const handExpected = (law: DigitLaw) =>
  Object.entries(law).reduce((s, [d, p]) => s + p * (Number(d) / 9), 0);

let png: Buffer;
const doubles: ModelDouble[] = [];
async function judgeOn(
  shape: LogprobShape,
  opts: { tokenizer?: 'qwen' | 'gpt'; scoring?: 'expected' | 'auto' | 'greedy'; t?: number } = {},
) {
  const d = await startModelDouble({
    handler: digitJudge({
      shape,
      law: lawOf,
      tokenizer: opts.tokenizer,
      systemFingerprint: 'fp_1',
    }),
  });
  doubles.push(d);
  const provider = shape === 'vllm' ? 'vllm' : shape === 'sglang' ? 'sglang' : 'ollama';
  const client = createModelClient(`${provider}:judge-m`, {
    role: 'judge',
    baseUrl: d.url,
    env: {},
    maxRetries: 0,
  });
  const judge = createJudge({
    client,
    scoring: opts.scoring ?? 'expected',
    ...(opts.t !== undefined ? { temperature: opts.t } : {}),
  });
  return { d, judge };
}

beforeAll(async () => {
  png = await solidPng(200, 40, 30);
});
afterAll(async () => {
  for (const d of doubles) await d.close();
});

describe('expected scoring', () => {
  it('equals the hand-computed Σ p·v of every item to 1e-12 (vLLM shape), with its distribution', async () => {
    const { d, judge } = await judgeOn('vllm');
    const v = await judge.judge({ prompt: PROMPT, items, png });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.scoring).toBe('expected');
    for (const [i, c] of v.criteria.entries()) {
      expect(Math.abs(c.score! - handExpected(LAWS[i]!))).toBeLessThan(1e-12);
      const mass = c.distribution!.reduce((s, m) => s + m.p, 0);
      expect(mass).toBeCloseTo(1, 12);
    }
    const body = d.requests[0]!.body;
    expect(body.logprobs).toBe(true);
    expect(body.top_logprobs).toBe(20);
    expect(d.requests[0]!.text).toMatch(/ONE digit from 0 to 9/);
    expect(v.provenance).toMatchObject({
      judge: 'vllm:judge-m',
      system_fingerprint: 'fp_1',
      served_model: 'judge-m',
      temperature: 0,
      seed: null,
      scoring: 'expected',
      scoring_requested: 'expected',
      mode: 'joint',
    });
    expect(v.provenance.prompt_hash).toBe(judge.promptVersion);
  });

  it('gives the same scores to 1e-9 from vLLM, SGLang (after temperature) and Ollama (before the grammar) shapes', async () => {
    const runs = [
      await judgeOn('vllm'),
      await judgeOn('vllm', { tokenizer: 'gpt' }), // " 7" as one token
      await judgeOn('sglang'),
      await judgeOn('sglang', { t: 0.7 }), // values after T = 0.7, undone
      await judgeOn('ollama'),
    ];
    const scores: number[][] = [];
    for (const { judge } of runs) {
      const v = await judge.judge({ prompt: PROMPT, items, png });
      expect(v.ok, JSON.stringify(v)).toBe(true);
      if (v.ok) scores.push(v.criteria.map((c) => c.score!));
    }
    for (const s of scores)
      for (const [i, x] of s.entries())
        expect(Math.abs(x - handExpected(LAWS[i]!))).toBeLessThan(1e-9);
  });

  it('auto falls back to the written digit when the server returns no logprobs; expected faults', async () => {
    const d = await startModelDouble({ handler: digitJudge({ shape: 'vllm', law: lawOf }) });
    doubles.push(d);
    // An Anthropic-style provider is not asked for logprobs: simulate a server that ignores
    // the request by stripping logprobs from each answer.
    d.script((req) => {
      const r = digitJudge({ shape: 'vllm', law: lawOf })({
        ...req,
        body: { ...req.body, logprobs: false },
      });
      return r;
    });
    const client = createModelClient('vllm:judge-m', {
      role: 'judge',
      baseUrl: d.url,
      env: {},
      maxRetries: 0,
    });
    const auto = await createJudge({ client, scoring: 'auto' }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(auto.ok).toBe(true);
    if (!auto.ok) return;
    expect(auto.scoring).toBe('greedy');
    expect(auto.criteria[0]!.score).toBeCloseTo(6 / 9, 12); // the law's mode
    expect(auto.criteria[0]!.distribution).toBeUndefined();
    const exp = await createJudge({ client, scoring: 'expected' }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(exp.ok).toBe(false);
    if (!exp.ok) expect(exp.message).toMatch(/no usable logprobs/);
  });

  it('keeps greedy and expected answers apart in the cache', async () => {
    const { d } = await judgeOn('vllm');
    const client = createModelClient('vllm:judge-m', {
      role: 'judge',
      baseUrl: d.url,
      env: {},
      maxRetries: 0,
    });
    const cache = openCache(':memory:');
    const e1 = await createJudge({ client, cache, scoring: 'expected' }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    const g1 = await createJudge({ client, cache, scoring: 'greedy' }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    const e2 = await createJudge({ client, cache, scoring: 'expected' }).judge({
      prompt: PROMPT,
      items,
      png,
    });
    expect(e1.ok && g1.ok && e2.ok).toBe(true);
    if (!(e1.ok && g1.ok && e2.ok)) return;
    expect(e2.cached).toBe(true);
    expect(g1.cached).toBe(false);
    expect(g1.scoring).toBe('greedy');
    expect(e2.criteria.map((c) => c.score)).toEqual(e1.criteria.map((c) => c.score));
    expect(e2.criteria[0]!.distribution).toEqual(e1.criteria[0]!.distribution);
    expect(d.requests).toHaveLength(2);
    cache.close();
  });
});
