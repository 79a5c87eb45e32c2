// The sharded `score` job under a real Slurm (slurmctld + one slurmd on localhost, munge; see
// test/support/slurm.ts), submitted exactly as docs/sharding.md says: examples/slurm/score.sh
// as a 4-task array and examples/slurm/merge.sh after it with --dependency=afterok. One task
// is killed mid-run and re-run by Slurm (`scontrol requeue`, what preemption does to a
// --requeue job); it must resume its shard, the merge job must then run, and its output must
// equal, line for line, what one process writes for the same input with the same cache — the
// contract test/shard/shard.slow.test.ts checks with plain processes.
// A second case pins what the docs say about a task that fails on its own (SIGKILL: an OOM
// kill, a crash): submitted again as `--array=i` it is refused (it would be shard 0 of 1);
// requeued by hand it resumes, but Slurm never runs an afterok job after it, so the merge is
// run again by hand.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOfId } from '../../src/store/shard.ts';
import { jointAnswer, rulerRubric, schemaKeys } from '../score/support/fixtures.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { type SlurmCluster, startSlurm } from '../support/slurm.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const SCORE_SH = join(ROOT, 'examples/slurm/score.sh');
const MERGE_SH = join(ROOT, 'examples/slurm/merge.sh');
// 96 distinct pictures: about 24 per shard, three waves of the score's 8 concurrent judge
// calls, so a task killed after its first line still has work it never started.
const N_ROLLOUTS = 96;
const ICONS = fluentEmoji(N_ROLLOUTS).map((c) => c.svg);
/** Judge latency: a wave lasts longer than Slurm takes to deliver the kill. */
const JUDGE_MS = 1500;
const SHARDS = [0, 1, 2, 3];

let double: ModelDouble;
let slurm: SlurmCluster;
const jobDirs: string[] = [];

beforeAll(async () => {
  double = await startModelDouble();
  double.script((req) =>
    jsonAnswer(jointAnswer(schemaKeys(req), [0.9, 0.8, 0.7, 0.5, 0.6, 0.4]), { delayMs: JUDGE_MS }),
  );
  slurm = await startSlurm();
}, 60_000);
afterAll(async () => {
  await slurm?.stop();
  await double?.close();
  for (const d of jobDirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

const lines = (p: string) => readFileSync(p, 'utf8').split('\n').filter(Boolean);
const ids = (p: string) =>
  existsSync(p) ? lines(p).map((l) => (JSON.parse(l) as { id: string }).id) : [];
const TIMING = ['cached', 'usage', 'render_ms'];
function modTiming(l: string): unknown {
  const o = JSON.parse(l) as Record<string, unknown>;
  for (const k of TIMING) delete o[k];
  return o;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The built CLI as a process of its own (a merge or a single run outside Slurm). */
function runCli(
  args: string[],
  opts: { cwd: string; env?: Record<string, string> },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/rubrica.js'), ...args], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A job directory as a user has it: rubrics, rollouts, `rubrica` on the PATH. */
function jobDir(): { dir: string; env: Record<string, string>; want: string[] } {
  // The real path: it is compared with /proc/PID/cwd.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rubrica-slurm-job-')));
  jobDirs.push(dir);
  writeFileSync(join(dir, 'rubrics.jsonl'), `${JSON.stringify(rulerRubric('fox', 'a red fox'))}\n`);
  const want = Array.from({ length: N_ROLLOUTS }, (_, i) => `r${i}`);
  writeFileSync(
    join(dir, 'rollouts.jsonl'),
    `${want
      .map((id, i) =>
        JSON.stringify({ id, prompt_id: 'fox', completion: `\`\`\`svg\n${ICONS[i]}\n\`\`\`` }),
      )
      .join('\n')}\n`,
  );
  mkdirSync(join(dir, 'out'));
  // `rubrica` as an installed package provides it: this checkout's built CLI.
  mkdirSync(join(dir, 'bin'));
  writeFileSync(
    join(dir, 'bin', 'rubrica'),
    `#!/bin/sh\nexec '${process.execPath}' '${join(ROOT, 'bin/rubrica.js')}' "$@"\n`,
  );
  chmodSync(join(dir, 'bin', 'rubrica'), 0o755);
  // sbatch hands the submitting environment to the job (--export=ALL, its default).
  const env = {
    PATH: `${join(dir, 'bin')}:${process.env.PATH}`,
    JUDGE_URL: double.url,
    CACHE: join(dir, 'cache.sqlite'),
    RUBRICA_JUDGE_BASE_URL: '',
  };
  return { dir, env, want };
}

/** The documented submission: the array, then the merge job that waits for it. */
function submit(dir: string, env: Record<string, string>): { array: string; merge: string } {
  // The node has this machine's CPUs (2 here): the script's 8 per task would never start.
  const array = slurm
    .run('sbatch', ['--parsable', '--cpus-per-task=1', SCORE_SH], { cwd: dir, env })
    .trim()
    .split(';')[0]!;
  const merge = slurm
    .run('sbatch', ['--parsable', `--dependency=afterok:${array}`, MERGE_SH], { cwd: dir, env })
    .trim()
    .split(';')[0]!;
  return { array, merge };
}

async function waitFor(what: string, ok: () => boolean, ms: number): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`${what} within ${ms} ms\n${slurm.logs()}`);
    await sleep(100);
  }
}

