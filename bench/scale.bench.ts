// npm run bench:scale — 1, 2 and 4 `rubrica serve` replicas behind nginx (examples/scale/
// nginx.conf), sharing one Redis (answer cache and judge budget), judged by the loopback
// double at a fixed latency; the judge's capacity is the shared --concurrency, and the double
// records its peak concurrency. Per N it reports: the makespan of one step against the
// judge-bound ideal ceil(calls / capacity) × latency, and where the rest went (head, hand-off,
// tail: see breakdown()), for the replicas' first step after start (`cold_*`: code not yet
// compiled, connections not yet open) and for the next one, of other rollouts (the steady
// state a training run spends its hours in); the judge's peak (≤ capacity); the judge calls of a re-score through
// nginx and through every replica (0); and, for N ≥ 2, a step during which a replica is sent
// SIGTERM (goal: 0 lost, 0 judged twice, exit 0) and one during which a replica is SIGKILLed:
// rollouts lost (goal 0) and pictures judged twice (no more than the calls in flight when it
// died, which the crash cut off), and the same SIGKILL with the replicas' judge calls held by
// `rubrica judge-proxy` (kill_proxy_lost / kill_proxy_judged_twice, goal 0 / 0).
//
// Flags: --rollouts 64 --per-request 8 --latency-ms 500 --capacity 4 --replicas 1,2,4
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import {
  type ServeProcess,
  spawnJudgeProxy,
  spawnServe,
  tempDir,
  writeRubrics,
} from '../test/server/support.ts';
import { fluentEmoji } from '../test/support/corpus.ts';
import { type DoubleRequest, startModelDouble } from '../test/support/model-double.ts';
import { startNginx } from '../test/support/nginx.ts';
import { startRedis } from '../test/support/redis-server.ts';

const { values: flags } = parseArgs({
  options: {
    rollouts: { type: 'string', default: '64' },
    'per-request': { type: 'string', default: '8' },
    'latency-ms': { type: 'string', default: '500' },
    capacity: { type: 'string', default: '4' },
    replicas: { type: 'string', default: '1,2,4' },
  },
});
const rollouts = Number(flags.rollouts);
const perRequest = Number(flags['per-request']);
const latency = Number(flags['latency-ms']);
const capacity = Number(flags.capacity);
const icons = fluentEmoji(rollouts * 4);
// Pictures for the judge-proxy step, none of them judged in the other steps.
const seen = new Set(icons.map((ic) => ic.name));
const proxyIcons = fluentEmoji()
  .filter((ic) => !seen.has(ic.name))
  .slice(0, rollouts);
const completion = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;

const counts = new Map<string, number>();
// When each judged picture reached the judge (performance.now()), for the makespan breakdown.
let arrivals: number[] = [];
let now = 0;
let peak = 0;
const double = await startModelDouble({
  handler: (req: DoubleRequest) => {
    if (req.text.includes('{"colour"')) return { content: '{"colour": "red"}' };
    const img = req.images[0] ?? '';
    counts.set(img, (counts.get(img) ?? 0) + 1);
    arrivals.push(performance.now());
    const keys = Object.keys((req.schema?.properties ?? {}) as Record<string, unknown>);
    const answer = Object.fromEntries(keys.map((k) => [k, { reasoning: 'ok', score: 0.5 }]));
    return { content: JSON.stringify(answer), delayMs: latency };
  },
});
// Peak concurrency as the judge sees it: requests between arrival and answer.
const sample = setInterval(() => {
  now = double.inFlight;
  peak = Math.max(peak, now);
}, 5);
const calls = () => [...counts.values()].reduce((s, n) => s + n, 0);

type Item = { id: string; prompt_id: string; completion: string };
const batch = (from: number, list = icons) =>
  list.slice(from, from + rollouts).map((ic, i) => ({
    id: `r${from + i}`,
    prompt_id: 'fox',
    completion: completion(ic.svg),
  }));
