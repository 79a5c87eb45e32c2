// A sharded `score` job as a cluster runs it: 4 processes with --shard i/4 sharing one SQLite
// cache and the judge double, one killed with SIGKILL mid-run and run again to resume, then
// `rubrica merge`; the merge must equal, line for line, what one process writes for the same
// input with the same cache. Also: merge refuses missing, duplicated, unfinished shards and
// shards of another input (one line, exit 2); bad --shard values are usage errors.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOfId } from '../../src/store/shard.ts';
import { jointAnswer, rulerRubric, schemaKeys } from '../score/support/fixtures.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../support/model-double.ts';

const BIN = new URL('../../bin/rubrica.js', import.meta.url).pathname;
const ICONS = fluentEmoji(30).map((c) => c.svg);
const N_ROLLOUTS = 24;

let double: ModelDouble;
let dir: string;

function run(
  args: string[],
  env: Record<string, string> = {},
): {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
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
  return { child, done };
}

const lines = (p: string) => readFileSync(p, 'utf8').split('\n').filter(Boolean);
const ids = (p: string) =>
  existsSync(p) ? lines(p).map((l) => (JSON.parse(l) as { id: string }).id) : [];

/** What may differ between a judged line and the same line answered from the cache. */
const TIMING = ['cached', 'usage', 'render_ms'];
function modTiming(l: string): unknown {
  const o = JSON.parse(l) as Record<string, unknown>;
  for (const k of TIMING) delete o[k];
  return o;
}

beforeAll(async () => {
  double = await startModelDouble();
  dir = mkdtempSync(join(tmpdir(), 'rubrica-shard-'));
});
afterAll(() => double.close());

