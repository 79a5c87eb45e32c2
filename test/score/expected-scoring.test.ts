// Expected scoring end to end: `rubrica score --judge-scoring expected`, the reward service
// (what `rubrica serve --judge-scoring expected` starts) and `rubrica eval` against a vLLM-shaped judge double
// with known digit laws. Every criterion is the hand-computed Σ p·v to 1e-12, the reward the
// rubric-weighted mean of those, each record says how it was scored and what produced it, and
// carries an interval at the stated level that holds the reward.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../src/core/record.ts';
import { createModelClient } from '../../src/models/client.ts';
import { startRewardService } from '../../src/server/service.ts';
import { postJson, writeRubrics } from '../server/support.ts';
import { fluentEmoji } from '../support/corpus.ts';
import {
  type DigitLaw,
  digitJudge,
  type ModelDouble,
  startModelDouble,
} from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { RULER_KEYS, rulerRubric } from './support/fixtures.ts';

const LAWS: Record<string, DigitLaw> = Object.fromEntries(
  RULER_KEYS.map((k, i) => [k, { [String(i + 2)]: 0.55, [String(i + 3)]: 0.3, '1': 0.15 }]),
);
const hand = (key: string) =>
  Object.entries(LAWS[key]!).reduce((s, [d, p]) => s + p * (Number(d) / 9), 0);

let double: ModelDouble;
let dir: string;
const ICONS = fluentEmoji(3).map((c) => c.svg);

beforeAll(async () => {
  double = await startModelDouble({
    handler: digitJudge({
      shape: 'vllm',
      law: (k) => LAWS[k] ?? { '0': 1 },
      systemFingerprint: 'fp_x',
    }),
  });
  dir = mkdtempSync(join(tmpdir(), 'rubrica-expected-'));
});
afterAll(() => double.close());

function checkRecord(r: ScoreRecord) {
  expect(r.status).toBe('ok');
  expect(r.scoring).toBe('expected');
  let num = 0;
  let den = 0;
  for (const c of r.criteria) {
    expect(Math.abs(c.score! - hand(c.key))).toBeLessThan(1e-12);
    expect(c.distribution?.length).toBe(3);
    num += c.weight * hand(c.key);
    den += c.weight;
  }
  expect(Math.abs(r.reward - num / den)).toBeLessThan(1e-12);
  expect(r.interval_level).toBe(0.8);
  const [lo, hi] = r.interval!;
  expect(lo).toBeLessThan(r.reward);
  expect(hi).toBeGreaterThan(r.reward);
  expect(r.provenance).toMatchObject({
    judge: 'vllm:judge-m',
    system_fingerprint: 'fp_x',
    scoring: 'expected',
    temperature: 0,
    mode: 'joint',
  });
}

describe('--judge-scoring expected', () => {
  it('rubrica score: each criterion is Σ p·v to 1e-12, with distribution, interval and provenance', async () => {
    const rubrics = join(dir, 'rubrics.jsonl');
    writeFileSync(rubrics, `${JSON.stringify(rulerRubric('fox', 'a red fox'))}\n`);
    const input = join(dir, 'rollouts.jsonl');
    writeFileSync(
      input,
      ICONS.map((svg, i) =>
        JSON.stringify({ id: `r${i}`, prompt_id: 'fox', completion: `\`\`\`svg\n${svg}\n\`\`\`` }),
      ).join('\n'),
    );
    const out = join(dir, 'scores.jsonl');
    const res = await runCliInProcess([
      'score',
      '--rubrics',
      rubrics,
      '--in',
      input,
      '--out',
      out,
      '--judge',
      'vllm:judge-m',
      '--judge-base-url',
      double.url,
      '--judge-scoring',
      'expected',
      '--interval-level',
      '0.8',
      '--no-cache',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const recs = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ScoreRecord);
    expect(recs).toHaveLength(3);
    for (const r of recs) checkRecord(r);
  });

  it('the reward service (serve): the same Σ p·v rewards over HTTP', async () => {
    const server = await startRewardService({
      rubrics: writeRubrics(dir, [['fox', 'a red fox']]),
      judge: createModelClient('vllm:judge-m', { role: 'judge', baseUrl: double.url, env: {} }),
      judgeConcurrency: 2,
      reward: ['ruler'],
      mode: 'joint',
      judging: { scoring: 'expected', intervalLevel: 0.8 },
      renderWorkers: 1,
      cache: false,
      port: 0,
    });
    try {
      const res = await postJson(`${server.url}/v1/rewards`, {
        items: [{ id: 'a', prompt_id: 'fox', completion: `\`\`\`svg\n${ICONS[0]}\n\`\`\`` }],
      });
      expect(res.status).toBe(200);
      const body = res.json as { results: ScoreRecord[] };
      checkRecord(body.results[0]!);
    } finally {
      await server.close();
    }
  });

  it('rubrica eval: the same Σ p·v rewards in results.jsonl, intervals in summary.json', async () => {
    const rubrics = join(dir, 'eval-rubrics.jsonl');
    writeFileSync(rubrics, `${JSON.stringify(rulerRubric('fox', 'a red fox'))}\n`);
    const prompts = join(dir, 'eval-prompts.jsonl');
    writeFileSync(prompts, `${JSON.stringify({ id: 'fox', prompt: 'a red fox' })}\n`);
    const rollouts = join(dir, 'eval-rollouts.jsonl');
    writeFileSync(
      rollouts,
      ICONS.map((svg, i) =>
        JSON.stringify({ id: `e${i}`, prompt_id: 'fox', completion: `\`\`\`svg\n${svg}\n\`\`\`` }),
      ).join('\n'),
    );
    const out = join(dir, 'eval-run');
    const res = await runCliInProcess([
      'eval',
      '--prompts',
      prompts,
      '--rollouts',
      rollouts,
      '--rubrics',
      rubrics,
      '--judge',
      'vllm:judge-m',
      '--judge-base-url',
      double.url,
      '--judge-scoring',
      'expected',
      '--interval-level',
      '0.8',
      '--out',
      out,
      '--no-cache',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const recs = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { scores: Record<string, ScoreRecord> });
    expect(recs).toHaveLength(3);
    for (const r of recs) checkRecord(r.scores.ruler!);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    const iv = summary.rewards.ruler.judge_intervals;
    expect(iv).toMatchObject({ n: 3, level: 0.8, scoring: { expected: 3 } });
    const mean = (f: (r: ScoreRecord) => number) =>
      recs.reduce((a, r) => a + f(r.scores.ruler!), 0) / recs.length;
    expect(iv.lo).toBeCloseTo(
      mean((r) => r.interval![0]),
      12,
    );
    expect(iv.hi).toBeCloseTo(
      mean((r) => r.interval![1]),
      12,
    );
    expect(res.stdout).toMatch(/judge interval \(80%\) mean \[/);
  });
});
