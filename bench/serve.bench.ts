// npm run bench:serve — one GRPO step through `rubrica serve`: 128 prompts × 8 rollouts of
// real SVGs (Fluent Emoji), sent as 128 concurrent requests (one per group), judged by the
// loopback double at a fixed latency behind a fixed judge concurrency, so the ideal makespan
// is known: ceil(unique judge calls / concurrency) × latency. A second pass sends the same
// rollouts again and must be answered from the cache.
//
// Flags: --prompts 128 --per-prompt 8 --latency-ms 1000 --concurrency 24 --render-workers N
//        --mode joint|per-item --json
//        --judging absolute|pairwise --pairs circular|all: the cost of relative judging (issue
//        37): judge calls and tokens per rollout for each mode. Pairwise asks the absolute
//        judge once per rollout (gates, components, the fallback of a group of one) and then
//        each compared pair in both orders: circular 2N calls a group of N, all N(N−1).
//        --judging group --group-orders mirror|rotation: one absolute call a rollout, then
//        each chunk of up to 8 pictures in one call per order: mirror 2 calls a chunk,
//        rotation n calls a chunk of n (image tokens per call grow with the chunk).
//        --heap-mb 320 --malloc-arenas 2: the server runs as docs/serve.md recommends, with
//        NODE_OPTIONS=--max-old-space-size=320 and MALLOC_ARENA_MAX=2 (0 leaves either unset)
// The defaults keep the judge, not the CPU, the bound on a 2-core machine: inspection and
// rendering alone (the cached second pass) run at ~80–115 rollouts/s there, so a faster
// judge setting (e.g. 200 ms × 16) measures the CPU, not rubrica's scheduling.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { rulerRubric } from '../test/score/support/fixtures.ts';
import { fluentEmoji } from '../test/support/corpus.ts';
import { type DoubleRequest, startModelDouble } from '../test/support/model-double.ts';
import { checkoutRef, compareRounds, runJsonChild } from './compare-ref.ts';
import { treeCpuSeconds } from './proc-cpu.ts';

const { values: flags } = parseArgs({
  options: {
    prompts: { type: 'string', default: '128' },
    'per-prompt': { type: 'string', default: '8' },
    'latency-ms': { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '24' },
    'heap-mb': { type: 'string', default: '320' },
    'malloc-arenas': { type: 'string', default: '2' },
    'render-workers': { type: 'string' },
    pipeline: { type: 'string' },
    mode: { type: 'string', default: 'joint' },
    judging: { type: 'string', default: 'absolute' },
    pairs: { type: 'string', default: 'circular' },
    'group-orders': { type: 'string', default: 'mirror' },
    json: { type: 'boolean', default: false },
    // --against REF [--rounds R]: this harness against REF's server (a temporary worktree),
    // alternating, candidate/REF of the server tree's CPU per rollout and of the makespan.
    against: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    // The tree whose bin/rubrica.js serves (default: this checkout); --from-source runs its
    // TypeScript through tsx (RUBRICA_FROM_SOURCE=1), as --against does for both sides so
    // neither runs a stale or missing dist/.
    src: { type: 'string' },
    'from-source': { type: 'boolean', default: false },
  },
});
const SRC = resolve(flags.src ?? fileURLToPath(new URL('..', import.meta.url)));
const P = Number(flags.prompts);
const G = Number(flags['per-prompt']);
const LATENCY = Number(flags['latency-ms']);
const C = Number(flags.concurrency);
const N = P * G;

/** RSS of a process and all its descendants (render workers), from /proc; MB. */
function treeRssMb(rootPid: number): { self: number; tree: number } {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'utf8');
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const pid = Number(name);
      rss.set(pid, kb / 1024);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // the process ended while we looked
    }
  }
  let tree = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    tree += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return { self: rss.get(rootPid) ?? 0, tree };
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

