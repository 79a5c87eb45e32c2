// Fault drills for the batch commands as an operator meets them, with real `rubrica`
// processes, real files and the loopback model double (issue 10, items 4, 5, 7, 12-15):
// judge down then up (faults redone, one line per id, exit codes), two writers on one
// --out, Ctrl-C on a running process (terminal restored, resumable, no duplicates), bad
// input files (not UTF-8, a JSON array), mismatched rubrics, --out mistakes, progress lines
// in a log. Each drill counts lost and duplicated rollouts: there must be none.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fluentEmoji } from '../support/corpus.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { runCliInProcess } from '../support/run-cli.ts';
import { authorAnswerFor, jointAnswer, rulerRubric, schemaKeys } from './support/fixtures.ts';

const BIN = new URL('../../bin/rubrica.js', import.meta.url).pathname;
const ICONS = fluentEmoji(30).map((c) => c.svg);

// Real processes with retries and backoff: on a shared 2-core machine under load a drill
// can take minutes; a timed-out drill would leave its CLI run writing into the next one.
vi.setConfig({ testTimeout: 240_000 });

let double: ModelDouble;
let dir: string;
/** The judge's state in a drill: down answers 500 to everything. */
let judgeUp = true;
let judgeDelayMs = 0;

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stderr: () => string;
}

function spawnCli(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, RUBRICA_JUDGE_BASE_URL: '', ...env },
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
  return { child, done, stderr: () => stderr };
}

const records = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; status: string; reason?: string; scores?: never });

/** Lost and duplicated ids of an output against the ids wanted. */
function audit(path: string, want: string[]) {
  const ids = records(path).map((r) => r.id);
  const lost = want.filter((id) => !ids.includes(id));
  const duplicated = ids.filter((id, i) => ids.indexOf(id) !== i);
  return { lines: ids.length, lost, duplicated };
}

