// The PrismaForge command sequence as a user runs it (in-process CLI, loopback model double
// answering every structured request as its schema allows): `rubric synth --preset prisma`
// writes rubrics that `score --reward prisma,direct` then uses; a re-run of synth costs no
// call; usage errors are one line with exit 2.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaRubricSchema } from '../../src/rubric/prisma-schema.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, schemaAnswerer, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';

let double: ModelDouble;
const dir = mkdtempSync(join(tmpdir(), 'prisma-cli-'));
const cache = join(dir, 'cache.sqlite');

beforeAll(async () => {
  double = await startModelDouble({ models: ['m'] });
  double.script(schemaAnswerer({ seed: 11 }).handler);
});
afterAll(() => double.close());

describe('rubrica rubric synth --preset prisma → score --reward prisma', () => {
  it('writes kept prisma rubrics, then scores rollouts with them', async () => {
    const prompts = join(dir, 'prompts.jsonl');
    writeFileSync(
      prompts,
      [
        { id: 'p1', prompt: 'a smiling sun with eight rays' },
        { id: 'p2', prompt: 'a red apple with one green leaf', domain: 'svg', family: 'chart' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const rubrics = join(dir, 'rubrics.jsonl');
    const common = ['--cache', cache];
    const synth = await runCliInProcess([
      'rubric',
      'synth',
      '--preset',
      'prisma',
      '--in',
      prompts,
      '--out',
      rubrics,
      '--author',
      'openai-compatible:m',
      '--author-base-url',
      double.url,
      ...common,
    ]);
    expect(synth.code, synth.stderr).toBe(0);
    expect(synth.stdout).toMatch(/prisma rubrics 2: 2 kept/);
    const lines = readFileSync(rubrics, 'utf8')
      .trim()
      .split('\n')
      .map((l) => PrismaRubricSchema.parse(JSON.parse(l)));
    expect(lines.map((l) => [l.id, l.family])).toEqual([
      ['p1', 'svg'],
      ['p2', 'chart'],
    ]);
    const calls = double.requests.length;
    expect(calls).toBe(4);

    const again = await runCliInProcess([
      'rubric',
      'synth',
      '--preset',
      'prisma',
      '--in',
      prompts,
      '--out',
      join(dir, 'again.jsonl'),
      '--author',
      'openai-compatible:m',
      '--author-base-url',
      double.url,
      ...common,
    ]);
    expect(again.code).toBe(0);
    expect(double.requests.length).toBe(calls);

    const icons = fluentEmoji(4);
    const rollouts = join(dir, 'rollouts.jsonl');
    writeFileSync(
      rollouts,
      [
        { id: 'r1', prompt_id: 'p1', completion: `\`\`\`svg\n${icons[0]!.svg}\n\`\`\`` },
        { id: 'r2', prompt_id: 'p2', completion: `\`\`\`svg\n${icons[1]!.svg}\n\`\`\`` },
        { id: 'r3', prompt_id: 'p2', completion: 'no drawing today' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const out = join(dir, 'scores.jsonl');
    const score = await runCliInProcess([
      'score',
      '--rubrics',
      rubrics,
      '--in',
      rollouts,
      '--out',
      out,
      '--reward',
      'prisma,direct',
      '--judge',
      'openai-compatible:m',
      '--judge-base-url',
      double.url,
      '--prisma-lambdas',
      'chart=0.5:0.5',
      ...common,
    ]);
    expect(score.code, score.stderr).toBe(0);
    const recs = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(recs.map((r) => [r.id, r.reward_kind, r.status])).toEqual([
      ['r1', 'prisma', 'ok'],
      ['r2', 'prisma', 'ok'],
      ['r3', 'prisma', 'unscoreable'],
    ]);
    expect(recs[0].rewards.direct.status).toBe('ok');
    // p2 is family chart, overridden to 0.5/0.5: the tree carries the λ.
    expect(recs[1].tree.children.map((c: { weight: number }) => c.weight)).toEqual([0.5, 0.5]);
  }, 120_000);

  it('refuses a rubrics file without prisma rubrics and bad λ, before any call', async () => {
    const ruler = join(dir, 'ruler.jsonl');
    writeFileSync(ruler, '');
    const rollouts = join(dir, 'r.jsonl');
    writeFileSync(rollouts, '{"id":"r","prompt_id":"p","completion":"x"}\n');
    const base = [
      'score',
      '--in',
      rollouts,
      '--out',
      join(dir, 'o.jsonl'),
      '--judge',
      'openai-compatible:m',
      '--judge-base-url',
      double.url,
    ];
    const a = await runCliInProcess([...base, '--rubrics', ruler, '--reward', 'prisma']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/no kept prisma rubric/);
    const b = await runCliInProcess([
      ...base,
      '--rubrics',
      ruler,
      '--reward',
      'prisma',
      '--prisma-lambdas',
      'chart=2:0',
    ]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/--prisma-lambdas/);
  });
});
