// `--rollout-timeout-ms` on every batch command that scores (score, eval, rescore), as a user
// runs them: a judge that never answers one prompt's calls, a judge timeout far longer than
// the test, and a rollout timeout of 8 s (a cold render worker on a loaded machine takes seconds). Each command must finish with the other rollouts
// scored, the hung one a `deadline` grader fault (redone by the next run, never a 0), and not
// wait for the judge's own timeout on the way out.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeByImage, tempDir, writeRubrics } from '../server/support.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';

const dir = tempDir('rollout-timeout');
const rubrics = writeRubrics(dir, [
  ['p', 'a square'],
  ['h', 'a square SLOWPOKE'],
]);
const svg = (w: number) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="${w}" height="${w}"/></svg>\n\`\`\``;
const rollouts = join(dir, 'rollouts.jsonl');
writeFileSync(
  rollouts,
  [
    { id: 'p0', prompt_id: 'p', prompt: 'a square', completion: svg(40) },
    { id: 'p1', prompt_id: 'p', prompt: 'a square', completion: svg(60) },
    { id: 'h0', prompt_id: 'h', prompt: 'a square SLOWPOKE', completion: svg(50) },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n'),
);

let double: ModelDouble;
beforeAll(async () => {
  const byImage = judgeByImage();
  double = await startModelDouble({
    // The judge never answers a call about the SLOWPOKE prompt (the socket stays open).
    handler: (req) => (req.text.includes('SLOWPOKE') ? { hang: true } : byImage(req)),
  });
});
afterAll(() => double?.close());

const judgeFlags = () => [
  '--judge',
  'openai-compatible:test-judge',
  '--judge-base-url',
  double.url,
  '--judge-timeout',
  '600000',
  '--judge-retries',
  '0',
  '--no-cache',
  '--rollout-timeout-ms',
  '8000',
];

type Line = Record<string, unknown> & { id: string };
const lines = (f: string): Line[] =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

/** Runs a command and returns its exit code, stderr and wall time. */
async function timed(args: string[]) {
  const t0 = performance.now();
  const r = await runCliInProcess(args);
  return { ...r, ms: performance.now() - t0 };
}

describe('--rollout-timeout-ms on the batch commands', () => {
  it('score: the hung rollout is a deadline fault, the others are scored', async () => {
    const out = join(dir, 'scores.jsonl');
    const r = await timed([
      'score',
      '--in',
      rollouts,
      '--out',
      out,
      '--rubrics',
      rubrics,
      ...judgeFlags(),
    ]);
    expect(r.code, r.stderr).toBe(1); // a grader fault: "run the same command again"
    // Bounded by the rollout timeout and its grace on close, not the 600 s judge timeout.
    expect(r.ms).toBeLessThan(120_000);
    const byId = new Map(lines(out).map((l) => [l.id, l]));
    expect(byId.get('p0')).toMatchObject({ status: 'ok' });
    expect(byId.get('p1')).toMatchObject({ status: 'ok' });
    expect(byId.get('h0')).toMatchObject({ status: 'grader_error', reason: 'deadline' });
    expect(r.stderr).toContain('deadline');
  });

  it('eval, then rescore of its run: the hung rollout is a deadline fault in both', async () => {
    const prompts = join(dir, 'prompts.jsonl');
    writeFileSync(
      prompts,
      ['p', 'h']
        .map((id) => JSON.stringify({ id, prompt: id === 'h' ? 'a square SLOWPOKE' : 'a square' }))
        .join('\n'),
    );
    const runDir = join(dir, 'eval-run');
    const e = await timed([
      'eval',
      '--prompts',
      prompts,
      '--rollouts',
      rollouts,
      '--out',
      runDir,
      '--rubrics',
      rubrics,
      ...judgeFlags(),
    ]);
    expect(e.ms, e.stderr).toBeLessThan(120_000);
    expect(e.stderr).toContain('deadline');
    const results = new Map(lines(join(runDir, 'results.jsonl')).map((l) => [l.id, l]));
    type Scores = Record<string, { status: string; reason?: string }>;
    expect((results.get('h0')!.scores as Scores).ruler).toMatchObject({
      status: 'grader_error',
      reason: 'deadline',
    });
    expect((results.get('p0')!.scores as Scores).ruler!.status).toBe('ok');

    const out = join(dir, 'rescored.jsonl');
    const r = await timed([
      'rescore',
      '--in',
      runDir,
      '--out',
      out,
      '--rubrics',
      rubrics,
      ...judgeFlags(),
    ]);
    expect(r.ms).toBeLessThan(120_000);
    const fresh = new Map(lines(out).map((l) => [l.id, l]));
    expect(fresh.get('h0')).toMatchObject({ status: 'grader_error', reason: 'deadline' });
    expect(fresh.get('p1')).toMatchObject({ status: 'ok' });
  });

  it('every batch command that judges takes the rollout timeout and the judge call bounds', async () => {
    for (const cmd of ['score', 'eval', 'rescore', 'probe']) {
      const r = await runCliInProcess([cmd, '--help']);
      for (const flag of ['--rollout-timeout-ms', '--judge-timeout', '--judge-retries'])
        expect(r.stdout, `${cmd} ${flag}`).toContain(flag);
    }
  });
});
