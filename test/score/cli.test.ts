// The `score` and `rubric synth` commands as a user runs them: a child process talking
// to the loopback double over HTTP. Resume after a kill mid-run (every id once, in
// order), torn-line repair, zero calls on a full re-run, summaries, usage errors.
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../support/corpus.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { authorAnswerFor, jointAnswer, rulerRubric, schemaKeys } from './support/fixtures.ts';

const BIN = new URL('../../bin/rubrica.js', import.meta.url).pathname;

const ICONS = fluentEmoji(30).map((c) => c.svg);

let double: ModelDouble;
let dir: string;

function run(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, RUBRICA_JUDGE_BASE_URL: '', RUBRICA_AUTHOR_BASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

const ids = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);

beforeAll(async () => {
  double = await startModelDouble();
});
afterAll(() => double.close());
beforeEach(() => {
  double.reset();
  dir = mkdtempSync(join(tmpdir(), 'rubrica-cli-'));
});

describe('rubrica score', () => {
  it('resumes after a kill mid-run: every id once, in input order; a re-run makes no calls', async () => {
    double.script((req) =>
      jsonAnswer(jointAnswer(schemaKeys(req), [0.9, 0.8, 0.7, 0.5, 0.6, 0.4]), { delayMs: 150 }),
    );
    const rubrics = join(dir, 'rubrics.jsonl');
    writeFileSync(rubrics, `${JSON.stringify(rulerRubric('fox', 'a red fox'))}\n`);
    const input = join(dir, 'rollouts.jsonl');
    const want = Array.from({ length: 12 }, (_, i) => `r${i}`);
    writeFileSync(
      input,
      want
        .map((id, i) =>
          JSON.stringify({ id, prompt_id: 'fox', completion: `\`\`\`svg\n${ICONS[i]}\n\`\`\`` }),
        )
        .join('\n'),
    );
    const out = join(dir, 'scores.jsonl');
    const args = [
      'score',
      '--rubrics',
      rubrics,
      '--in',
      input,
      '--out',
      out,
      '--judge',
      'openai-compatible:test-judge',
      '--judge-base-url',
      double.url,
      '--concurrency',
      '1',
      '--cache',
      join(dir, 'cache.sqlite'),
    ];

    const first = run(args);
    await new Promise<void>((resolve, reject) => {
      const t0 = Date.now();
      const poll = setInterval(() => {
        if (existsSync(out) && ids(out).length >= 4) {
          clearInterval(poll);
          first.child.kill('SIGKILL');
          resolve();
        } else if (Date.now() - t0 > 30_000) {
          clearInterval(poll);
          reject(new Error('the first run wrote nothing'));
        }
      }, 20);
    });
    await first.done;
    const partial = ids(out);
    expect(partial.length).toBeGreaterThanOrEqual(4);
    expect(partial.length).toBeLessThan(12);
    // Simulate a write torn by the crash.
    appendFileSync(out, '{"id":"r99","reward":0.5,"sta');

    const second = await runCliInProcess(args);
    expect(second.stderr).toContain('repaired a torn last line');
    expect(second.code).toBe(0);
    expect(ids(out)).toEqual(want);
    expect(second.stdout).toContain(`skipped ${partial.length} rollouts already in`);
    expect(second.stdout).toMatch(/scored \d+: \d+ ok, 0 unscoreable/);

    const calls = double.requests.length;
    const third = await runCliInProcess(args);
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('skipped 12 rollouts already in');
    expect(double.requests.length).toBe(calls);
    const recs = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(recs.every((r) => r.status === 'ok' && Math.abs(r.reward - 19 / 29) < 1e-12)).toBe(true);
  });

  it('reports bad input lines (exit 1) and bad flags (exit 2)', async () => {
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, `{"id":"a","prompt":"a cat","completion":"no svg here"}\nnot json\n`);
    const out = join(dir, 'out.jsonl');
    const base = [
      'score',
      '--in',
      input,
      '--out',
      out,
      '--judge',
      'openai-compatible:j',
      '--judge-base-url',
      double.url,
      '--no-cache',
    ];
    const ok = await runCliInProcess([...base, '--reward', 'universal']);
    expect(ok.code).toBe(1);
    expect(ok.stderr).toContain('in.jsonl:2: not valid JSON');
    expect(ok.stdout).toContain('unscoreable by reason: no_svg 1');
    for (const bad of [
      ['--reward', 'clip'],
      ['--drop-axis', 'colour'],
      ['--reward', 'hybrid'],
      ['--mode', 'both'],
      ['--reward', 'ruler'],
    ]) {
      const r = await runCliInProcess([...base, ...bad]);
      expect(r.code, bad.join(' ')).toBe(2);
    }
    const rubrics = join(dir, 'rubrics.jsonl');
    writeFileSync(rubrics, `${JSON.stringify(rulerRubric('cat', 'a cat'))}\n{"id":"broken"}\n`);
    const out2 = join(dir, 'out2.jsonl');
    const warned = await runCliInProcess([
      ...base.slice(0, 4),
      out2,
      ...base.slice(5),
      '--rubrics',
      rubrics,
    ]);
    expect(warned.stderr).toMatch(/rubrics\.jsonl:2: .*\(line ignored\)/);
    expect(readFileSync(out2, 'utf8')).toContain('"reason":"no_svg"');
  });
});

