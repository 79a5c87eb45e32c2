// `rubrica export verl`: the parquet is read back with hyparquet (a reader independent of the
// writer's encoding code path) and checked against verl's dataset layout.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { exportVerl } from './verl.ts';

const run = promisify(execFile);

function rubricLine(id: string, prompt: string, kept: boolean, preset = 'ruler'): string {
  return JSON.stringify({
    id,
    prompt,
    preset,
    items: [],
    ideal_svg: null,
    ideal_score: kept ? 0.95 : 0.5,
    kept,
    ...(kept ? {} : { drop_reason: 'ideal_below_threshold' }),
    author: 'vllm:a',
    judge: 'vllm:j',
    usage: { calls: 2, inputTokens: 1, outputTokens: 1, costUsd: null, latencyMs: 3 },
  });
}

async function readRows(file: string) {
  return (await parquetReadObjects({ file: await asyncBufferFromFile(file) })) as Array<
    Record<string, unknown>
  >;
}

describe('export verl', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-verl-'));
  const rubrics = join(dir, 'rubrics.jsonl');
  writeFileSync(
    rubrics,
    [
      rubricLine('p1', 'a red fox', true),
      rubricLine('p2', 'a lighthouse "at dusk" — ünïcode', true),
      rubricLine('p3', 'a dropped one', false),
      '{"torn line',
      rubricLine('p1', 'a red fox, resynthesised', true),
    ].join('\n'),
  );

  it('writes kept rubrics in verl layout (later lines win), readable back', async () => {
    const out = join(dir, 'train.parquet');
    const summary = exportVerl(rubrics, out, { system: 'You write SVG.' });
    expect(summary).toMatchObject({ rows: 2, skippedDropped: 1 });
    expect(summary.badLines).toEqual([{ line: 4, message: 'not valid JSON' }]);
    const rows = await readRows(out);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      data_source: 'rubrica',
      prompt: [
        { role: 'system', content: 'You write SVG.' },
        { role: 'user', content: 'a lighthouse "at dusk" — ünïcode' },
      ],
      ability: 'svg',
      reward_model: { style: 'rule', ground_truth: 'p2' },
      extra_info: {
        split: 'train',
        index: 0n,
        prompt_id: 'p2',
        prompt: 'a lighthouse "at dusk" — ünïcode',
        preset: 'ruler',
      },
    });
    expect(rows[1]).toMatchObject({
      prompt: [{ role: 'system' }, { role: 'user', content: 'a red fox, resynthesised' }],
      reward_model: { ground_truth: 'p1' },
    });
    // The column layout pyarrow would write for list<struct<content, role>>.
    const md = await parquetMetadataAsync(await asyncBufferFromFile(out));
    expect(md.schema.map((e) => e.name)).toEqual([
      'root',
      'data_source',
      'prompt',
      'list',
      'element',
      'content',
      'role',
      'ability',
      'reward_model',
      'ground_truth',
      'style',
      'extra_info',
      'index',
      'preset',
      'prompt',
      'prompt_id',
      'split',
    ]);
  });

  it('the CLI writes the same file; --include-dropped and no --system', async () => {
    const out = join(dir, 'all.parquet');
    const { stderr } = await run('node', [
      'bin/rubrica.js',
      'export',
      'verl',
      '--rubrics',
      rubrics,
      '--out',
      out,
      '--include-dropped',
      '--split',
      'val',
    ]);
    expect(stderr).toMatch(/wrote 3 rows/);
    const rows = await readRows(out);
    expect(rows.map((r) => (r.reward_model as { ground_truth: string }).ground_truth)).toEqual([
      'p2',
      'p3',
      'p1',
    ]);
    expect(rows[0]!.prompt).toEqual([
      { role: 'user', content: 'a lighthouse "at dusk" — ünïcode' },
    ]);
    expect((rows[2]!.extra_info as { split: string }).split).toBe('val');
  });

  it('exits 2 on a bad flag value', async () => {
    const err = await run('node', [
      'bin/rubrica.js',
      'export',
      'verl',
      '--rubrics',
      rubrics,
      '--out',
      join(dir, 'x.parquet'),
      '--style',
      'nope',
    ]).catch((e: { code: number; stderr: string }) => e);
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stderr: string }).stderr).toMatch(/--style must be rule or model/);
  });
});
