// `rubrica eval --reward prisma,direct`: the rubric-vs-holistic comparison of the paper runs
// through eval like any other pair of rewards (in-process CLI, real render pool, loopback
// judges answering as their schema allows), with a rubrics file holding prisma lines.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, schemaAnswerer, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { prismaRubric } from './fixtures.ts';

let double: ModelDouble;
const dir = mkdtempSync(join(tmpdir(), 'prisma-eval-'));

beforeAll(async () => {
  double = await startModelDouble({ models: ['m'] });
  double.script(schemaAnswerer({ seed: 5 }).handler);
});
afterAll(() => double.close());

describe('rubrica eval --reward prisma,direct', () => {
  it('scores every rollout with both, next to universal', async () => {
    const icons = fluentEmoji(3).map((c) => c.svg);
    const w = (name: string, rows: object[]) => {
      writeFileSync(join(dir, name), rows.map((r) => JSON.stringify(r)).join('\n'));
      return join(dir, name);
    };
    const prompts = w('prompts.jsonl', [
      { id: 'p1', prompt: 'a smiling face' },
      { id: 'p2', prompt: 'a red apple' },
    ]);
    const rubrics = w('rubrics.jsonl', [
      prismaRubric('p1', 'a smiling face'),
      prismaRubric('p2', 'a red apple'),
    ]);
    const rollouts = w('rollouts.jsonl', [
      { id: 'r1', prompt_id: 'p1', completion: `\`\`\`svg\n${icons[0]}\n\`\`\`` },
      { id: 'r2', prompt_id: 'p2', completion: `\`\`\`svg\n${icons[1]}\n\`\`\`` },
    ]);
    const out = join(dir, 'run');
    const r = await runCliInProcess([
      'eval',
      '--prompts',
      prompts,
      '--rollouts',
      rollouts,
      '--rubrics',
      rubrics,
      '--reward',
      'prisma,direct',
      '--judge',
      'openai-compatible:m',
      '--judge-base-url',
      double.url,
      '--out',
      out,
      '--cache',
      join(dir, 'c.sqlite'),
    ]);
    expect(r.stderr).not.toMatch(/rubrica:/);
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results).toHaveLength(2);
    for (const res of results) {
      expect(res.scores.prisma.status, JSON.stringify(res.scores.prisma)).toBe('ok');
      expect(res.scores.direct.status).toBe('ok');
      expect(res.scores.universal.status).toBe('ok');
    }
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('prisma');
    expect([0, 1]).toContain(r.code);
  }, 180_000);
});
