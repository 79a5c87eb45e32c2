// Which threads' CPU grows from one render worker to two (issue 36 item 2): renders the
// bench corpus through a pool of W workers with 4 requests in flight per worker (as
// bench:render) and prints, per file, each thread group's time on a CPU, time waiting for
// one (run-queue delay), migrations between CPUs and voluntary/involuntary switches, from
// /proc/PID/task/TID/{sched,schedstat}, for the workers (summed) and the parent. W = 1 and
// W = 2 alternate in one process, each in a fresh pool, so both see the same machine.
// Not a test.
//   node --import tsx bench/worker-threads.ts [files] [rounds] [workers list, e.g. 1,2]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import pLimit from 'p-limit';
import { createRenderPool } from '../src/render/index.ts';
import { fluentEmoji } from '../test/support/corpus.ts';

const N = Number(process.argv[2] ?? '300');
const ROUNDS = Number(process.argv[3] ?? '2');
const WORKERS = (process.argv[4] ?? '1,2').split(',').map(Number);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? '4');
// PER_WORKER=1: N files per worker (W × N in all), so every worker sees as many files, and
// pays its JIT warm-up over as many, whatever W.
const PER_WORKER = process.env.PER_WORKER === '1';
// Untimed warm-up files per worker (bench:render: 8): more shows the steady state, once
// each worker's JIT has settled.
const WARM = Number(process.env.WARM ?? '24');
// AFFINITY=1: pin worker k (all its threads) to CPU k mod CPUs with taskset after boot, so
// a render's hops between its threads stay on one core.
const AFFINITY = process.env.AFFINITY === '1';

interface ThreadCounters {
  comm: string;
  runMs: number;
  waitMs: number;
  migrations: number;
  voluntary: number;
  involuntary: number;
}

const field = (sched: string, name: string) => {
  const m = new RegExp(`^${name.replace(/\./g, '\\.')}\\s*:\\s*([\\d.]+)`, 'm').exec(sched);
  return m ? Number(m[1]) : 0;
};

/** Counters of every live thread of `pid`, keyed by thread id. */
function threads(pid: number): Map<string, ThreadCounters> {
  const out = new Map<string, ThreadCounters>();
  // Node's own threads are all called "node": tell them apart by creation order (tid), main
  // first, then V8's platform threads, then libuv's pool (made at its first use).
  const tids = readdirSync(`/proc/${pid}/task`).sort((a, b) => Number(a) - Number(b));
  let rank = 0;
  for (const tid of tids) {
    try {
      const dir = `/proc/${pid}/task/${tid}`;
      const [run, wait] = readFileSync(`${dir}/schedstat`, 'utf8').split(' ').map(Number);
      const sched = readFileSync(`${dir}/sched`, 'utf8');
      const comm = readFileSync(`${dir}/comm`, 'utf8').trim();
      out.set(tid, {
        comm: Number(tid) === pid ? 'main' : comm === 'node' ? `node#${++rank}` : comm,
        runMs: run! / 1e6,
        waitMs: wait! / 1e6,
        migrations: field(sched, 'se.nr_migrations'),
        voluntary: field(sched, 'nr_voluntary_switches'),
        involuntary: field(sched, 'nr_involuntary_switches'),
      });
    } catch {
      // exited while we looked
    }
  }
  return out;
}

type Groups = Map<string, Omit<ThreadCounters, 'comm'>>;

/** after − before, summed by thread group, over the given processes. */
function delta(before: Map<string, ThreadCounters>[], after: Map<string, ThreadCounters>[]) {
  const groups: Groups = new Map();
  after.forEach((proc, i) => {
    for (const [tid, a] of proc) {
      const b = before[i]!.get(tid);
      const g = groups.get(a.comm) ?? {
        runMs: 0,
        waitMs: 0,
        migrations: 0,
        voluntary: 0,
        involuntary: 0,
      };
      g.runMs += a.runMs - (b?.runMs ?? 0);
      g.waitMs += a.waitMs - (b?.waitMs ?? 0);
      g.migrations += a.migrations - (b?.migrations ?? 0);
      g.voluntary += a.voluntary - (b?.voluntary ?? 0);
      g.involuntary += a.involuntary - (b?.involuntary ?? 0);
      groups.set(a.comm, g);
    }
  });
  return groups;
}

/**
 * Node names all its threads "node". By behaviour: libuv's pool thread is the one that
 * sleeps and wakes many times a render (it waits on libvips' progress ticks); the other
 * busy ones are V8's platform threads (compiles); idle ones are dropped.
 */
function roles(groups: Groups): Groups {
  const out: Groups = new Map();
  let libuv = '';
  for (const [name, g] of groups)
    if (name.startsWith('node#') && g.voluntary > (groups.get(libuv)?.voluntary ?? 0)) libuv = name;
  for (const [name, g] of groups) {
    const role = name === libuv ? 'libuv pool' : name.startsWith('node#') ? 'V8 platform' : name;
    const r = out.get(role) ?? { runMs: 0, waitMs: 0, migrations: 0, voluntary: 0, involuntary: 0 };
    for (const k of Object.keys(r) as (keyof typeof r)[]) r[k] += g[k];
    out.set(role, r);
  }
  return out;
}

