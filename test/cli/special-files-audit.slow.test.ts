// Issue 35, item 1 (the rest of the audit): every other place a command reads a file that an
// input named — a flag (`--calibration`, `--panel-weights`, `--assets`, `--aesthetic-weights`,
// `--cache`, `--out`, `--rubrics`, `--rollouts`), a file inside a folder it was given (an eval
// run's parts.jsonl, summary.json and results.jsonl when it resumes; compare's and studio's
// results.jsonl) or an environment variable (RUBRICA_PRICES). One FIFO per entry point (the
// class that hangs: before, `score --calibration`, `--panel-weights`, `inspect --assets`,
// `--out`/`--cache` and `eval` resuming a folder with a FIFO in it never ended, not even on
// SIGTERM), and a directory and /dev/zero where a whole-file read would take them. Each is
// refused with one line naming the path, exit 2, no stack trace; a process still running at
// the deadline is reported as hung. The model double answers the judge's preflight so the
// commands that read their files after it get that far.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';

const dir = mkdtempSync(join(tmpdir(), 'special-audit-'));
const p = (...parts: string[]) => join(dir, ...parts);
let double: ModelDouble;

/** A fresh FIFO at `path` (its folder made), returned. */
function fifo(...parts: string[]): string {
  const path = p(...parts);
  mkdirSync(join(path, '..'), { recursive: true });
  execFileSync('mkfifo', [path]);
  return path;
}

beforeAll(async () => {
  double = await startModelDouble({ models: ['j1', 'j2'] });
  writeFileSync(
    p('r.jsonl'),
    `${JSON.stringify({ id: 'a', prompt: 'p', completion: '<svg/>' })}\n`,
  );
  writeFileSync(p('p.jsonl'), `${JSON.stringify({ id: 'p1', prompt: 'draw a cat' })}\n`);
  mkdirSync(p('a-dir'));
  mkdirSync(p('ok-run'));
  writeFileSync(p('ok-run', 'results.jsonl'), '');
});
afterAll(() => double?.close());

const J = ['--judge', 'openai-compatible:j1'];
const EVAL = (out: string) => [
  'eval',
  '--prompts',
  p('p.jsonl'),
  '--rollouts',
  p('r.jsonl'),
  ...J,
  '--out',
  out,
];
const SCORE = ['score', '--in', p('r.jsonl'), ...J, '--reward', 'universal'];

interface Row {
  entry: string;
  /** Makes the bad path and returns [args, the path the message must name, its kind]. */
  make: () => { args: string[]; bad: string; env?: Record<string, string> };
  why: RegExp;
  /** Exit code when not 2: the answer cache reports its own fault (exit 1, cache_error). */
  code?: number;
}
const FIFO_WHY = /FIFO/;
const ROWS: Row[] = [
  {
    entry: 'score --calibration FIFO',
    why: FIFO_WHY,
    make: () => {
      const b = fifo('cal.json');
      return { args: [...SCORE, '--out', p('o1.jsonl'), '--calibration', b], bad: b };
    },
  },
  {
    entry: 'score --calibration folder',
    why: /directory/,
    make: () => ({
      args: [...SCORE, '--out', p('o2.jsonl'), '--calibration', p('a-dir')],
      bad: p('a-dir'),
    }),
  },
  {
    entry: 'score --panel-weights FIFO',
    why: FIFO_WHY,
    make: () => {
      const b = fifo('w.json');
      return {
        args: [
          ...SCORE,
          '--judge',
          'openai-compatible:j2',
          '--out',
          p('o4.jsonl'),
          '--panel-weights',
          b,
        ],
        bad: b,
      };
    },
  },
  {
    entry: 'score --out FIFO',
    why: FIFO_WHY,
    make: () => {
      const b = fifo('out.jsonl');
      return { args: [...SCORE, '--out', b], bad: b };
    },
  },
  {
    entry: 'score --cache FIFO',
    why: /FIFO.*input_not_regular_file/,
    code: 1,
    make: () => {
      const b = fifo('cache.sqlite');
      return { args: [...SCORE, '--out', p('o5.jsonl'), '--cache', b], bad: b };
    },
  },
  {
    entry: 'RUBRICA_PRICES FIFO',
    why: FIFO_WHY,
    make: () => {
      const b = fifo('prices.json');
      return { args: [...SCORE, '--out', p('o6.jsonl')], bad: b, env: { RUBRICA_PRICES: b } };
    },
  },
  {
    entry: 'inspect --assets FIFO',
    why: FIFO_WHY,
    make: () => {
      const b = fifo('assets.json');
      return { args: ['inspect', '--assets', b, p('r.jsonl')], bad: b };
    },
  },
  {
    entry: 'eval --rubrics /dev/zero',
    why: /device/,
    make: () => ({ args: [...EVAL(p('e1')), '--rubrics', '/dev/zero'], bad: '/dev/zero' }),
  },
  {
    entry: 'eval resume: parts.jsonl FIFO',
    why: FIFO_WHY,
    make: () => {
      const b = fifo('e2', 'parts.jsonl');
      return { args: EVAL(p('e2')), bad: b };
    },
  },
  {
    entry: 'eval resume: results.jsonl FIFO',
    why: FIFO_WHY,
    make: () => {
      const b = fifo('e4', 'results.jsonl');
      return { args: EVAL(p('e4')), bad: b };
    },
  },
  {
    entry: 'probe --rollouts FIFO',
    why: FIFO_WHY,
    make: () => {
      const b = fifo('pr.jsonl');
      return {
        args: ['probe', '--prompts', p('p.jsonl'), '--rollouts', b, ...J, '--out', p('probe')],
        bad: b,
      };
    },
  },
  {
    entry: 'compare: results.jsonl FIFO',
    why: FIFO_WHY,
    make: () => {
      const b = fifo('c1', 'results.jsonl');
      return { args: ['compare', p('c1'), p('ok-run')], bad: b };
    },
  },
  {
    entry: 'studio --run: results.jsonl FIFO',
    why: FIFO_WHY,
    make: () => {
      const b = fifo('s1', 'results.jsonl');
      return { args: ['studio', '--run', p('s1'), '--port', '0'], bad: b };
    },
  },
];

/** Runs the CLI with a deadline: a process that hangs is killed and reported as such. */
function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null | 'hung'; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', ['bin/rubrica.js', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, RUBRICA_JUDGE_BASE_URL: double.url, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal === 'SIGKILL' ? 'hung' : code, stderr });
    });
  });
}

describe('the audit: every file an input names is checked before it is read', () => {
  it('each entry point refuses a FIFO (and a folder or device where it reads a whole file): exit 2, one line', async () => {
    const limit = pLimit(4);
    const got = await Promise.all(
      ROWS.map((r) =>
        limit(async () => {
          const { args, bad, env } = r.make();
          return { r, bad, out: await run(args, env) };
        }),
      ),
    );
    // Every row's verdict at once, so one run shows every entry point that still hangs.
    const wrong = got
      .filter(
        ({ r, bad, out }) =>
          out.code !== (r.code ?? 2) ||
          !out.stderr.includes(bad) ||
          !r.why.test(out.stderr) ||
          /\n\s+at /.test(out.stderr), // a stack trace
      )
      .map(({ r, out }) => `${r.entry}: exit ${out.code}: ${out.stderr.slice(0, 300)}`);
    expect(wrong).toEqual([]);
  }, 240_000);
});