describe('sharded score + merge', () => {
  const input = () => join(dir, 'rollouts.jsonl');
  const out = (i: number) => join(dir, `scores.${i}.jsonl`);
  const base = () => [
    'score',
    '--rubrics',
    join(dir, 'rubrics.jsonl'),
    '--in',
    input(),
    '--judge',
    'openai-compatible:test-judge',
    '--judge-base-url',
    double.url,
    '--concurrency',
    '1',
    '--cache',
    join(dir, 'cache.sqlite'),
  ];

  it('4 shard processes (one SIGKILLed and resumed) merge into what one process writes', async () => {
    double.script((req) =>
      jsonAnswer(jointAnswer(schemaKeys(req), [0.9, 0.8, 0.7, 0.5, 0.6, 0.4]), { delayMs: 120 }),
    );
    writeFileSync(
      join(dir, 'rubrics.jsonl'),
      `${JSON.stringify(rulerRubric('fox', 'a red fox'))}\n`,
    );
    const want = Array.from({ length: N_ROLLOUTS }, (_, i) => `r${i}`);
    writeFileSync(
      input(),
      `${want
        .map((id, i) =>
          JSON.stringify({ id, prompt_id: 'fox', completion: `\`\`\`svg\n${ICONS[i]}\n\`\`\`` }),
        )
        .join('\n')}\n`,
    );
    // The hash spreads 24 ids over all 4 shards (else the test would not test sharding).
    const sizes = [0, 1, 2, 3].map((s) => want.filter((id) => shardOfId(id, 4) === s).length);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2);
    const victim = sizes.indexOf(Math.max(...sizes));

    const procs = [0, 1, 2, 3].map((i) => run([...base(), '--out', out(i), '--shard', `${i}/4`]));
    await new Promise<void>((resolve, reject) => {
      const t0 = Date.now();
      const poll = setInterval(() => {
        if (ids(out(victim)).length >= 1) {
          clearInterval(poll);
          procs[victim]!.child.kill('SIGKILL');
          resolve();
        } else if (Date.now() - t0 > 60_000) {
          clearInterval(poll);
          reject(new Error('the victim shard wrote nothing'));
        }
      }, 10);
    });
    const results = await Promise.all(procs.map((p) => p.done));
    results.forEach((r, i) => {
      if (i !== victim) expect(r.code, r.stderr).toBe(0);
    });
    const partial = ids(out(victim));
    expect(partial.length).toBeLessThan(sizes[victim]!);
    expect(JSON.parse(readFileSync(`${out(victim)}.shard.json`, 'utf8')).complete).toBe(false);

    // The merge refuses the unfinished shard; the re-run resumes it.
    const early = await run(['merge', '--out', join(dir, 'merged.jsonl'), ...[0, 1, 2, 3].map(out)])
      .done;
    expect(early.code).toBe(2);
    expect(early.stderr.trim().split('\n')).toHaveLength(1);
    expect(early.stderr).toContain('unfinished');
    const again = await run([...base(), '--out', out(victim), '--shard', `${victim}/4`]).done;
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`skipped ${partial.length} rollouts already in`);

    for (let i = 0; i < 4; i++)
      expect(ids(out(i))).toEqual(want.filter((id) => shardOfId(id, 4) === i));

    const merged = join(dir, 'merged.jsonl');
    const m = await run(['merge', '--out', merged, out(3), out(1), out(0), out(2)]).done;
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toContain(`${N_ROLLOUTS} lines`);

    // One process, same input, same cache: every answer now comes from the cache.
    const calls = double.requests.length;
    const single = join(dir, 'single.jsonl');
    const one = await run([...base(), '--out', single]).done;
    expect(one.code, one.stderr).toBe(0);
    expect(double.requests.length).toBe(calls);
    expect(ids(merged)).toEqual(want);
    expect(lines(merged).map(modTiming)).toEqual(lines(single).map(modTiming));

    // Merging the shards again after the single run: byte for byte the same file.
    const merged2 = join(dir, 'merged2.jsonl');
    expect((await run(['merge', '--out', merged2, ...[0, 1, 2, 3].map(out)]).done).code).toBe(0);
    expect(readFileSync(merged2)).toEqual(readFileSync(merged));
  }, 180_000);

  it('merge refuses missing, duplicated or foreign shards, in one line (exit 2)', async () => {
    const m = (...paths: string[]) => run(['merge', '--out', join(dir, 'x.jsonl'), ...paths]).done;
    const cases: [Promise<{ code: number | null; stderr: string }>, string][] = [
      [m(out(0), out(1), out(2)), 'missing shard 3/4'],
      [m(out(0), out(1), out(2), out(2)), 'given twice'],
      [m(out(0), out(1), out(2), join(dir, 'single.jsonl')), 'no shard sidecar'],
    ];
    // A shard of a grown input: the input changed since the other shards ran.
    copyFileSync(out(3), join(dir, 'other.3.jsonl'));
    const car = JSON.parse(readFileSync(`${out(3)}.shard.json`, 'utf8'));
    writeFileSync(
      join(dir, 'other.3.jsonl.shard.json'),
      JSON.stringify({ ...car, input_sha256: '0'.repeat(64) }),
    );
    cases.push([m(out(0), out(1), out(2), join(dir, 'other.3.jsonl')), 'different inputs']);
    for (const [p, msg] of cases) {
      const r = await p;
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(msg);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    appendFileSync(
      input(),
      `${JSON.stringify({ id: 'r999', prompt_id: 'fox', completion: 'x' })}\n`,
    );
    const grown = await m(out(0), out(1), out(2), out(3));
    expect(grown.code).toBe(2);
    expect(grown.stderr).toContain('has changed since the shards ran');
  }, 60_000);

  it('bad --shard values are one-line usage errors (exit 2)', async () => {
    for (const [flags, env] of [
      [['--shard', '4/4'], {}],
      [['--shard', '1/0'], {}],
      [['--shard', 'a/b'], {}],
      [['--shard', '-1/4'], {}],
      [['--shard', 'auto'], {}],
      [['--shard', 'auto'], { JOB_COMPLETION_INDEX: '2' }],
      [['--shards', '2'], { JOB_COMPLETION_INDEX: '2' }],
    ] as [string[], Record<string, string>][]) {
      const r = await run([...base(), '--out', join(dir, 'bad.jsonl'), ...flags], env).done;
      expect(r.code, `${flags.join(' ')} ${JSON.stringify(env)}`).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);
});
