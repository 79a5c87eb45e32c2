// npm run bench:tails — one GRPO step's tail through `rubrica serve` (issue 38): 128 prompts ×
// 8 rollouts of real SVGs, one request per group, against a judge double where 1 % of
// requests never answer and 5 % take 10× the median. First the baseline (no deadline, no
// hedges, no retry budget: what serve did before), then the same rollouts on a fresh cache
// with --deadline-ms = 3 × the baseline's median request time and hedging on `auto`.
// Printed: p50/p99 request time, the latest answer against the deadline (goal ≤ +0.5 s),
// judge requests per rollout with hedges and retries (goal ≤ 1.10), late rollouts answered
// as flagged faults (and no zero among them), and a second pass once the late work has
// finished: judge calls it made for the rollouts that were late (goal 0). Also serve's
// event-loop delay during each pass (p99 and max of /metrics' rubrica_nodejs_eventloop_lag_*):
// a deadline's answer is a timer on that loop, so the loop's longest stall bounds how late it
// can come. The client is Node's fetch (no connection limit per origin), so every request is
// on the wire at once: what is measured is the server's queueing, not the client's.
//
// Run from a clone: RUBRICA_FROM_SOURCE=1 (or `npm run build` first) for bin/rubrica.js.
// Flags: --prompts 128 --per-prompt 8 --latency-ms 500 --concurrency 64
//        --judge-timeout 10000 --deadline-ms N (default 3 × baseline median) --json
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { rulerRubric } from '../test/score/support/fixtures.ts';
import { fluentEmoji } from '../test/support/corpus.ts';
import { type DoubleRequest, startModelDouble } from '../test/support/model-double.ts';
import { seededRng } from '../test/support/schema-random.ts';

