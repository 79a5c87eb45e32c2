// Task data from a `rubric synth` prompts file (issue 23): a prompt's `assets` (inline, or a
// path under --data-root) are named to the author, read by the ideal's sandboxed job, and
// kept in the rubric record; `score` and `serve` then give them to the prompt's rollouts
// that carry none. A path out of the root, a missing file and a name that is not a plain
// file name drop the rubric with their asset_* code before any model call.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/models/client.ts';
import { startRewardService } from '../../src/server/service.ts';
import { authorAnswerFor, jointAnswer, schemaKeys } from '../score/support/fixtures.ts';
import { postJson } from '../server/support.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';

// biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
type Json = any;

// Reads the task's CSV under its name: fails (FileNotFoundError) without it.
const PY = [
  'import pandas as pd',
  'import matplotlib.pyplot as plt',
  "df = pd.read_csv('data.csv')",
  'assert len(df) == 3, len(df)',
  "plt.bar(df['fruit'], df['count'])",
  "plt.title('Fruit')",
].join('\n');
const CSV = 'fruit,count\napples,4\npears,7\nplums,2\n';
const fencedPy = `\`\`\`python\n${PY}\n\`\`\``;

const dir = mkdtempSync(join(tmpdir(), 'rubrica-synth-assets-'));
const root = join(dir, 'root');
mkdirSync(root);
writeFileSync(join(root, 'fruit.csv'), CSV);
writeFileSync(join(dir, 'secret.csv'), CSV);

let author: ModelDouble;
let judge: ModelDouble;
beforeAll(async () => {
  author = await startModelDouble({
    handler: (req) =>
      req.text.includes('Write the best')
        ? { content: fencedPy }
        : jsonAnswer(authorAnswerFor('chart')),
  });
  judge = await startModelDouble({
    handler: (req) => jsonAnswer(jointAnswer(schemaKeys(req), Array(6).fill(0.95))),
  });
});
afterAll(async () => {
  await Promise.all([author.close(), judge.close()]);
});

const lines = (file: string): Json[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('rubric synth → score / serve with task data', () => {
  const rubrics = join(dir, 'rubrics.jsonl');

  it('the ideal reads the prompt’s data; bad assets drop the rubric with their code', async () => {
    const prompt = 'a bar chart of the fruit counts in data.csv';
    const prompts = join(dir, 'prompts.jsonl');
    const rows = [
      { id: 'inline', prompt, assets: { 'data.csv': CSV } },
      { id: 'rooted', prompt, assets: { 'data.csv': { path: 'fruit.csv' } } },
      { id: 'none', prompt },
      { id: 'outside', prompt, assets: { 'data.csv': { path: '../secret.csv' } } },
      { id: 'missing', prompt, assets: { 'data.csv': { path: 'nope.csv' } } },
      { id: 'badname', prompt, assets: { '../data.csv': CSV } },
    ];
    writeFileSync(prompts, rows.map((r) => JSON.stringify(r)).join('\n'));
    const r = await runCliInProcess([
      'rubric',
      'synth',
      '--in',
      prompts,
      '--out',
      rubrics,
      '--domain',
      'python',
      '--data-root',
      root,
      '--author',
      'openai-compatible:a',
      '--author-base-url',
      author.url,
      '--judge',
      'openai-compatible:j',
      '--judge-base-url',
      judge.url,
      '--judge-retries',
      '0',
      '--no-cache',
      '--concurrency',
      '1',
    ]);
    const by = new Map(lines(rubrics).map((x) => [x.id, x]));
    expect(r.code, r.stderr).toBe(0); // some kept: the dropped ones are results, not faults
    expect(by.get('inline')).toMatchObject({ kept: true, assets: { 'data.csv': CSV } });
    expect(by.get('rooted')).toMatchObject({
      kept: true,
      assets: { 'data.csv': { path: 'fruit.csv' } },
    });
    // Without its data the same ideal fails in the sandbox, as a policy's code would.
    expect(by.get('none')).toMatchObject({ kept: false, drop_reason: 'ideal_unrenderable' });
    // (the same code as the kept ones: only the data differs)
    expect(by.get('none').drop_message).toMatch(/^exec_error: Traceback/);
    expect(by.get('none').assets).toBeUndefined();
    expect(by.get('outside')).toMatchObject({ kept: false, drop_reason: 'asset_outside_root' });
    expect(by.get('missing')).toMatchObject({ kept: false, drop_reason: 'asset_missing' });
    expect(by.get('badname')).toMatchObject({ kept: false, drop_reason: 'asset_invalid' });
    // The author was told the file's name (and never saw the bad ones: no call for them).
    const ideals = author.requests.filter((q) => q.text.includes('Write the best'));
    expect(ideals).toHaveLength(3);
    expect(
      ideals.filter((q) => q.text.includes(`data.csv (${Buffer.byteLength(CSV)} bytes)`)),
    ).toHaveLength(2);
  }, 300_000);

  const rollout = (id: string, promptId: string, extra: object = {}) => ({
    id,
    prompt_id: promptId,
    completion: fencedPy,
    ...extra,
  });

  it('score gives the rubric’s data to its rollouts that carry none', async () => {
    const input = join(dir, 'rollouts.jsonl');
    const out = join(dir, 'scores.jsonl');
    const rows = [
      rollout('a', 'inline'),
      rollout('b', 'rooted'),
      // The rollout's own assets win over its prompt's: 2 rows, so the script's assert fails.
      rollout('c', 'inline', { assets: { 'data.csv': 'fruit,count\napples,1\npears,2\n' } }),
      // A dropped rubric's bad data is still the task's: its code, not a render.
      rollout('d', 'outside'),
    ];
    writeFileSync(input, rows.map((r) => JSON.stringify(r)).join('\n'));
    const r = await runCliInProcess([
      'score',
      '--rubrics',
      rubrics,
      '--in',
      input,
      '--out',
      out,
      '--data-root',
      root,
      '--judge',
      'openai-compatible:j',
      '--judge-base-url',
      judge.url,
      '--no-cache',
    ]);
    const by = new Map(lines(out).map((x) => [x.id, x]));
    expect(by.get('a'), r.stderr).toMatchObject({ status: 'ok' });
    expect(by.get('a').reward).toBeCloseTo(0.95, 12);
    expect(by.get('b')).toMatchObject({ status: 'ok' });
    expect(by.get('c')).toMatchObject({ status: 'unscoreable', reason: 'exec_error' });
    expect(by.get('d')).toMatchObject({ status: 'unscoreable', reason: 'asset_outside_root' });
  }, 300_000);

  it('serve does the same per request', async () => {
    const server = await startRewardService({
      rubrics,
      judge: createModelClient('openai-compatible:j', {
        role: 'judge',
        baseUrl: judge.url,
        env: {},
        maxRetries: 0,
      }),
      judgeConcurrency: 2,
      reward: ['ruler'],
      mode: 'joint',
      renderWorkers: 1,
      dataRoot: root,
      cache: false,
      port: 0,
    });
    try {
      const res = await postJson(`${server.url}/v1/rewards`, {
        items: [rollout('a', 'inline'), rollout('b', 'rooted'), rollout('d', 'outside')],
      });
      expect(res.status).toBe(200);
      const [a, b, d] = (res.json as { results: Json[] }).results;
      expect(a).toMatchObject({ id: 'a', status: 'ok' });
      expect(b).toMatchObject({ id: 'b', status: 'ok' });
      expect(d).toMatchObject({ id: 'd', status: 'unscoreable', reason: 'asset_outside_root' });
    } finally {
      await server.close();
    }
  }, 300_000);
});