describe('rubrica score: judge failures', () => {
  it('counts a failing judge apart from bad drawings; --judge-retries bounds the attempts', async () => {
    double.script(() => ({ status: 500 }));
    const input = join(dir, 'in.jsonl');
    writeFileSync(
      input,
      [
        { id: 'good', prompt: 'a cat', completion: `\`\`\`svg\n${ICONS[1]}\n\`\`\`` },
        { id: 'bad', prompt: 'a cat', completion: 'no drawing' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const out = join(dir, 'out.jsonl');
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
      '--judge-retries',
      '1',
      '--no-cache',
    ]);
    // A grader fault left in the output is not success: exit 1, and the last line says why.
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'rubrica: exit 1: 1 of 2 rollouts ended in a grader fault (judge_error 1); run the same command again to retry them',
    );
    const recs = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(recs.map((x) => [x.id, x.reason])).toEqual([
      ['good', 'judge_error'],
      ['bad', 'no_svg'],
    ]);
    expect(recs[0].usage.calls).toBe(2);
    expect(double.requests).toHaveLength(2);
    expect(r.stdout).toContain('note: 1 judge errors are judge failures, not bad drawings');
    // Only the policy's own failure counts in the policy mean: (0 for no_svg) / 1.
    expect(r.stdout).toContain('judge/rubric failures left out): 0.0000');
  });
});

describe('rubrica rubric synth', () => {
  it('writes one line per prompt with kept/dropped and a summary; re-run skips them', async () => {
    double.script((req) => {
      if (req.text.includes('Draw the best SVG you can')) {
        return req.text.includes('impossible')
          ? { content: 'no drawing' }
          : { content: `\`\`\`svg\n${ICONS[2]}\n\`\`\`` };
      }
      if (req.text.includes('You write grading rubrics'))
        return jsonAnswer(authorAnswerFor('thing'));
      const low = req.text.includes('a low one');
      return jsonAnswer(
        jointAnswer(schemaKeys(req), low ? [0.5, 0.5, 0.5, 0.5, 0.5, 0.5] : [1, 1, 1, 1, 1, 1]),
      );
    });
    const input = join(dir, 'prompts.jsonl');
    writeFileSync(
      input,
      ['a good one', 'a low one', 'an impossible one']
        .map((p, i) => JSON.stringify({ id: i, prompt: p }))
        .join('\n'),
    );
    const out = join(dir, 'rubrics.jsonl');
    const args = [
      'rubric',
      'synth',
      '--in',
      input,
      '--out',
      out,
      '--author',
      'openai-compatible:a',
      '--judge',
      'openai-compatible:j',
      '--author-base-url',
      double.url,
      '--judge-base-url',
      double.url,
      '--cache',
      join(dir, 'c.sqlite'),
    ];
    const r = await runCliInProcess(args);
    expect(r.code).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    // Numeric ids are written back as the numbers they were.
    expect(lines.map((l) => [l.id, l.kept, l.drop_reason ?? null])).toEqual([
      [0, true, null],
      [1, false, 'ideal_below_threshold'],
      [2, false, 'ideal_unrenderable'],
    ]);
    expect(r.stdout).toContain('rubrics 3: 1 kept, 2 dropped');
    expect(r.stdout).toMatch(
      /dropped by reason: (ideal_below_threshold 1, ideal_unrenderable 1|ideal_unrenderable 1, ideal_below_threshold 1)/,
    );
    const again = await runCliInProcess(args);
    expect(again.stdout).toContain('skipped 3 prompts already in');
  });
});