async function waitReady(child: ChildProcess): Promise<string> {
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (b: Buffer) => {
      log += b.toString();
      const m = /"msg":"ready"/.test(log) ? /"url":"(http:[^"]+)"/.exec(log) : null;
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}\n${log}`)));
  });
}

async function main() {
  // Other work on the machine shares the CPU with the server; say how busy it was.
  const loadBefore = loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-bench-serve-'));
  const icons = fluentEmoji(N);
  const prompts = Array.from({ length: P }, (_, p) => ({
    id: `p${p}`,
    prompt: `bench prompt ${p}`,
  }));
  const rubrics = join(dir, 'rubrics.jsonl');
  writeFileSync(
    rubrics,
    `${prompts.map((p) => JSON.stringify(rulerRubric(p.id, p.prompt))).join('\n')}\n`,
  );

  // Every item gets 0.7: the double's work is only the fixed latency.
  const double = await startModelDouble({
    handler: (req: DoubleRequest) => {
      if (JSON.stringify(req.schema ?? {}).includes('"winner"')) {
        // A comparison: a fixed winner chosen by the two pictures, so the answer is stable.
        const winner = req.images[0]! < req.images[1]! ? 'first' : 'second';
        return { content: JSON.stringify({ reasoning: 'ok', winner }), delayMs: LATENCY };
      }
      const keys = Object.keys((req.schema?.properties ?? {}) as Record<string, unknown>);
      const answer = Object.fromEntries(keys.map((k) => [k, { reasoning: 'ok', score: 0.7 }]));
      return { content: JSON.stringify(answer), delayMs: LATENCY };
    },
  });
  const args = [
    join(SRC, 'bin/rubrica.js'),
    'serve',
    '--port',
    '0',
    '--rubrics',
    rubrics,
    '--judge',
    'openai-compatible:bench-judge',
  ];
  args.push(
    '--judge-base-url',
    double.url,
    '--concurrency',
    String(C),
    '--mode',
    String(flags.mode),
    '--judging',
    String(flags.judging),
    '--pairs',
    String(flags.pairs),
  );
  if (flags.judging === 'group') args.push('--group-orders', String(flags['group-orders']));
  args.push('--cache', join(dir, 'cache.sqlite'), '--max-in-flight', String(Math.max(N, 8192)));
  if (flags['render-workers']) args.push('--render-workers', String(flags['render-workers']));
  if (flags.pipeline) args.push('--pipeline', String(flags.pipeline));
  const heapMb = Number(flags['heap-mb']);
  const arenas = Number(flags['malloc-arenas']);
  const heap = heapMb > 0 ? `--max-old-space-size=${heapMb}` : '';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${heap}`.trim(),
  };
  if (arenas > 0) env.MALLOC_ARENA_MAX = String(arenas);
  if (flags['from-source']) env.RUBRICA_FROM_SOURCE = '1';
  const child = spawn('node', args, { stdio: ['ignore', 'ignore', 'pipe'], env, cwd: SRC });
  const url = await waitReady(child);

  let peak = { self: 0, tree: 0 };
  const sampler = setInterval(() => {
    const now = treeRssMb(child.pid!);
    peak = { self: Math.max(peak.self, now.self), tree: Math.max(peak.tree, now.tree) };
  }, 50);

  const requests = prompts.map((p, k) => ({
    items: Array.from({ length: G }, (_, j) => ({
      id: `${p.id}#${j}`,
      prompt_id: p.id,
      completion: `\`\`\`svg\n${icons[k * G + j]!.svg}\n\`\`\``,
    })),
  }));

  const pass = async () => {
    const latencies: number[] = [];
    let cached = 0;
    let ok = 0;
    const tokens = { input: 0, output: 0 };
    const t0 = performance.now();
    await Promise.all(
      requests.map(async (body) => {
        const s = performance.now();
        const res = await fetch(`${url}/v1/rewards`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
        const { results } = (await res.json()) as {
          results: {
            status: string;
            cached: boolean;
            usage: { inputTokens: number; outputTokens: number };
          }[];
        };
        latencies.push(performance.now() - s);
        for (const r of results) {
          tokens.input += r.usage.inputTokens;
          tokens.output += r.usage.outputTokens;
          if (r.cached) cached++;
          if (r.status === 'ok') ok++;
        }
      }),
    );
    const makespan = performance.now() - t0;
    latencies.sort((a, b) => a - b);
    return {
      makespan,
      ok,
      cached,
      tokens,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  };

  // How busy the judge was during the first pass: the ideal needs every slot busy all along.
  const busy: number[] = [];
  const busySampler = setInterval(() => busy.push(double.inFlight), 50);
  const cpu0 = treeCpuSeconds(child.pid!);
  const first = await pass();
  // The server's tree (server, render workers) during the first pass: its per-core cost.
  const firstCpuS = treeCpuSeconds(child.pid!) - cpu0;
  clearInterval(busySampler);
  const judgeBusy = busy.reduce((a, b) => a + b, 0) / Math.max(1, busy.length) / C;
  const calls1 = double.requests.length;
  const second = await pass();
  const calls2 = double.requests.length - calls1;
  clearInterval(sampler);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await double.close();
  rmSync(dir, { recursive: true, force: true });

  const ideal = Math.ceil(calls1 / C) * LATENCY;
  // What the mode costs by construction: 1 absolute call a rollout, plus the comparisons.
  const pairCalls =
    flags.judging !== 'pairwise' || G < 2
      ? 0
      : flags.pairs === 'all' || G === 2
        ? G * (G - 1)
        : 2 * G;
  // Group: chunks of at most 8 (src/judge/group.ts), sizes within one; per chunk 2 orders
  // (mirror) or one per picture (rotation), so rotation asks G calls a group in all.
  const chunks = Math.ceil(G / 8);
  const groupCalls =
    flags.judging !== 'group' || G < 2 ? 0 : flags['group-orders'] === 'rotation' ? G : 2 * chunks;
  const expectedPerRollout = 1 + (pairCalls + groupCalls) / G;
  const report = {
    judging: flags.judging,
    pairs: flags.judging === 'pairwise' ? flags.pairs : null,
    group_orders: flags.judging === 'group' ? flags['group-orders'] : null,
    expected_judge_calls_per_rollout: expectedPerRollout,
    input_tokens_per_rollout: first.tokens.input / N,
    output_tokens_per_rollout: first.tokens.output / N,
    rollouts: N,
    prompts: P,
    per_prompt: G,
    judge_latency_ms: LATENCY,
    judge_concurrency: C,
    mode: flags.mode,
    heap_cap_mb: heapMb > 0 ? heapMb : null,
    malloc_arena_max: env.MALLOC_ARENA_MAX ?? null,
    load_average_1m_before: loadBefore,
    ok_first_pass: first.ok,
    unique_judge_calls: calls1,
    judge_calls_per_rollout: calls1 / N,
    judge_slots_busy: judgeBusy,
    ideal_makespan_ms: ideal,
    makespan_ms: Math.round(first.makespan),
    server_tree_cpu_s_first_pass: firstCpuS,
    ratio_to_ideal: first.makespan / ideal,
    rollouts_per_s: N / (first.makespan / 1000),
    p50_request_ms: Math.round(first.p50),
    p99_request_ms: Math.round(first.p99),
    second_pass_judge_calls: calls2,
    second_pass_cache_hits: second.cached,
    second_pass_makespan_ms: Math.round(second.makespan),
    second_pass_p50_ms: Math.round(second.p50),
    second_pass_p99_ms: Math.round(second.p99),
    peak_rss_server_mb: Math.round(peak.self),
    peak_rss_with_render_workers_mb: Math.round(peak.tree),
  };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const goal = (pass: boolean) => (pass ? 'ok' : 'MISSED');
  const lines = [
    `rubrica serve: ${N} rollouts (${P} prompts × ${G}), judge double ${LATENCY} ms, concurrency ${C}, ${flags.mode}, judging ${flags.judging}${heap ? `, ${heap}` : ''}${env.MALLOC_ARENA_MAX ? `, MALLOC_ARENA_MAX=${env.MALLOC_ARENA_MAX}` : ''} (load avg before ${loadBefore.toFixed(1)})`,
    `  makespan            ${report.makespan_ms} ms  (ideal ${ideal} ms, ratio ${report.ratio_to_ideal.toFixed(3)}; goal ≤ 1.05: ${goal(report.ratio_to_ideal <= 1.05)})`,
    `  throughput          ${report.rollouts_per_s.toFixed(1)} rollouts/s; ${first.ok}/${N} scored ok; judge slots busy ${(100 * judgeBusy).toFixed(1)}% of the makespan`,
    `  judge calls         ${calls1} (${report.judge_calls_per_rollout.toFixed(3)} per rollout; ${flags.judging}${report.pairs ? ` ${report.pairs}` : ''}${report.group_orders ? ` ${report.group_orders}` : ''} costs ${expectedPerRollout.toFixed(3)}: ${goal(report.judge_calls_per_rollout <= expectedPerRollout)})`,
    `  judge tokens        ${report.input_tokens_per_rollout.toFixed(0)} in, ${report.output_tokens_per_rollout.toFixed(1)} out per rollout`,
    `  per-request latency p50 ${report.p50_request_ms} ms, p99 ${report.p99_request_ms} ms`,
    `  second pass         ${calls2} judge calls (goal 0: ${goal(calls2 === 0)}), ${second.cached} cache hits, makespan ${report.second_pass_makespan_ms} ms`,
    `  peak RSS            server process ${report.peak_rss_server_mb} MB (goal ≤ 512: ${goal(report.peak_rss_server_mb <= 512)}); with its render worker processes ${report.peak_rss_with_render_workers_mb} MB`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `--against REF`: whole runs of this bench, candidate's server and REF's alternating. */
async function against(ref: string) {
  const sides = checkoutRef(ref);
  const self = fileURLToPath(import.meta.url);
  const passOn = process.argv.slice(2).filter((_, i, a) => {
    const k = a[i] === '--against' || a[i] === '--rounds' || a[i] === '--src';
    const v =
      i > 0 && (a[i - 1] === '--against' || a[i - 1] === '--rounds' || a[i - 1] === '--src');
    return !k && !v && a[i] !== '--json';
  });
  try {
    await compareRounds(
      [
        {
          label: `serve, ${N} rollouts, judge ${LATENCY} ms × ${C}`,
          run: async (side) => {
            const args = ['--import', 'tsx', self, ...passOn, '--json', '--from-source'];
            args.push('--src', side.dir);
            const r = await runJsonChild<{
              rollouts: number;
              ok_first_pass: number;
              makespan_ms: number;
              server_tree_cpu_s_first_pass: number;
            }>(args, side.dir, 30 * 60_000);
            if (r.ok_first_pass < r.rollouts)
              throw new Error(`${side.name}: ${r.ok_first_pass}/${r.rollouts} scored ok`);
            return {
              files: r.rollouts,
              cpuS: r.server_tree_cpu_s_first_pass,
              wallS: r.makespan_ms / 1000,
            };
          },
        },
      ],
      sides,
      Number(flags.rounds),
    );
  } finally {
    sides.cleanup();
  }
}

if (flags.against) await against(flags.against);
else await main();