const state = (id: string) => slurm.job(id).JobState;
const taskLog = (dir: string, array: string, i: number) =>
  readFileSync(join(dir, `slurm-${array}_${i}.out`), 'utf8');

/** The victim: the biggest shard, so that a kill after its first line leaves work undone. */
function victimOf(want: string[]): { victim: number; sizes: number[] } {
  const sizes = SHARDS.map((s) => want.filter((id) => shardOfId(id, 4) === s).length);
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2);
  return { victim: sizes.indexOf(Math.max(...sizes)), sizes };
}

/** Every task wrote its own shard, whole and marked complete. */
function expectShards(dir: string, want: string[]): void {
  for (const i of SHARDS) {
    const out = join(dir, 'out', `scores.${i}.jsonl`);
    expect(ids(out)).toEqual(want.filter((id) => shardOfId(id, 4) === i));
    const car = JSON.parse(readFileSync(`${out}.shard.json`, 'utf8'));
    expect([car.shard, car.shards, car.complete]).toEqual([i, 4, true]);
  }
}

/** One process over the whole input with the same cache: the merge must be what it writes. */
async function expectSingleRunEqual(dir: string, env: Record<string, string>, want: string[]) {
  const merged = join(dir, 'out', 'scores.jsonl');
  expect(ids(merged)).toEqual(want);
  const calls = double.requests.length;
  const single = join(dir, 'single.jsonl');
  const one = await runCli(
    [
      'score',
      '--rubrics',
      join(dir, 'rubrics.jsonl'),
      '--in',
      join(dir, 'rollouts.jsonl'),
      '--out',
      single,
      '--judge',
      'vllm:Qwen/Qwen3-VL-8B-Instruct',
      '--judge-base-url',
      env.JUDGE_URL!,
      '--cache',
      env.CACHE!,
    ],
    { cwd: dir, env: { RUBRICA_JUDGE_BASE_URL: '' } },
  );
  expect(one.code, one.stderr).toBe(0);
  expect(double.requests.length).toBe(calls); // every answer came from the shared cache
  expect(lines(merged).map(modTiming)).toEqual(lines(single).map(modTiming));
}

/** The pid of the rubrica process running in `dir` whose --out is `out`, if one runs. */
function rubricaWriting(dir: string, out: string): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let args: string[];
    try {
      if (readlinkSync(`/proc/${name}/cwd`) !== dir) continue;
      args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (args.some((a) => a.endsWith('bin/rubrica.js')) && args[args.indexOf('--out') + 1] === out)
      return Number(name);
  }
  return undefined;
}

/** Waits until task `i` wrote its first line (it is running mid-shard). */
async function firstLine(dir: string, i: number): Promise<void> {
  await waitFor(
    `task ${i} wrote nothing`,
    () => ids(join(dir, 'out', `scores.${i}.jsonl`)).length >= 1,
    120_000,
  );
}