type Step = { ok: number; ms: number; t0: number; answered: number[] };
async function step(url: string, items: Item[]): Promise<Step> {
  const t0 = performance.now();
  const answered: number[] = [];
  const reqs: Promise<number>[] = [];
  for (let i = 0; i < items.length; i += perRequest) {
    const body = JSON.stringify({ items: items.slice(i, i + perRequest) });
    reqs.push(
      fetch(`${url}/v1/rewards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
        .then(async (r) => {
          if (r.status !== 200) return 0;
          const j = (await r.json()) as { results: Array<{ status: string }> };
          answered.push(performance.now() - t0);
          return j.results.filter((x) => x.status === 'ok').length;
        })
        .catch(() => 0),
    );
  }
  const ok = (await Promise.all(reqs)).reduce((s, n) => s + n, 0);
  return { ok, ms: performance.now() - t0, t0, answered };
}

/**
 * Where a step's makespan went beyond the judge-bound ideal, from the judge's side: `head`
 * (client send to the first judge call: HTTP, nginx, inspect, first render, first lease),
 * `handoff` (a slot freed by an answer to the next call arriving in it: the answer's way
 * back, release, the waiter's wake-up and lease, the next request's way out; the k-th call
 * takes the slot of the (k - capacity)-th), and `tail` (the last judge answer to the last
 * client answer). Figures in ms.
 */
function breakdown(s: Step, at: number[]) {
  const rel = at.map((a) => a - s.t0).sort((a, b) => a - b);
  const gaps = rel.slice(capacity).map((a, k) => a - (rel[k]! + latency));
  gaps.sort((a, b) => a - b);
  const q = (p: number) => Math.round(gaps[Math.floor(p * (gaps.length - 1))] ?? 0);
  const lastEnd = (rel.at(-1) ?? 0) + latency;
  const mean = gaps.reduce((x, y) => x + y, 0) / Math.max(1, gaps.length);
  return {
    head_ms: Math.round(rel[0] ?? 0),
    handoff_mean_ms: Math.round(mean),
    handoff_p50_ms: q(0.5),
    handoff_max_ms: q(1),
    tail_ms: Math.round(s.ms - lastEnd),
    first_answer_ms: Math.round(Math.min(...s.answered)),
  };
}

const twiceNow = () => [...counts.values()].filter((c) => c > 1).length;
/**
 * A step of fresh rollouts through nginx during which `victim` gets `signal` once half of
 * them have reached the judge: rollouts lost (not ok), pictures judged twice, the judge
 * calls in flight at that moment (what a crash can cut off, at most), the victim's exit code.
 */
async function stopMidStep(
  url: string,
  victim: ServeProcess,
  signal: NodeJS.Signals,
  from: number,
  list = icons,
) {
  const items = batch(from, list);
  const before = calls();
  const twiceBefore = twiceNow();
  const running = step(url, items);
  while (calls() - before < items.length / 2) await new Promise((r) => setTimeout(r, 10));
  const cut = double.inFlight;
  victim.child.kill(signal);
  const done = await running;
  return {
    lost: items.length - done.ok,
    twice: twiceNow() - twiceBefore,
    cut,
    code: await victim.exited,
  };
}

const dir = tempDir('bench-scale');
const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
const rows: Record<string, unknown>[] = [];
for (const n of flags.replicas.split(',').map(Number)) {
  const redis = await startRedis();
  const args = [
    '--rubrics',
    rubrics,
    '--judge',
    'openai-compatible:judge',
    '--judge-base-url',
    double.url,
    '--cache',
    redis.url,
    '--concurrency',
    String(capacity),
    '--render-workers',
    '1',
  ];
  const replicas: ServeProcess[] = [];
  for (let i = 0; i < n; i++) replicas.push(await spawnServe(args));
  let lb = await startNginx(replicas.map((r) => new URL(r.url).host));
  // The first step after start, of rollouts no later step uses ...
  counts.clear();
  peak = 0;
  arrivals = [];
  const cold = await step(lb.url, batch(3 * rollouts));
  const coldTrace = breakdown(cold, arrivals);
  const coldIdeal = Math.ceil(calls() / capacity) * latency;
  const coldPeak = peak;
  // ... then the step measured: the next one, as every step of a training run after its first.
  counts.clear();
  peak = 0;
  arrivals = [];
  const items = batch(0);
  const first = await step(lb.url, items);
  const trace = breakdown(first, arrivals);
  const judged = calls();
  const ideal = Math.ceil(judged / capacity) * latency;
  const firstPeak = peak;
  await step(lb.url, items);
  for (const r of replicas) await step(r.url, items.slice(0, perRequest));
  const rescoreCalls = calls() - judged;
  const row: Record<string, unknown> = {
    replicas: n,
    rollouts: items.length,
    ok: first.ok,
    judge_calls: judged,
    makespan_ms: Math.round(first.ms),
    ideal_ms: ideal,
    ratio: Number((first.ms / ideal).toFixed(3)),
    judge_peak: firstPeak,
    capacity,
    rescore_judge_calls: rescoreCalls,
    ...trace,
    cold_ok: cold.ok,
    cold_makespan_ms: Math.round(cold.ms),
    cold_ratio: Number((cold.ms / coldIdeal).toFixed(3)),
    cold_judge_peak: coldPeak,
    cold_head_ms: coldTrace.head_ms,
    cold_handoff_mean_ms: coldTrace.handoff_mean_ms,
  };
  if (n >= 2) {
    // SIGTERM (what Kubernetes and Slurm send) drains replica 0; then a fresh replica takes
    // its place behind a fresh nginx (no failure memory) and is SIGKILLed like a crash.
    const term = await stopMidStep(lb.url, replicas[0]!, 'SIGTERM', rollouts);
    row.term_lost = term.lost;
    row.term_judged_twice = term.twice;
    row.term_exit_code = term.code;
    await lb.stop();
    replicas[0] = await spawnServe(args);
    lb = await startNginx(replicas.map((r) => new URL(r.url).host));
    const kill = await stopMidStep(lb.url, replicas[0]!, 'SIGKILL', 2 * rollouts);
    row.kill_lost = kill.lost;
    row.kill_judged_twice = kill.twice;
    row.kill_cut_calls_bound = kill.cut;
    // The same crash with every replica's judge calls held by `rubrica judge-proxy`: the
    // calls the dead replica had out run on in the proxy and answer the retry (goal 0 / 0).
    await lb.stop();
    const proxy = await spawnJudgeProxy([
      '--upstream',
      double.url,
      '--cache',
      redis.url,
      '--concurrency',
      String(capacity),
    ]);
    const viaProxy = args.map((a) => (a === double.url ? `${proxy.url}/v1` : a));
    for (const [i, r] of replicas.entries()) {
      if (r.child.exitCode === null) r.child.kill('SIGTERM');
      await r.exited;
      replicas[i] = await spawnServe(viaProxy);
    }
    lb = await startNginx(replicas.map((r) => new URL(r.url).host));
    const proxied = await stopMidStep(lb.url, replicas[0]!, 'SIGKILL', 0, proxyIcons);
    row.kill_proxy_lost = proxied.lost;
    row.kill_proxy_judged_twice = proxied.twice;
    row.kill_proxy_cut_calls = proxied.cut;
    proxy.child.kill('SIGTERM');
    row.kill_proxy_exit_code = await proxy.exited;
  }
  rows.push(row);
  for (const r of replicas) if (r.child.exitCode === null) r.child.kill('SIGTERM');
  await Promise.all(replicas.map((r) => r.exited));
  await lb.stop();
  await redis.stop();
}
clearInterval(sample);
await double.close();
console.log(
  JSON.stringify(
    {
      cores: availableParallelism(),
      load: loadavg().map((l) => l.toFixed(1)),
      latency_ms: latency,
      rows,
    },
    null,
    2,
  ),
);