async function waitFor(cond: () => boolean, what: string, ms = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function rollouts(n: number): { path: string; ids: string[] } {
  const path = join(dir, 'rollouts.jsonl');
  const ids = Array.from({ length: n }, (_, i) => `r${i}`);
  writeFileSync(
    path,
    ids
      .map((id, i) =>
        JSON.stringify({ id, prompt: 'an emoji', completion: `\`\`\`svg\n${ICONS[i]}\n\`\`\`` }),
      )
      .join('\n'),
  );
  return { path, ids };
}

const scoreArgs = (input: string, out: string, extra: string[] = []) => [
  'score',
  '--reward',
  'universal',
  '--in',
  input,
  '--out',
  out,
  '--judge',
  'openai-compatible:judge',
  '--judge-base-url',
  double.url,
  '--judge-retries',
  '0',
  '--cache',
  join(dir, 'cache.sqlite'),
  ...extra,
];

beforeAll(async () => {
  double = await startModelDouble({
    handler: (req) => {
      if (!judgeUp) return { status: 500 };
      return jsonAnswer(jointAnswer(schemaKeys(req), [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]), {
        delayMs: judgeDelayMs,
      });
    },
  });
});
afterAll(() => double.close());
beforeEach(() => {
  double.reset();
  judgeUp = true;
  judgeDelayMs = 0;
  dir = mkdtempSync(join(tmpdir(), 'rubrica-drill-'));
});

describe('grader faults are not final (score)', () => {
  it('judge down then up: exit 1 with the reason, then every fault redone, one line per id, exit 0', async () => {
    const { path, ids } = rollouts(8);
    const out = join(dir, 'scores.jsonl');
    judgeUp = false;
    const down = await runCliInProcess(scoreArgs(path, out));
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(
      'rubrica: exit 1: 8 of 8 rollouts ended in a grader fault (judge_error 8); run the same command again to retry them',
    );
    expect(records(out).every((r) => r.reason === 'judge_error')).toBe(true);

    judgeUp = true;
    const up = await runCliInProcess(scoreArgs(path, out));
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain('redid 8 rollouts whose earlier line was a grader fault');
    expect(up.stderr).toContain('(8 older lines replaced)');
    expect(records(out).map((r) => [r.id, r.status])).toEqual(ids.map((id) => [id, 'ok']));
    expect(audit(out, ids)).toEqual({ lines: 8, lost: [], duplicated: [] });
    expect(existsSync(`${out}.lock`)).toBe(false);

    // Nothing left to do: no calls.
    double.reset();
    const again = await runCliInProcess(scoreArgs(path, out));
    expect(again.code).toBe(0);
    expect(double.requests).toHaveLength(0);
  });

  it('redoes lines written by older versions (status unscoreable, reason scorer_error / cache_error)', async () => {
    const { path, ids } = rollouts(3);
    const out = join(dir, 'scores.jsonl');
    const old = (id: string, reason: string) =>
      JSON.stringify({ id, prompt_id: null, reward: 0, status: 'unscoreable', reason });
    writeFileSync(
      out,
      `${old('r0', 'scorer_error')}\n${old('r1', 'no_svg')}\n${old('r2', 'cache_error')}\n`,
    );
    const r = await runCliInProcess(scoreArgs(path, out));
    expect(r.code, r.stderr).toBe(0);
    // no_svg is a fact about the rollout: kept; the two faults were scored again.
    expect(records(out).map((x) => [x.id, x.reason ?? x.status])).toEqual([
      ['r0', 'ok'],
      ['r1', 'no_svg'],
      ['r2', 'ok'],
    ]);
    expect(audit(out, ids).duplicated).toEqual([]);
  });
});

describe('grader faults are not final (rubric synth)', () => {
  it('author down: exit 1 (faults, nothing kept); author up: the prompts are redone in place', async () => {
    let authorUp = false;
    double.script((req) => {
      const author =
        req.text.includes('Draw the best SVG you can') ||
        req.text.includes('You write grading rubrics');
      if (author && !authorUp) return { status: 500 };
      if (req.text.includes('Draw the best SVG you can'))
        return { content: `\`\`\`svg\n${ICONS[2]}\n\`\`\`` };
      if (req.text.includes('You write grading rubrics'))
        return jsonAnswer(authorAnswerFor('thing'));
      return jsonAnswer(jointAnswer(schemaKeys(req), [1, 1, 1, 1, 1, 1]));
    });
    const input = join(dir, 'prompts.jsonl');
    writeFileSync(
      input,
      ['a', 'b', 'c'].map((id) => JSON.stringify({ id, prompt: `a ${id}` })).join('\n'),
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
    const down = await runCliInProcess(args);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(
      'rubrica: exit 1: 3 of 3 prompts ended in a grader fault (author_error 3); run the same command again to retry them; no rubric was kept of 3 prompts',
    );
    authorUp = true;
    const up = await runCliInProcess(args);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain('redid 3 prompts whose earlier line was a grader fault');
    const recs = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(recs.map((r) => [r.id, r.kept])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
    ]);
  });
});

describe('one writer per output', () => {
  it('refuses a second score on the same --out while the first runs; the first writes each id once', async () => {
    const { path, ids } = rollouts(10);
    const out = join(dir, 'scores.jsonl');
    judgeDelayMs = 150;
    const first = spawnCli(scoreArgs(path, out, ['--concurrency', '1']));
    await waitFor(() => existsSync(out) && records(out).length >= 1, 'the first run to write');
    const second = await runCliInProcess(scoreArgs(path, out));
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(`is being written by another run \\(pid ${first.child.pid} on .*rubrica score`),
    );
    expect(second.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    const r = await first.done;
    expect(r.code, r.stderr).toBe(0);
    expect(audit(out, ids)).toEqual({ lines: 10, lost: [], duplicated: [] });
  });

  it('takes over the lock of a run that was killed', async () => {
    const { path, ids } = rollouts(6);
    const out = join(dir, 'scores.jsonl');
    judgeDelayMs = 150;
    const first = spawnCli(scoreArgs(path, out, ['--concurrency', '1']));
    await waitFor(() => existsSync(out) && records(out).length >= 2, 'two lines');
    first.child.kill('SIGKILL');
    await first.done;
    expect(existsSync(`${out}.lock`)).toBe(true); // SIGKILL leaves it behind
    judgeDelayMs = 0;
    const second = await runCliInProcess(scoreArgs(path, out));
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`took over the lock of ${out} from pid ${first.child.pid}`);
    expect(audit(out, ids)).toEqual({ lines: 6, lost: [], duplicated: [] });
  });
});