function print(label: string, groups: Groups, files: number) {
  const f = (x: number, d = 2) => (x / files).toFixed(d).padStart(7);
  let run = 0;
  let wait = 0;
  const all = process.env.PER_THREAD ? groups : roles(groups);
  for (const [name, g] of [...all].sort((a, b) => b[1].runMs - a[1].runMs)) {
    run += g.runMs;
    wait += g.waitMs;
    if (g.runMs / files < 0.005) continue;
    console.log(
      `  ${label} ${name.padEnd(16)} cpu ${f(g.runMs)}  wait ${f(g.waitMs)}  migr ${f(g.migrations)}  vol ${f(g.voluntary)}  invol ${f(g.involuntary)}`,
    );
  }
  console.log(`  ${label} ${'all'.padEnd(16)} cpu ${f(run)}  wait ${f(wait)}`);
}

type RenderPool = ReturnType<typeof createRenderPool>;

/** A warm pool of w workers (WARM untimed files each), pinned if AFFINITY. */
async function warmPool(w: number, pin = AFFINITY) {
  const pool = createRenderPool({ workers: w, defaults: { renderer: 'auto', size: 512 } });
  const limit = pLimit(w * IN_FLIGHT);
  const warm = fluentEmoji(N + w * WARM).slice(N);
  await Promise.all(warm.map((i) => limit(() => pool.render(`${i.svg}<!-- warm -->`))));
  const pids = pool.stats().workers.map((x) => x.pid!);
  if (pin)
    for (const [k, pid] of pids.entries())
      execFileSync('taskset', ['-a', '-p', '-c', String(k % cpus().length), String(pid)]);
  return { pool, pids, limit };
}

/** Renders `svgs` through a warm pool; per-thread deltas of its workers and the parent. */
async function block(p: Awaited<ReturnType<typeof warmPool>>, svgs: string[]) {
  const w0 = p.pids.map(threads);
  const p0 = [threads(process.pid)];
  const t0 = performance.now();
  let failed = 0;
  await Promise.all(
    svgs.map((svg) =>
      p.limit(async () => {
        if (!(await (p.pool as RenderPool).render(svg)).ok) failed++;
      }),
    ),
  );
  const wallMs = performance.now() - t0;
  return {
    wd: delta(w0, p.pids.map(threads)),
    pd: delta(p0, [threads(process.pid)]),
    wallMs,
    failed,
  };
}

const add = (into: Groups, from: Groups) => {
  for (const [k, g] of from) {
    const r = into.get(k) ?? { runMs: 0, waitMs: 0, migrations: 0, voluntary: 0, involuntary: 0 };
    for (const f of Object.keys(r) as (keyof typeof r)[]) r[f] += g[f];
    into.set(k, r);
  }
};
const total = (g: Groups) => [...g.values()].reduce((s, x) => s + x.runMs, 0);

const base = fluentEmoji(N);
// BLOCKS=R: every pool stays warm and they take turns, R blocks of N files each, so the
// load's swings fall on all of them alike; prints the sums and the per-block CPU ratios.
const BLOCKS = Number(process.env.BLOCKS ?? '0');
if (BLOCKS > 0) {
  const pools = [];
  // VARIANT_AFFINITY=1: only the last pool is pinned (e.g. workers 2,2: pinned against not).
  // A worker flag is compared the same way, with the flag added to worker-entry.ts's
  // execArgv for the last pool only (an edit not kept).
  for (const [k, w] of WORKERS.entries())
    pools.push(
      await warmPool(
        w,
        AFFINITY || (k === WORKERS.length - 1 && process.env.VARIANT_AFFINITY === '1'),
      ),
    );
  const sums = WORKERS.map(() => ({ wd: new Map() as Groups, pd: new Map() as Groups }));
  const ratios: number[] = [];
  for (let r = 0; r < BLOCKS; r++) {
    const svgs = base.map((i) => `${i.svg}<!-- block ${r} -->`);
    const cpu: number[] = [];
    // Alternate which pool goes first, so neither always follows the other.
    const order = WORKERS.map((_, k) => k);
    if (r % 2) order.reverse();
    for (const k of order) {
      const b = await block(pools[k]!, svgs);
      add(sums[k]!.wd, b.wd);
      add(sums[k]!.pd, b.pd);
      cpu[k] = total(b.wd) + total(b.pd);
    }
    ratios.push(cpu[cpu.length - 1]! / cpu[0]!);
  }
  for (const p of pools) await p.pool.close();
  WORKERS.forEach((w, k) => {
    console.log(`${w} worker(s), ${BLOCKS} blocks of ${N} files, per file (ms or counts):`);
    print('worker', sums[k]!.wd, N * BLOCKS);
    print('parent', sums[k]!.pd, N * BLOCKS);
  });
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(
    `CPU per file, ${WORKERS.at(-1)} workers / ${WORKERS[0]}, by block: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)} [${sorted[0]!.toFixed(3)}, ${sorted.at(-1)!.toFixed(3)}]`,
  );
  process.exit(0);
}

for (let round = 0; round < ROUNDS; round++) {
  for (const w of WORKERS) {
    const n = PER_WORKER ? N * w : N;
    // The same N files W times over (marked apart), so the mean file is the same for every W.
    const svgs = Array.from({ length: n }, (_, k) =>
      k < N ? base[k]!.svg : `${base[k % N]!.svg}<!-- copy ${Math.floor(k / N)} -->`,
    );
    const p = await warmPool(w);
    const { wd, pd, wallMs, failed } = await block(p, svgs);
    await p.pool.close();
    console.log(
      `round ${round + 1}, ${w} worker(s), ${n} files (${failed} failed), ${(wallMs / n).toFixed(2)} wall ms/file, per file (ms or counts):`,
    );
    print('worker', wd, n);
    print('parent', pd, n);
  }
}