describe('a sharded score job under a real Slurm', () => {
  it('docs/sharding.md shows, verbatim, the scripts this test submits', () => {
    const doc = readFileSync(join(ROOT, 'docs/sharding.md'), 'utf8');
    for (const f of [SCORE_SH, MERGE_SH])
      expect(doc).toContain(`\`\`\`sh\n${readFileSync(f, 'utf8')}\`\`\``);
    expect(doc).toContain('ARRAY=$(sbatch --parsable score.sh)');
    expect(doc).toContain('sbatch --dependency=afterok:"$ARRAY" merge.sh');
    const recipe = readFileSync(join(ROOT, 'docs/scale.md'), 'utf8');
    expect(recipe).toContain('ARRAY=$(sbatch --parsable score.sh)');
    expect(recipe).toContain('sbatch --dependency=afterok:"$ARRAY" merge.sh');
  });

  it('a 4-task array with one task killed and requeued merges into what one process writes', async () => {
    double.reset();
    const { dir, env, want } = jobDir();
    const { victim, sizes } = victimOf(want);
    const { array, merge } = submit(dir, env);
    const task = `${array}_${victim}`;

    await firstLine(dir, victim);
    slurm.run('scontrol', ['requeue', task]);
    // Killed (SIGTERM, then SIGKILL after KillWait) and back in the queue; a requeued job
    // waits cred_expire before it may start again, time enough to look at what it left.
    await waitFor(`${task} was not requeued`, () => state(task) === 'PENDING', 30_000);
    expect(slurm.job(task).Restarts).toBe('1');
    // PENDING comes before the killed process is gone: until SIGTERM reaches it, it writes on.
    await waitFor(
      'the killed rubrica process did not exit',
      () => rubricaWriting(dir, `out/scores.${victim}.jsonl`) === undefined,
      30_000,
    );
    expect(state(task)).toBe('PENDING'); // cred_expire is not over yet
    const out = join(dir, 'out', `scores.${victim}.jsonl`);
    const partial = ids(out);
    expect(partial.length).toBeGreaterThanOrEqual(1);
    expect(partial.length).toBeLessThan(sizes[victim]!);
    expect(JSON.parse(readFileSync(`${out}.shard.json`, 'utf8')).complete).toBe(false);

    // The merge job runs by itself once the requeued task has finished its shard.
    await waitFor(
      `merge job ${merge} did not finish (${JSON.stringify(slurm.job(merge))})`,
      () => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(state(merge) ?? ''),
      240_000,
    );
    expect(state(merge), readFileSync(join(dir, `slurm-${merge}.out`), 'utf8')).toBe('COMPLETED');
    for (const i of SHARDS) expect(state(`${array}_${i}`)).toBe('COMPLETED');
    // The requeued run (its log is rewritten) resumed: it skipped what the killed one wrote.
    expect(taskLog(dir, array, victim)).toContain(`skipped ${partial.length} rollouts already in`);
    expect(readFileSync(join(dir, `slurm-${merge}.out`), 'utf8')).toContain(`${N_ROLLOUTS} lines`);
    // Each picture judged once: at SIGTERM the task stopped taking rollouts but finished and
    // wrote the calls it had in flight (well within KillWait), so the resumed task asked
    // none of them again.
    expect(double.requests.length).toBe(N_ROLLOUTS);

    expectShards(dir, want);
    await expectSingleRunEqual(dir, env, want);
  }, 360_000);

  it('a task that fails (SIGKILL) is requeued by hand and resumes; afterok never fires, merge by hand', async () => {
    const { dir, env, want } = jobDir();
    const { victim, sizes } = victimOf(want);
    const { array, merge } = submit(dir, env);
    const task = `${array}_${victim}`;

    await firstLine(dir, victim);
    // The task's rubrica process: the node process whose arguments name the victim's output.
    const out = join(dir, 'out', `scores.${victim}.jsonl`);
    const pid = rubricaWriting(dir, `out/scores.${victim}.jsonl`);
    expect(pid, 'the victim task has no rubrica process').toBeDefined();
    process.kill(pid!, 'SIGKILL');
    await waitFor(`${task} did not fail`, () => state(task) === 'FAILED', 30_000);
    const partial = ids(out);
    expect(partial.length).toBeLessThan(sizes[victim]!);
    expect(JSON.parse(readFileSync(`${out}.shard.json`, 'utf8')).complete).toBe(false);

    // Submitting the task again as an array of its own is the mistake the docs warn of: it
    // is shard 0 of 1 there, and rubrica refuses the output shard `victim`/4 wrote.
    const again = slurm
      .run('sbatch', ['--parsable', '--cpus-per-task=1', `--array=${victim}`, SCORE_SH], {
        cwd: dir,
        env,
      })
      .trim()
      .split(';')[0]!;
    await waitFor(
      `the lone task ${again} did not fail`,
      () => state(`${again}_${victim}`) === 'FAILED',
      120_000,
    );
    expect(taskLog(dir, again, victim)).toContain(
      `holds shard ${victim}/4 of \`score\`, not 0/1 of \`score\``,
    );
    expect(ids(out)).toEqual(partial);

    slurm.run('scontrol', ['requeue', task]);
    await waitFor(
      `${task} did not finish after the requeue`,
      () => state(task) === 'COMPLETED',
      240_000,
    );
    expect(taskLog(dir, array, victim)).toContain(`skipped ${partial.length} rollouts already in`);
    for (const i of SHARDS)
      await waitFor(
        `task ${i} did not finish`,
        () => state(`${array}_${i}`) === 'COMPLETED',
        120_000,
      );
    // Slurm remembers the failure: the afterok merge job can never run, though every task has
    // now succeeded.
    await waitFor(
      `merge job ${merge} is not DependencyNeverSatisfied`,
      () => slurm.job(merge).Reason === 'DependencyNeverSatisfied',
      30_000,
    );
    expect(state(merge)).toBe('PENDING');
    slurm.run('scancel', [merge]);

    const m = await runCli(
      ['merge', '--out', 'out/scores.jsonl', ...SHARDS.map((i) => `out/scores.${i}.jsonl`)],
      {
        cwd: dir,
      },
    );
    expect(m.code, m.stderr).toBe(0);
    expectShards(dir, want);
    await expectSingleRunEqual(dir, env, want);
  }, 360_000);
});