const { values: flags } = parseArgs({
  options: {
    prompts: { type: 'string', default: '128' },
    'per-prompt': { type: 'string', default: '8' },
    'latency-ms': { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '64' },
    'judge-timeout': { type: 'string', default: '10000' },
    'deadline-ms': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const P = Number(flags.prompts);
const G = Number(flags['per-prompt']);
const LATENCY = Number(flags['latency-ms']);
const N = P * G;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

interface Result {
  id: string;
  status: string;
  reason?: string;
  reward: number;
}

async function main() {
  const loadBefore = loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'rubrica-bench-tails-'));
  const icons = fluentEmoji(N);
  const rubrics = join(dir, 'rubrics.jsonl');
  const prompts = Array.from({ length: P }, (_, p) => rulerRubric(`p${p}`, `bench prompt ${p}`));
  writeFileSync(rubrics, `${prompts.map((r) => JSON.stringify(r)).join('\n')}\n`);
  // Each judge request draws its fate: 1 % never answer, 5 % take 10× the median. A retry or
  // a hedge is a new request with a new draw, as on a real server.
  const rng = seededRng(38);
  const double = await startModelDouble({
    handler: (req: DoubleRequest) => {
      const keys = Object.keys((req.schema?.properties ?? {}) as Record<string, unknown>);
      const answer = Object.fromEntries(keys.map((k) => [k, { reasoning: 'ok', score: 0.7 }]));
      const x = rng();
      if (x < 0.01) return { hang: true };
      return { content: JSON.stringify(answer), delayMs: x < 0.06 ? 10 * LATENCY : LATENCY };
    },
  });
  const requests = prompts.map((p, k) => ({
    items: Array.from({ length: G }, (_, j) => ({
      id: `${p.id}#${j}`,
      prompt_id: p.id,
      completion: `\`\`\`svg\n${icons[k * G + j]!.svg}\n\`\`\``,
    })),
  }));

  async function startServe(extra: string[], tag: string) {
    const args = ['bin/rubrica.js', 'serve', '--port', '0', '--rubrics', rubrics];
    args.push('--judge', 'openai-compatible:bench-judge', '--judge-base-url', double.url);
    args.push('--concurrency', String(flags.concurrency), '--cache', join(dir, `${tag}.sqlite`));
    args.push('--judge-timeout', String(flags['judge-timeout']), '--max-in-flight', '8192');
    const child = spawn('node', [...args, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (b: Buffer) => {
        log += b.toString();
        const m = /"msg":"ready"/.test(log) ? /"url":"(http:[^"]+)"/.exec(log) : null;
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}\n${log}`)));
    });
    const stop = async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    };
    return { url, stop };
  }

  /** serve's event-loop delay (prom-client's, reset by each scrape) since the last scrape, ms. */
  async function loopDelay(url: string) {
    const m = await (await fetch(`${url}/metrics`)).text();
    const g = (name: string) =>
      1000 *
      Number(
        new RegExp(`^rubrica_nodejs_eventloop_lag_${name}_seconds (\\S+)`, 'm').exec(m)?.[1] ?? NaN,
      );
    return { p99: g('p99'), max: g('max') };
  }

  async function pass(url: string) {
    await loopDelay(url); // starts the window: what serve's loop did before is not counted
    const times: number[] = [];
    const results: Result[] = [];
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
        results.push(...((await res.json()) as { results: Result[] }).results);
        times.push(performance.now() - s);
      }),
    );
    const makespan = performance.now() - t0;
    const loop = await loopDelay(url);
    times.sort((a, b) => a - b);
    return { makespan, times, results, loop };
  }

  /** Waits until the judge double has nothing in flight (the late work has landed), bounded. */
  async function judgeQuiet(limitMs: number) {
    const t0 = Date.now();
    while (double.inFlight > 0 && Date.now() - t0 < limitMs)
      await new Promise((r) => setTimeout(r, 100));
  }

  // Baseline: what serve did before this issue.
  double.reset();
  const base = await startServe(
    ['--hedge-after-ms', 'off', '--judge-retry-budget', 'off'],
    'baseline',
  );
  const b = await pass(base.url);
  const baseCalls = double.requests.length;
  await base.stop();
  const median = percentile(b.times, 50);
  const deadline = flags['deadline-ms'] ? Number(flags['deadline-ms']) : Math.round(3 * median);

  double.reset();
  const tails = await startServe(['--deadline-ms', String(deadline)], 'tails');
  const t = await pass(tails.url);
  const late = new Set(t.results.filter((r) => r.reason === 'deadline').map((r) => r.id));
  const zeros = t.results.filter((r) => r.status !== 'ok' && r.status !== 'grader_error').length;
  // Let the late work finish under its own timeouts (retries included) — rendering as well as
  // judging: every deadline fault's work reports its end on /metrics — then count its calls.
  const lateDone = async () => {
    const m = await (await fetch(`${tails.url}/metrics`)).text();
    const faults = Number(/^rubrica_deadline_faults_total (\S+)/m.exec(m)?.[1] ?? 0);
    const ended = [...m.matchAll(/^rubrica_deadline_late_finished_total\{[^}]*\} (\S+)/gm)];
    return ended.reduce((a, x) => a + Number(x[1]), 0) >= faults;
  };
  const t1 = Date.now();
  while (!(await lateDone()) && Date.now() - t1 < 6 * Number(flags['judge-timeout']))
    await new Promise((r) => setTimeout(r, 200));
  await judgeQuiet(6 * Number(flags['judge-timeout']));
  const tailCalls = double.requests.length;
  const metrics = await (await fetch(`${tails.url}/metrics`)).text();
  const gauge = (name: string) =>
    Number(new RegExp(`^${name} (\\S+)`, 'm').exec(metrics)?.[1] ?? 0);
  const t2 = await pass(tails.url);
  const secondCalls = double.requests.length - tailCalls;
  const lateNowOk = t2.results.filter((r) => late.has(r.id) && r.status === 'ok').length;
  await tails.stop();
  await double.close();
  rmSync(dir, { recursive: true, force: true });

  const worst = t.times[t.times.length - 1]!;
  const report = {
    rollouts: N,
    judge_median_ms: LATENCY,
    judge_concurrency: Number(flags.concurrency),
    judge_timeout_ms: Number(flags['judge-timeout']),
    load_average_1m_before: loadBefore,
    baseline: {
      makespan_ms: Math.round(b.makespan),
      p50_request_ms: Math.round(median),
      p99_request_ms: Math.round(percentile(b.times, 99)),
      max_request_ms: Math.round(b.times[b.times.length - 1]!),
      judge_requests_per_rollout: baseCalls / N,
      faults: b.results.filter((r) => r.status === 'grader_error').length,
      event_loop_delay_p99_ms: Math.round(b.loop.p99),
      event_loop_delay_max_ms: Math.round(b.loop.max),
    },
    tails: {
      deadline_ms: deadline,
      makespan_ms: Math.round(t.makespan),
      p50_request_ms: Math.round(percentile(t.times, 50)),
      p99_request_ms: Math.round(percentile(t.times, 99)),
      max_request_ms: Math.round(worst),
      latest_vs_deadline_ms: Math.round(worst - deadline),
      judge_requests_per_rollout: tailCalls / N,
      hedges: gauge('rubrica_judge_hedges_total'),
      hedge_wins: gauge('rubrica_judge_hedge_wins_total'),
      retries: gauge('rubrica_judge_retries_total'),
      late_rollouts_flagged: late.size,
      late_rollouts_as_zero: zeros,
      second_pass_judge_calls: secondCalls,
      late_rollouts_ok_on_second_pass: lateNowOk,
      event_loop_delay_p99_ms: Math.round(t.loop.p99),
      event_loop_delay_max_ms: Math.round(t.loop.max),
    },
  };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const goal = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const bt = report.baseline;
  const tt = report.tails;
  const lines = [
    `rubrica serve tails: ${N} rollouts (${P} groups × ${G}), judge double median ${LATENCY} ms (1 % never answer, 5 % at 10×), concurrency ${flags.concurrency}, judge timeout ${flags['judge-timeout']} ms (load avg before ${loadBefore.toFixed(1)})`,
    `                      baseline (no deadline, no hedges)   --deadline-ms ${deadline}${flags['deadline-ms'] ? '' : ' (3 × baseline median)'} + hedges auto`,
    `  p50 request       ${String(bt.p50_request_ms).padStart(8)} ms${' '.repeat(26)}${tt.p50_request_ms} ms`,
    `  p99 request       ${String(bt.p99_request_ms).padStart(8)} ms${' '.repeat(26)}${tt.p99_request_ms} ms`,
    `  slowest request   ${String(bt.max_request_ms).padStart(8)} ms${' '.repeat(26)}${tt.max_request_ms} ms (deadline ${tt.latest_vs_deadline_ms >= 0 ? '+' : ''}${tt.latest_vs_deadline_ms} ms; goal ≤ +500: ${goal(tt.latest_vs_deadline_ms <= 500)})`,
    `  step makespan     ${String(bt.makespan_ms).padStart(8)} ms${' '.repeat(26)}${tt.makespan_ms} ms`,
    `  judge req/rollout ${bt.judge_requests_per_rollout.toFixed(3).padStart(8)}${' '.repeat(29)}${tt.judge_requests_per_rollout.toFixed(3)} (hedges ${tt.hedges}, ${tt.hedge_wins} won; retries ${tt.retries}; goal ≤ 1.10: ${goal(tt.judge_requests_per_rollout <= 1.1)})`,
    `  late rollouts       ${tt.late_rollouts_flagged} flagged grader faults (reason deadline), ${tt.late_rollouts_as_zero} answered as a zero (goal 0: ${goal(tt.late_rollouts_as_zero === 0)})`,
    `  serve's loop delay  p99 ${bt.event_loop_delay_p99_ms} / max ${bt.event_loop_delay_max_ms} ms${' '.repeat(16)}p99 ${tt.event_loop_delay_p99_ms} / max ${tt.event_loop_delay_max_ms} ms (during the pass)`,
    `  second pass         ${tt.second_pass_judge_calls} judge calls (goal 0: ${goal(tt.second_pass_judge_calls === 0)}); ${tt.late_rollouts_ok_on_second_pass}/${tt.late_rollouts_flagged} late rollouts answered ok from the cache`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
