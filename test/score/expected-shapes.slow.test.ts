// Expected scoring through the commands (issue 37): `score`, `serve` (spawned, real HTTP
// loopback) and `eval`, each given one panel of three judges whose servers return logprobs in
// the shapes of vLLM (sampled token first, unsorted, -9999 fill), SGLang (sorted, sampled
// token left out, float32-min fill) and Ollama (values before the grammar, forbidden tokens
// among the runners-up) — test/support/model-double-logprobs.ts, from JUDGE-SERVERS.md. One
// double answers all three, by model name. Every judge's score of every criterion (on the
// record under `panel`) is the hand-computed Σ p·v of its law to 1e-9, so each shape gives the
// same expected reward, and the three commands give the same reward for the same picture.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, spawnServe, tempDir } from '../server/support.ts';
import {
  type DigitLaw,
  type DoubleHandler,
  digitJudge,
  type ModelDouble,
  startModelDouble,
} from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';

// Two laws, none a point mass, picked by the item key: Σ p·v differs from the greedy digit.
const LAWS: DigitLaw[] = [
  { '6': 0.5, '7': 0.3, '5': 0.2 },
  { '2': 0.1, '3': 0.6, '4': 0.25, '9': 0.05 },
];
const lawOf = (key: string) => LAWS[key.length % 2]!;
const hand = (key: string) =>
  Object.entries(lawOf(key)).reduce((s, [d, p]) => s + p * (Number(d) / 9), 0);
const JUDGES = ['vllm:vllm-m', 'sglang:sglang-m', 'ollama:ollama-m'];
const byModel: Record<string, DoubleHandler> = {
  'vllm-m': digitJudge({ shape: 'vllm', law: lawOf }),
  'sglang-m': digitJudge({ shape: 'sglang', law: lawOf }),
  'ollama-m': digitJudge({ shape: 'ollama', law: lawOf }),
};

const dir = tempDir('expected-shapes');
const bar = `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="40" height="100" fill="#c00"/></svg>\n\`\`\``;
const rollouts = join(dir, 'rollouts.jsonl');
const prompts = join(dir, 'prompts.jsonl');
let double: ModelDouble;

beforeAll(async () => {
  double = await startModelDouble({ handler: (req) => byModel[req.model]!(req) });
  writeFileSync(
    rollouts,
    `${JSON.stringify({ id: 'r1', prompt_id: 'p', prompt: 'a red bar', completion: bar })}\n`,
  );
  writeFileSync(prompts, `${JSON.stringify({ id: 'p', prompt: 'a red bar' })}\n`);
});
afterAll(() => double?.close());

const judgeArgs = () => [
  '--judge',
  JUDGES.join(','),
  '--judge-base-url',
  double.url,
  '--judge-scoring',
  'expected',
  '--judge-retries',
  '0',
  '--no-cache',
];

type Leaf = {
  key: string;
  score: number | null;
  panel?: { judge: string; score: number | null }[];
};
type Rec = { reward: number; status: string; scoring?: string; criteria?: Leaf[] };

/** Every judged criterion: each shape's score and the panel's mean are Σ p·v to 1e-9. */
function expectHand(r: Rec): void {
  expect(r.status).toBe('ok');
  const leaves = (r.criteria ?? []).filter((c) => c.panel);
  expect(leaves.length).toBeGreaterThan(2);
  for (const c of leaves) {
    expect(c.panel!.map((p) => p.judge)).toEqual(JUDGES);
    for (const p of c.panel!) expect(Math.abs(p.score! - hand(c.key))).toBeLessThan(1e-9);
    expect(Math.abs(c.score! - hand(c.key))).toBeLessThan(1e-9);
  }
}

describe('expected scoring through score, serve and eval, three server shapes', () => {
  it('gives Σ p·v to 1e-9 for every shape and the same reward through every command', async () => {
    const out = join(dir, 'scores.jsonl');
    const s = await runCliInProcess([
      'score',
      '--in',
      rollouts,
      '--out',
      out,
      '--reward',
      'universal',
      ...judgeArgs(),
    ]);
    expect(s.code, s.stderr).toBe(0);
    const scored = JSON.parse(readFileSync(out, 'utf8').trim()) as Rec;
    expectHand(scored);
    expect(scored.scoring).toBe('expected');

    const e = await runCliInProcess([
      'eval',
      '--prompts',
      prompts,
      '--rollouts',
      rollouts,
      '--out',
      join(dir, 'run'),
      ...judgeArgs(),
    ]);
    expect(e.code, e.stderr).toBe(0);
    const evaled = (
      JSON.parse(readFileSync(join(dir, 'run', 'results.jsonl'), 'utf8').trim()) as {
        scores: { universal: Rec };
      }
    ).scores.universal;
    expectHand(evaled);

    const serve = await spawnServe(
      [...judgeArgs(), '--reward', 'universal', '--render-workers', '1'],
      {},
      40_000,
    );
    let served: Rec;
    try {
      const res = await postJson(`${serve.url}/v1/rewards`, {
        items: [{ id: 'r1', prompt: 'a red bar', completion: bar }],
      });
      expect(res.status, serve.stderr()).toBe(200);
      served = (res.json as { results: Rec[] }).results[0]!;
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    expectHand(served);
    expect(Math.abs(served.reward - scored.reward)).toBeLessThan(1e-9);
    expect(Math.abs(evaled.reward - scored.reward)).toBeLessThan(1e-9);
  }, 90_000);
});
