// `rubrica eval --judging pairwise|group` (issue 37) as a user runs it, in process, against
// the judge doubles of test/score: a pairwise judge that gives every close call to the
// picture shown first, and a group judge with a linear position bias. Three prompts × 4
// rollouts; each rollout draws a bar whose width is its latent quality. Shown: records carry
// `relative` under the first reward and keep their pictures; rewards are identical whichever
// order the rollouts file lists them in; a re-run asks the judge nothing; an interrupted run
// (a prefix of results.jsonl, as a kill leaves it) resumes to the same records, re-judging a
// part-done group whole from the cache; shards hold whole prompts and merge to the same run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeByImage, tempDir } from '../server/support.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { groupPositionBias } from '../support/model-double-group.ts';
import { inkShare, pairwiseFirstBias } from '../support/model-double-pairwise.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const bar = (q: number) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="${(10 + 80 * q).toFixed(3)}" height="100" fill="#000"/></svg>\n\`\`\``;
const quality = async (url: string) => ((await inkShare(url)) - 0.1) / 0.8;

const dir = tempDir('eval-relative');
const prompts = join(dir, 'prompts.jsonl');
writeFileSync(
  prompts,
  ['a', 'b', 'c'].map((id) => JSON.stringify({ id, prompt: `a bar (${id})` })).join('\n'),
);
const Q: Record<string, number[]> = {
  a: [0.1, 0.9, 0.5, 0.3],
  b: [0.2, 0.8, 0.6, 0.4],
  c: [0.15, 0.55, 0.85, 0.35],
};
const lines = Object.entries(Q).flatMap(([p, qs]) =>
  qs.map((q, k) => ({ id: `${p}${k}`, prompt_id: p, completion: bar(q) })),
);
const write = (name: string, ls: typeof lines) => {
  const f = join(dir, name);
  writeFileSync(f, `${ls.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return f;
};
const inOrder = write('rollouts.jsonl', lines);
// Reversed and the prompts interleaved: a0's group arrives last-first, mixed with the others.
const mixed = write(
  'mixed.jsonl',
  [...lines].reverse().sort((x, y) => Number(x.id.slice(1)) - Number(y.id.slice(1))),
);

type Score = {
  reward: number;
  status: string;
  relative?: { judging: string; group_size: number; comparisons?: number; orders?: number };
};
type Rec = { id: string; prompt_id: string; image?: string; scores: { universal: Score } };
const results = (out: string): Map<string, Rec> =>
  new Map(
    readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Rec)
      .map((r) => [r.id, r]),
  );

let pairDouble: ModelDouble;
let groupDouble: ModelDouble;
beforeAll(async () => {
  pairDouble = await startModelDouble({
    handler: pairwiseFirstBias({ quality, close: 0.3, single: judgeByImage() }),
  });
  groupDouble = await startModelDouble({
    handler: groupPositionBias({ quality, slope: 0.3, single: judgeByImage() }),
  });
});
afterAll(async () => {
  await pairDouble?.close();
  await groupDouble?.close();
});

const evalArgs = (double: ModelDouble, rollouts: string, out: string, ...more: string[]) => [
  'eval',
  '--prompts',
  prompts,
  '--rollouts',
  rollouts,
  '--out',
  out,
  '--run',
  'rel',
  '--judge',
  'openai-compatible:test-judge',
  '--judge-base-url',
  double.url,
  ...more,
];

/** Each group ranked by its latent quality: reward strictly rises with q. */
function expectRanked(recs: Map<string, Rec>) {
  for (const [p, qs] of Object.entries(Q)) {
    const byQ = qs.map((q, k) => ({ q, id: `${p}${k}` })).sort((x, y) => x.q - y.q);
    for (let k = 1; k < byQ.length; k++)
      expect(recs.get(byQ[k]!.id)!.scores.universal.reward, byQ[k]!.id).toBeGreaterThan(
        recs.get(byQ[k - 1]!.id)!.scores.universal.reward,
      );
  }
}

const sameRewards = (a: Map<string, Rec>, b: Map<string, Rec>) => {
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  for (const [id, r] of a) {
    expect(b.get(id)!.scores.universal.reward, id).toBe(r.scores.universal.reward);
    expect(b.get(id)!.scores.universal.relative, id).toEqual(r.scores.universal.relative);
  }
};

describe.each([
  { mode: 'pairwise', more: ['--pairs', 'all'], double: () => pairDouble },
  { mode: 'group', more: [] as string[], double: () => groupDouble },
])('rubrica eval --judging $mode', ({ mode, more, double }) => {
  const cache = join(dir, `${mode}.cache.sqlite`);
  const run = (rollouts: string, out: string, ...extra: string[]) =>
    runCliInProcess(evalArgs(double(), rollouts, out, '--judging', mode, ...more, ...extra));

  it('judges each prompt as a group, the same rewards in any file order, a re-run asks nothing', async () => {
    const outA = join(dir, `${mode}-a`);
    double().reset();
    const ra = await run(inOrder, outA, '--cache', cache);
    expect(ra.code, ra.stderr).toBe(0);
    const a = results(outA);
    expect(a.size).toBe(12);
    for (const r of a.values()) {
      expect(r.scores.universal.status).toBe('ok');
      expect(r.scores.universal.relative).toMatchObject({ judging: mode, group_size: 4 });
      expect(r.image && existsSync(join(outA, r.image)), r.id).toBe(true);
    }
    if (mode === 'pairwise') expect(a.get('a0')!.scores.universal.relative!.comparisons).toBe(6);
    else expect(a.get('a0')!.scores.universal.relative!.orders).toBe(2);
    expectRanked(a);
    const summary = JSON.parse(readFileSync(join(outA, 'summary.json'), 'utf8'));
    expect(summary.settings.judging).toBe(mode);

    const outB = join(dir, `${mode}-b`);
    // Under --rollout-timeout-ms a group is one unit (pipeline/deadline.ts): were each rollout
    // timed alone, every group would be a group of one, scored absolutely.
    const rb = await run(mixed, outB, '--no-cache', '--rollout-timeout-ms', '120000');
    expect(rb.code, rb.stderr).toBe(0);
    sameRewards(a, results(outB));

    double().reset();
    const again = await run(inOrder, outA, '--cache', cache);
    expect(again.code, again.stderr).toBe(0);
    expect(double().requests).toHaveLength(0);
  });

  it('resumes an interrupted run to the same records, a part-done group judged whole', async () => {
    const full = results(join(dir, `${mode}-a`));
    const out = join(dir, `${mode}-resume`);
    // What a kill leaves: the first lines written. In grouped order that is group a whole and
    // one rollout of group b (its other three never written).
    const first = await run(inOrder, out, '--cache', cache);
    expect(first.code, first.stderr).toBe(0);
    const kept = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').slice(0, 5);
    writeFileSync(join(out, 'results.jsonl'), `${kept.join('\n')}\n`);
    double().reset();
    const resumed = await run(inOrder, out, '--cache', cache);
    expect(resumed.code, resumed.stderr).toBe(0);
    // Every comparison was answered before: the cache holds it.
    expect(double().requests).toHaveLength(0);
    expect(resumed.stdout).toMatch(/\(8 scored now, 4 kept/);
    sameRewards(full, results(out));
  });

  // Placement does not depend on the mode: shown once, under pairwise.
  it.runIf(mode === 'pairwise')(
    'shards by prompt: each shard holds whole groups and the merge is the unsharded run',
    async () => {
      const full = results(join(dir, `${mode}-a`));
      const shards = [0, 1].map((i) => join(dir, `${mode}-shard${i}`));
      for (const [i, out] of shards.entries()) {
        const r = await run(inOrder, out, '--cache', cache, '--shard', `${i}/2`);
        expect(r.code, r.stderr).toBe(0);
        for (const rec of results(out).values())
          expect(rec.scores.universal.relative?.group_size, rec.id).toBe(4);
      }
      const merged = join(dir, `${mode}-merged`);
      const m = await runCliInProcess(['merge', '--out', merged, ...shards]);
      expect(m.code, m.stderr).toBe(0);
      sameRewards(full, results(merged));
    },
  );
});

describe('rubrica eval --judging', () => {
  it('refuses a bad mode as a usage error', async () => {
    for (const more of [
      ['--judging', 'sideways'],
      ['--judging', 'pairwise', '--pairs', 'some'],
    ]) {
      const r = await runCliInProcess(evalArgs(pairDouble, inOrder, join(dir, 'bad'), ...more));
      expect(r.code, more.join(' ')).toBe(2);
    }
  });
});
