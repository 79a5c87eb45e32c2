// Task data (issue 23) through the CLI: `inspect --assets --data-root` and `score --data-root`
// with rollouts carrying `assets`. A bad asset is a per-item result with its stable code (a
// path out of the root, a symlink out of it, a missing file), never a crash; and the answer
// cache keys hold the data's hash, so a task with other data is judged again even when the
// picture is the same.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jointAnswer, schemaKeys } from '../score/support/fixtures.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/assets');
const dir = mkdtempSync(join(tmpdir(), 'rubrica-assets-cli-'));
const root = join(dir, 'root');
mkdirSync(root);
writeFileSync(join(root, 'weather.csv'), readFileSync(join(FIXTURES, 'weather.csv')));
writeFileSync(join(root, 'cars.json'), readFileSync(join(FIXTURES, 'cars.json')));
writeFileSync(join(dir, 'secret.csv'), 'weather,precipitation\nsecret,1\n');
symlinkSync(join(dir, 'secret.csv'), join(root, 'leak.csv'));

const VEGA = `\`\`\`json
{"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
 "data": {"url": "weather.csv"}, "mark": "bar",
 "encoding": {"x": {"field": "weather", "type": "nominal"},
              "y": {"aggregate": "mean", "field": "precipitation", "type": "quantitative"}}}
\`\`\``;
// Reads its data, but draws the same figure whatever the data holds.
const PY_SAME = `\`\`\`python
import pandas as pd
import matplotlib.pyplot as plt
df = pd.read_csv('t.csv')
plt.plot([1, 3, 2])
plt.title('rows: %d' % min(len(df), 1))
\`\`\``;

let double: ModelDouble;
beforeAll(async () => {
  double = await startModelDouble();
  double.script((req) => jsonAnswer(jointAnswer(schemaKeys(req), [0.8, 0.6, 0.7, 0.5, 0.9, 0.4])));
});
afterAll(async () => {
  await double.close();
});

describe('rubrica inspect with task data', () => {
  it('renders a vega-lite chart from its data file; refuses a path out of the data root', async () => {
    const completion = join(dir, 'chart.txt');
    writeFileSync(completion, VEGA);
    const assets = join(dir, 'assets.json');
    writeFileSync(assets, JSON.stringify({ 'weather.csv': { path: 'weather.csv' } }));
    const ok = await runCliInProcess([
      'inspect',
      completion,
      '--json',
      '--assets',
      assets,
      '--data-root',
      root,
    ]);
    expect(ok.code).toBe(0);
    const ins = JSON.parse(ok.stdout);
    expect(ins.artifact.domain).toBe('vega-lite');
    expect(ins.render.ok ? 'ok' : ins.render.error).toBe('ok');
    // The same chart without its data: the spec's URL is refused.
    const bare = JSON.parse((await runCliInProcess(['inspect', completion, '--json'])).stdout);
    expect(bare.render.error.code).toBe('exec_error');

    for (const [path, code] of [
      ['../secret.csv', 'asset_outside_root'],
      ['leak.csv', 'asset_outside_root'],
      ['missing.csv', 'asset_missing'],
    ]) {
      writeFileSync(assets, JSON.stringify({ 'weather.csv': { path } }));
      const r = await runCliInProcess([
        'inspect',
        completion,
        '--assets',
        assets,
        '--data-root',
        root,
      ]);
      expect(r.code, path).toBe(2);
      expect(r.stderr.trim().split('\n'), path).toHaveLength(1);
      expect(r.stderr, path).toContain(code);
    }
  }, 120_000);
});

describe('rubrica score with task data', () => {
  it('scores rollouts with their data, a bad asset per item, and keys the cache by the data', async () => {
    const input = join(dir, 'in.jsonl');
    const out = join(dir, 'out.jsonl');
    const lines = [
      {
        id: 'chart',
        prompt: 'mean rain by weather',
        completion: VEGA,
        assets: { 'weather.csv': { path: 'weather.csv' } },
      },
      { id: 'py-a', prompt: 'a line', completion: PY_SAME, assets: { 't.csv': 'x\n1\n' } },
      // Same prompt, same picture, other data: judged again (not a cache hit).
      { id: 'py-b', prompt: 'a line', completion: PY_SAME, assets: { 't.csv': 'x\n2\n' } },
      // Same data as py-a: the cached answer.
      { id: 'py-a2', prompt: 'a line', completion: PY_SAME, assets: { 't.csv': 'x\n1\n' } },
      {
        id: 'escape',
        prompt: 'p',
        completion: VEGA,
        assets: { 'weather.csv': { path: '../secret.csv' } },
      },
      {
        id: 'symlink',
        prompt: 'p',
        completion: VEGA,
        assets: { 'weather.csv': { path: 'leak.csv' } },
      },
      {
        id: 'missing',
        prompt: 'p',
        completion: VEGA,
        assets: { 'weather.csv': { path: 'nope.csv' } },
      },
      { id: 'no-data', prompt: 'p', completion: VEGA },
    ];
    writeFileSync(input, lines.map((l) => JSON.stringify(l)).join('\n'));
    const r = await runCliInProcess([
      'score',
      '--in',
      input,
      '--out',
      out,
      '--reward',
      'universal',
      '--judge',
      'openai-compatible:j',
      '--judge-base-url',
      double.url,
      '--cache',
      join(dir, 'cache.sqlite'),
      '--concurrency',
      '1',
      '--data-root',
      root,
    ]);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    const recs = Object.fromEntries(
      readFileSync(out, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .map((x) => [x.id, x]),
    );
    expect(recs.chart).toMatchObject({ status: 'ok' });
    expect(recs['py-a']).toMatchObject({ status: 'ok', cached: false });
    expect(recs['py-b']).toMatchObject({ status: 'ok', cached: false });
    expect(recs['py-a2']).toMatchObject({ status: 'ok', cached: true });
    expect(recs.escape).toMatchObject({
      status: 'unscoreable',
      reason: 'asset_outside_root',
      reward: 0,
    });
    expect(recs.symlink).toMatchObject({ status: 'unscoreable', reason: 'asset_outside_root' });
    expect(recs.missing).toMatchObject({ status: 'unscoreable', reason: 'asset_missing' });
    expect(recs['no-data']).toMatchObject({ status: 'unscoreable', reason: 'exec_error' });
    // chart, py-a, py-b: three judge calls; py-a2 came from the cache.
    expect(double.requests).toHaveLength(3);
  }, 240_000);
});
