// `--judging group` as a user runs it: `rubrica score` over a rollouts file and `serve` over
// HTTP under a deadline, with a judge double that scores all pictures of a call at once from
// their latent quality plus a linear position bias (model-double-group.ts). Each rollout draws
// a bar whose width is its latent quality. Shown: the same rewards whichever order the file or
// the request lists a group in; 2 calls a group of up to 8; a group of one keeps its absolute
// score; a re-run over the cache asks nothing; a gated rollout never reaches the group judge.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/models/client.ts';
import { startRewardService } from '../../src/server/service.ts';
import { ATTACK } from '../gate/fixtures.ts';
import { judgeByImage, postJson, tempDir, writeRubrics } from '../server/support.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { groupPositionBias } from '../support/model-double-group.ts';
import { inkShare } from '../support/model-double-pairwise.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const bar = (q: number) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="${(10 + 80 * q).toFixed(3)}" height="100" fill="#000"/></svg>\n\`\`\``;
const quality = async (url: string) => ((await inkShare(url)) - 0.1) / 0.8;

const dir = tempDir('group');
const rubrics = writeRubrics(dir, [
  ['p', 'a bar'],
  ['q', 'another bar'],
  ['s', 'a lone bar'],
]);
const judge = groupPositionBias({ quality, slope: 0.3, single: judgeByImage() });
let double: ModelDouble;
beforeAll(async () => {
  double = await startModelDouble({ handler: judge });
});
afterAll(() => double?.close());

const groupCalls = () => double.requests.filter((r) => r.schemaName === 'group_scores');
const rows = [
  ...[0.2, 0.8, 0.5, 0.35, 0.65].map((q, k) => ({ id: `p${k}`, prompt_id: 'p', q })),
  ...[0.3, 0.7, 0.5].map((q, k) => ({ id: `q${k}`, prompt_id: 'q', q })),
  { id: 's0', prompt_id: 's', q: 0.4 },
];
const lines = rows.map(({ q, ...r }) => ({ ...r, completion: bar(q) }));

type Rec = {
  id: string;
  reward: number;
  status: string;
  relative?: { judging: string; orders: number; answered: number };
};
const read = (f: string): Map<string, Rec> =>
  new Map(
    readFileSync(f, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Rec)
      .map((r) => [r.id, r]),
  );

describe('rubrica score --judging group', () => {
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
    '--judging',
    'group',
    ...more,
  ];

  it('gives every rollout the same reward whichever order the file lists its group in', async () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const mixed = [...lines]
      .reverse()
      .sort((x, y) => Number(x.id.slice(1)) - Number(y.id.slice(1)));
    writeFileSync(b, `${mixed.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const cache = join(dir, 'cache.sqlite');
    double.reset();
    const ra = await runCliInProcess(args(a, join(dir, 'a.out.jsonl'), '--cache', cache));
    expect(ra.code, ra.stderr).toBe(0);
    // Two orders a group: p (5) and q (3); s is a group of one.
    expect(
      groupCalls()
        .map((r) => r.images.length)
        .sort(),
    ).toEqual([3, 3, 5, 5]);
    const rb = await runCliInProcess(args(b, join(dir, 'b.out.jsonl'), '--no-cache'));
    expect(rb.code, rb.stderr).toBe(0);
    const outA = read(join(dir, 'a.out.jsonl'));
    const outB = read(join(dir, 'b.out.jsonl'));
    for (const [id, r] of outA) expect(outB.get(id)!.reward, id).toBe(r.reward);
    expect(outA.get('p0')!.relative).toMatchObject({ judging: 'group', orders: 2, answered: 2 });
    expect(outA.get('s0')!.relative).toBeUndefined();
    const p = rows.filter((r) => r.prompt_id === 'p').sort((x, y) => x.q - y.q);
    for (let k = 1; k < p.length; k++)
      expect(outA.get(p[k]!.id)!.reward).toBeGreaterThan(outA.get(p[k - 1]!.id)!.reward);
    // A second run into a fresh output over the same cache asks the judge nothing.
    double.reset();
    const again = await runCliInProcess(args(b, join(dir, 'c.out.jsonl'), '--cache', cache));
    expect(again.code, again.stderr).toBe(0);
    expect(double.requests).toHaveLength(0);
    const outC = read(join(dir, 'c.out.jsonl'));
    for (const [id, r] of outA) expect(outC.get(id)!.reward, id).toBe(r.reward);
  });

  it('rescore --judging group re-judges a finished absolute run by groups', async () => {
    const a = join(dir, 'a.jsonl');
    const abs = join(dir, 'abs.out.jsonl');
    // The same run judged absolutely (the last --judging wins).
    const r0 = await runCliInProcess(args(a, abs, '--no-cache', '--judging', 'absolute'));
    expect(r0.code, r0.stderr).toBe(0);
    double.reset();
    const out = join(dir, 'rescored.jsonl');
    const res = await runCliInProcess([
      'rescore',
      '--in',
      abs,
      '--rollouts',
      a,
      '--rubrics',
      rubrics,
      '--judge',
      'openai-compatible:test-judge',
      '--judge-base-url',
      double.url,
      '--no-cache',
      '--judging',
      'group',
      '--out',
      out,
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ judging: 'group', group_orders: 'mirror' });
    expect(groupCalls()).toHaveLength(4);
    const recs = read(out);
    expect(recs.get('p1')!.relative).toMatchObject({ judging: 'group', answered: 2 });
    expect(recs.get('s0')!.relative).toBeUndefined();
  });

  it('refuses a bad --group-orders as a usage error', async () => {
    const r = await runCliInProcess(
      args(join(dir, 'a.jsonl'), join(dir, 'bad.jsonl'), '--group-orders', 'sideways'),
    );
    expect(r.code).toBe(2);
  });
});

describe('rubrica serve with group judging', () => {
  it('judges a request group in one unit under a deadline; same rewards in any order; gated ones never shown', async () => {
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
      judging: { judging: 'group' },
      renderWorkers: 1,
      cache: false,
      port: 0,
      // A deadline scores a group as one unit: without that every rollout was a group of one.
      deadlineMs: 120_000,
    });
    try {
      const items = [
        ...lines.filter((l) => l.prompt_id === 'p'),
        { id: 'px', prompt_id: 'p', completion: ATTACK },
      ];
      double.reset();
      const one = await postJson(`${server.url}/v1/rewards`, { items });
      expect(one.status).toBe(200);
      // The gated rollout is not among the pictures: 5 of the 6, in 2 orders.
      expect(groupCalls().map((r) => r.images.length)).toEqual([5, 5]);
      const two = await postJson(`${server.url}/v1/rewards`, { items: [...items].reverse() });
      type Body = { results: Rec[] };
      const byId = new Map((two.json as Body).results.map((r) => [r.id, r.reward]));
      for (const r of (one.json as Body).results) {
        if (r.id === 'px') {
          expect(r).toMatchObject({ status: 'gated', reward: 0 });
          expect(r.relative).toBeUndefined();
          continue;
        }
        expect(r.relative).toMatchObject({ judging: 'group' });
        expect(byId.get(r.id)).toBe(r.reward);
      }
    } finally {
      await server.close();
    }
  });
});
