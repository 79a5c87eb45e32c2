// `rubrica eval --reward hybrid`: one eval run scores every rollout with the universal rubric
// (the judge, here the loopback double) and with the hybrid reward (a tiny CLIP folder), and
// `rubrica compare` shows both in one table.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, schemaAnswer, startModelDouble } from '../support/model-double.ts';
import { asCompletion, squiggleSpam } from './support/hack-svgs.ts';
import { type TinyClipSpec, writeTinyClip } from './support/tiny-clip.ts';

const spec: TinyClipSpec = {
  words: { a: [0.2, 0.2, 0.2, 0.5], red: [1, 0, 0, 0.2], apple: [0.8, 0.2, 0, 0.2] },
  hidden: 4,
  dim: 4,
  textProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  visionProjection: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  imageSize: 32,
  imageMean: [0.5, 0.5, 0.5],
  imageStd: [0.5, 0.5, 0.5],
};

let dir: string;
let double: ModelDouble;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rubrica-eval-hybrid-'));
  writeTinyClip(join(dir, 'clip'), spec);
  double = await startModelDouble({ handler: schemaAnswer(), models: ['judge'] });
  const apple = fluentEmoji().find((c) => c.name === 'red-apple')!.svg;
  writeFileSync(join(dir, 'prompts.jsonl'), '{"id":"apple","prompt":"a red apple"}\n');
  const rollouts = [
    { id: 'apple#0', prompt_id: 'apple', completion: asCompletion(apple) },
    { id: 'apple#1', prompt_id: 'apple', completion: asCompletion(squiggleSpam(300, 5)) },
    { id: 'apple#2', prompt_id: 'apple', completion: 'No drawing today.' },
  ];
  writeFileSync(
    join(dir, 'rollouts.jsonl'),
    rollouts.map((r) => `${JSON.stringify(r)}\n`).join(''),
  );
});
afterAll(async () => {
  await double.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the binary without blocking the event loop (the judge double lives in this process). */
function rubrica(
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn('node', ['bin/rubrica.js', ...args]);
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => {
      stdout += d;
    });
    p.stderr.on('data', (d) => {
      stderr += d;
    });
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('rubrica eval --reward hybrid', () => {
  it('adds a hybrid score to every record, next to the universal one', async () => {
    const out = join(dir, 'run');
    const r = await rubrica(
      'eval',
      '--prompts',
      join(dir, 'prompts.jsonl'),
      '--rollouts',
      join(dir, 'rollouts.jsonl'),
      '--judge',
      'openai-compatible:judge',
      '--judge-base-url',
      double.url,
      '--out',
      out,
      '--no-cache',
      '--reward',
      'hybrid',
      '--clip-model',
      join(dir, 'clip'),
      '--lambda-aesthetic',
      '0',
    );
    expect(r.status, r.stderr).toBe(0);
    const records = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(3);
    for (const rec of records) {
      expect(Object.keys(rec.scores).sort()).toEqual(['hybrid', 'universal']);
      expect(rec.scores.hybrid.criteria.map((c: { key: string }) => c.key)).toEqual([
        'think',
        'render',
        'semantic',
        'aesthetic',
      ]);
    }
    // One render fed both rewards: the universal judge gates the missing SVG, hybrid measures it.
    expect(records[2].scores.universal).toMatchObject({ status: 'unscoreable', reason: 'no_svg' });
    expect(records[2].scores.hybrid).toMatchObject({ status: 'ok', checks: { renders: false } });
    expect(records[1].scores.hybrid.checks.clutter).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.kinds).toContain('hybrid');
    expect(summary.rewards.hybrid.n).toBe(3);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('hybrid');

    const c = spawnSync('node', ['bin/rubrica.js', 'compare', out, '--reward', 'hybrid'], {
      encoding: 'utf8',
    });
    expect(c.status, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/hybrid:semantic/);
  });

  it('refuses a reward it cannot give (ruler without --rubrics, hybrid without a scorer)', async () => {
    const base = [
      'eval',
      '--prompts',
      join(dir, 'prompts.jsonl'),
      '--rollouts',
      join(dir, 'rollouts.jsonl'),
      '--judge',
      'openai-compatible:judge',
      '--judge-base-url',
      double.url,
      '--out',
      join(dir, 'bad'),
      '--no-cache',
    ];
    const wrong = await rubrica(...base, '--reward', 'ruler');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('needs --rubrics');
    const noScorer = await rubrica(
      ...base,
      '--reward',
      'hybrid',
      '--clip-model',
      join(dir, 'clip'),
    );
    expect(noScorer.status).toBe(2);
    expect(noScorer.stderr).toContain('aesthetic term needs a scorer');
  });
});