describe('Ctrl-C', () => {
  it('score in a terminal: stops within seconds, restores the cursor and line wrap, says how to resume', async () => {
    const { path, ids } = rollouts(12);
    const out = join(dir, 'scores.jsonl');
    judgeDelayMs = 300;
    // `script` gives the child a real pseudo-terminal, so the progress bar is drawn.
    const cmd = [process.execPath, BIN, ...scoreArgs(path, out, ['--concurrency', '1'])]
      .map((a) => `'${a}'`)
      .join(' ');
    const run = spawn('script', ['-qefc', cmd, '/dev/null'], {
      cwd: dir,
      env: { ...process.env, RUBRICA_JUDGE_BASE_URL: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let tty = '';
    run.stdout!.on('data', (d: Buffer) => {
      tty += d.toString('latin1');
    });
    const exited = new Promise<number | null>((res) => run.on('exit', (c) => res(c)));
    await waitFor(() => existsSync(out) && records(out).length >= 3, 'three lines');
    expect(tty).toContain('\x1b[?25l'); // the bar hid the cursor
    const t0 = Date.now();
    // A real Ctrl-C: the terminal's interrupt character signals the whole foreground
    // process group (rubrica and its render workers).
    run.stdin!.write('\x03');
    const code = await exited;
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(code).toBe(130);
    const after = tty.slice(tty.lastIndexOf('\x1b[?25l'));
    expect(after).toContain('\x1b[?25h'); // cursor shown again
    expect(after).toContain('\x1b[?7h'); // line wrap back on
    expect(tty).toMatch(
      /interrupted: \d+ rollouts written this run .*run the same command again to resume/,
    );
    expect(existsSync(`${out}.lock`)).toBe(false);
    const partial = audit(out, ids);
    expect(partial.duplicated).toEqual([]);
    expect(partial.lines).toBeLessThan(12);
    // Nothing the interrupt touched is blamed on a drawing.
    expect(records(out).map((r) => r.status)).toEqual(Array(partial.lines).fill('ok'));

    judgeDelayMs = 0;
    const resumed = await runCliInProcess(scoreArgs(path, out));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(audit(out, ids)).toEqual({ lines: 12, lost: [], duplicated: [] });
    expect(records(out).map((r) => r.id)).toEqual(ids);
  });

  it('eval interrupted while re-judging leaves one line per id, and a re-run finishes', async () => {
    const { path, ids } = rollouts(10);
    const prompts = join(dir, 'prompts.jsonl');
    writeFileSync(prompts, '{"id":"p","prompt":"an emoji"}\n');
    const outDir = join(dir, 'run');
    const args = [
      'eval',
      '--prompts',
      prompts,
      '--rollouts',
      path,
      '--judge',
      'openai-compatible:judge',
      '--judge-base-url',
      double.url,
      '--out',
      outDir,
      '--concurrency',
      '1',
      '--cache',
      join(dir, 'cache.sqlite'),
    ];
    const results = join(outDir, 'results.jsonl');
    // Judge down: nothing listens on the URL (eval's probe finds out at once).
    const down = await runCliInProcess(
      args.map((a) => (a === double.url ? 'http://127.0.0.1:9/v1' : a)),
    );
    expect(down.code).toBe(1);
    expect(audit(results, ids)).toEqual({ lines: 10, lost: [], duplicated: [] });

    // Judge back but slow; interrupt after some rollouts were re-judged (appended lines).
    judgeDelayMs = 300;
    const run = spawnCli(args);
    await waitFor(() => double.requests.length >= 3, `three judge calls; ${run.stderr()}`, 30_000);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('run the same command again to resume');
    expect(audit(results, ids)).toEqual({ lines: 10, lost: [], duplicated: [] });

    judgeDelayMs = 0;
    const fin = await runCliInProcess(args);
    expect(fin.code, fin.stderr).toBe(0);
    expect(audit(results, ids)).toEqual({ lines: 10, lost: [], duplicated: [] });
  });
});

describe('bad input and common mistakes: one clear line each', () => {
  it('a line that is not valid UTF-8 is reported with its number; the rest is scored (exit 1)', async () => {
    const input = join(dir, 'in.jsonl');
    const line = (id: string) =>
      JSON.stringify({ id, prompt: 'an emoji', completion: `\`\`\`svg\n${ICONS[0]}\n\`\`\`` });
    writeFileSync(
      input,
      Buffer.concat([
        Buffer.from(`${line('a')}\n{"id":"b\xff","prompt":"x","completion":"y"}\n`, 'latin1'),
        Buffer.from(`${line('c')}\n`),
      ]),
    );
    const out = join(dir, 'out.jsonl');
    const r = await runCliInProcess(scoreArgs(input, out));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${input}:2: not valid UTF-8`);
    expect(r.stderr).toContain('rubrica: exit 1: 1 lines of');
    expect(records(out).map((x) => x.id)).toEqual(['a', 'c']);
  });

  it('a JSON array given as JSONL: one line saying what is expected, no model calls', async () => {
    const input = join(dir, 'rollouts.json');
    writeFileSync(
      input,
      JSON.stringify(
        Array.from({ length: 200 }, (_, i) => ({ id: `r${i}`, prompt: 'x', completion: 'y' })),
        null,
        2,
      ),
    );
    const r = await runCliInProcess(scoreArgs(input, join(dir, 'out.jsonl')));
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/is not JSON Lines: it looks like a JSON array .*jq -c '\.\[\]'/);
    expect(double.requests).toHaveLength(0);
  });

  it('universal rubrics with --reward ruler are refused up front (exit 2)', async () => {
    const { path } = rollouts(2);
    const rubrics = join(dir, 'rubrics.jsonl');
    writeFileSync(
      rubrics,
      `${JSON.stringify({ ...rulerRubric('p', 'an emoji'), preset: 'universal' })}\n`,
    );
    const args = scoreArgs(path, join(dir, 'out.jsonl')).map((a) =>
      a === 'universal' ? 'ruler' : a,
    );
    const r = await runCliInProcess([...args, '--rubrics', rubrics]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `--rubrics ${rubrics} holds only 1 kept universal rubrics, but --reward ruler needs kept ruler rubrics`,
    );
    expect(double.requests).toHaveLength(0);
  });

  it('rubrics for other prompts: nothing could be scored, exit 1 saying so', async () => {
    const { path } = rollouts(3);
    const rubrics = join(dir, 'rubrics.jsonl');
    writeFileSync(rubrics, `${JSON.stringify(rulerRubric('other', 'a different prompt'))}\n`);
    const args = scoreArgs(path, join(dir, 'out.jsonl')).map((a) =>
      a === 'universal' ? 'ruler' : a,
    );
    const r = await runCliInProcess([...args, '--rubrics', rubrics]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'rubrica: exit 1: nothing could be scored: 3 of 3 rollouts have no rubric',
    );
  });

  it('--out: a missing folder is created; a folder where a file is expected, and a file where a folder is expected, are one line (exit 2)', async () => {
    const { path } = rollouts(1);
    const nested = join(dir, 'new', 'deeper', 'out.jsonl');
    const ok = await runCliInProcess(scoreArgs(path, nested));
    expect(ok.code, ok.stderr).toBe(0);
    expect(records(nested)).toHaveLength(1);

    mkdirSync(join(dir, 'adir'));
    const isDir = await runCliInProcess(scoreArgs(path, join(dir, 'adir')));
    expect(isDir.code).toBe(2);
    expect(isDir.stderr).toBe(
      `rubrica: --out ${join(dir, 'adir')} is a directory; give a file path such as ${join(dir, 'adir')}/out.jsonl\n`,
    );

    const file = join(dir, 'afile');
    writeFileSync(file, 'x');
    const prompts = join(dir, 'prompts.jsonl');
    writeFileSync(prompts, '{"id":"p","prompt":"an emoji"}\n');
    const ev = await runCliInProcess([
      'eval',
      '--prompts',
      prompts,
      '--rollouts',
      path,
      '--judge',
      'openai-compatible:judge',
      '--judge-base-url',
      double.url,
      '--out',
      file,
    ]);
    expect(ev.code).toBe(2);
    expect(ev.stderr).toContain(`rubrica: --out ${file} is a file; eval writes a folder`);
    expect(ev.stderr).not.toContain('    at ');
  });
});

describe('progress off a terminal', () => {
  it('prints count, rate, ETA and faults at a steady interval into a log', async () => {
    const { path } = rollouts(8);
    judgeDelayMs = 200;
    const run = spawnCli(scoreArgs(path, join(dir, 'out.jsonl'), ['--concurrency', '1']), {
      RUBRICA_PROGRESS_INTERVAL_MS: '300',
    });
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('score: '));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toMatch(
      /^score: \d+\/8 \(\d+\.\d%\) · [\d.]+\/s · ETA \S+ · no grader faults · cost /,
    );
    expect(lines.at(-1)).toMatch(/^score: 8\/8 \(100\.0%\) · .* · ETA 0s ·/);
    expect(r.stderr).not.toContain('\x1b[');
  });
});
