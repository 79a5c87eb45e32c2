// `rubrica probe` refuses what it cannot do before any work (exit 2, usage errors).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../../../test/support/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'rubrica-probe-cli-'));
const prompts = join(dir, 'prompts.jsonl');
const rollouts = join(dir, 'rollouts.jsonl');
writeFileSync(prompts, '{"id":"p1","prompt":"a red apple"}\n');
writeFileSync(rollouts, '{"id":"p1#0","prompt_id":"p1","completion":"<svg/>"}\n');
const base = [
  'probe',
  '--prompts',
  prompts,
  '--rollouts',
  rollouts,
  '--judge',
  'ollama:x',
  '--out',
  join(dir, 'out'),
];

describe('rubrica probe flags', () => {
  it.each([
    [['--reward', 'ruler'], /needs --rubrics/],
    [['--reward', 'universal,hybrid'], /one reward/],
    [['--order-modes', 'joint,sideways'], /--mode must be joint or per-item/],
    [['--repeats', '0'], /--repeats must be an integer ≥ 1/],
    [
      ['--rubrics', join(dir, 'missing.jsonl')],
      /--rubrics: cannot read .*missing\.jsonl.*: no such file/,
    ],
  ])('%j is a usage error', async (extra, message) => {
    const run = await runCliInProcess([...base, ...extra]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});
