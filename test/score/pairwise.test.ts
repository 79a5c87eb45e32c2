// `--judging pairwise` as a user runs it: `rubrica score` over a rollouts file and `serve`
// over HTTP, with a judge double that gives every close call to the picture shown first.
// Each rollout draws a bar whose width is its latent quality. Shown: the same rewards
// whichever order the file or the request lists a group in; N(N−1) comparisons a group of N
// under --pairs all; a group of one keeps its absolute score; a re-run asks nothing; the
// flags that cannot work are usage errors.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/models/client.ts';
import { startRewardService } from '../../src/server/service.ts';
import { judgeByImage, postJson, tempDir, writeRubrics } from '../server/support.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { inkShare, pairwiseFirstBias } from '../support/model-double-pairwise.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const bar = (q: number) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="${(10 + 80 * q).toFixed(3)}" height="100" fill="#000"/></svg>\n\`\`\``;
const quality = async (url: string) => ((await inkShare(url)) - 0.1) / 0.8;

const dir = tempDir('pairwise');
const rubrics = writeRubrics(dir, [
  ['p', 'a bar'],
  ['q', 'another bar'],
  ['s', 'a lone bar'],
]);
let double: ModelDouble;
beforeAll(async () => {
  double = await startModelDouble({
    handler: pairwiseFirstBias({ quality, close: 0.3, single: judgeByImage() }),
  });
});
afterAll(() => double?.close());

const pairCalls = () => double.requests.filter((r) => r.images.length === 2).length;
const rows = [
  ...[0.1, 0.9, 0.5, 0.3, 0.7].map((q, k) => ({ id: `p${k}`, prompt_id: 'p', q })),
  ...[0.2, 0.8, 0.6].map((q, k) => ({ id: `q${k}`, prompt_id: 'q', q })),
  { id: 's0', prompt_id: 's', q: 0.4 },
];
const lines = rows.map(({ q, ...r }) => ({ ...r, completion: bar(q) }));

type Rec = { id: string; reward: number; relative?: { comparisons: number } };
const read = (f: string): Map<string, Rec> =>
  new Map(
    readFileSync(f, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Rec)
      .map((r) => [r.id, r]),
  );

describe('rubrica score --judging pairwise', () => {
  const args = (inFile: string, out: string, ...more: string[]) => [
    'score',
    '--in',
    inFile,
    '--out',
    out,
    '--rubrics',
    rubrics,
    '--judge',
    'openai-compatible:test-judge',
    '--judge-base-url',
    double.url,
    '--no-cache',
    '--judging',
    'pairwise',
    '--pairs',
    'all',
    ...more,
  ];

  it('gives every rollout the same reward whichever order the file lists its group in', async () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    // Reversed, and the two groups interleaved.
    const mixed = [...lines]
      .reverse()
      .sort((x, y) => Number(x.id.slice(1)) - Number(y.id.slice(1)));
    writeFileSync(b, `${mixed.map((l) => JSON.stringify(l)).join('\n')}\n`);
    double.reset();
    const ra = await runCliInProcess(args(a, join(dir, 'a.out.jsonl'), '--concurrency', '2'));
    expect(ra.code, ra.stderr).toBe(0);
    expect(pairCalls()).toBe(5 * 4 + 3 * 2);
    const rb = await runCliInProcess(args(b, join(dir, 'b.out.jsonl')));
    expect(rb.code, rb.stderr).toBe(0);
    const outA = read(join(dir, 'a.out.jsonl'));
    const outB = read(join(dir, 'b.out.jsonl'));
    for (const [id, r] of outA) expect(outB.get(id)!.reward, id).toBe(r.reward);
    expect(outA.get('p0')!.relative!.comparisons).toBe(8); // 4 groupmates, both orders
    expect(outA.get('s0')!.relative).toBeUndefined(); // a group of one: absolute
    // Ranked by quality inside each group.
    const p = rows.filter((r) => r.prompt_id === 'p').sort((x, y) => x.q - y.q);
    for (let k = 1; k < p.length; k++)
      expect(outA.get(p[k]!.id)!.reward).toBeGreaterThan(outA.get(p[k - 1]!.id)!.reward);
    // Output in input order, and a re-run over the same output asks nothing.
    expect([...outA.keys()]).toEqual(lines.map((l) => l.id));
    double.reset();
    const again = await runCliInProcess(args(a, join(dir, 'a.out.jsonl')));
    expect(again.code).toBe(0);
    expect(double.requests).toHaveLength(0);
  });

  it('judges groups in pairs under --rollout-timeout-ms too (the timeout bounds a group)', async () => {
    const a = join(dir, 'a.jsonl');
    const out = join(dir, 'timed.out.jsonl');
    double.reset();
    const r = await runCliInProcess(args(a, out, '--rollout-timeout-ms', '120000'));
    expect(r.code, r.stderr).toBe(0);
    expect(pairCalls()).toBe(5 * 4 + 3 * 2);
    const recs = read(out);
    expect(recs.get('p0')!.relative!.comparisons).toBe(8);
    expect(recs.get('q0')!.relative!.comparisons).toBe(4);
  });

  it('refuses what cannot work as a usage error', async () => {
    const a = join(dir, 'a.jsonl');
    for (const more of [
      ['--shard', '0/2'],
      ['--judging', 'sideways'],
      ['--pairs', 'some'],
      ['--group-orders', 'sideways'],
    ]) {
      const r = await runCliInProcess(args(a, join(dir, 'bad.jsonl'), ...more));
      expect(r.code, more.join(' ')).toBe(2);
    }
  });
});

describe('rubrica serve with pairwise judging', () => {
  it('judges a request group in pairs and gives the same rewards in any order', async () => {
    const server = await startRewardService({
      rubrics,
      judge: createModelClient('openai-compatible:test-judge', {
        role: 'judge',
        baseUrl: double.url,
        env: {},
        maxRetries: 1,
      }),
      judgeConcurrency: 4,
      reward: ['ruler'],
      mode: 'joint',
      judging: { judging: 'pairwise', pairs: 'circular' },
      renderWorkers: 1,
      cache: false,
      port: 0,
      // A deadline scores a group as one unit: without that every rollout was a group of one.
      deadlineMs: 120_000,
    });
    try {
      const items = lines.filter((l) => l.prompt_id === 'p');
      double.reset();
      const one = await postJson(`${server.url}/v1/rewards`, { items });
      expect(one.status).toBe(200);
      expect(pairCalls()).toBe(2 * items.length); // circular: 2N calls a group of N
      const two = await postJson(`${server.url}/v1/rewards`, { items: [...items].reverse() });
      type Body = { results: Rec[] };
      const byId = new Map((two.json as Body).results.map((r) => [r.id, r.reward]));
      for (const r of (one.json as Body).results) {
        expect(r.relative).toBeDefined();
        expect(byId.get(r.id)).toBe(r.reward);
      }
    } finally {
      await server.close();
    }
  });
});
