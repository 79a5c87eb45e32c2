// Deadlines end to end (issue 38, item 1): the real scorer (render pool, inspection, SQLite
// cache) behind a real port, and a real `rubrica serve --deadline-ms` process, with a judge
// double that answers one rollout of each group far too late. Every trainer shape must answer
// by the deadline, flag the late rollout as a grader fault with reason `deadline` (TRL's None
// comes from the native route's grader_error, slime's remove_sample and verl's fault flag
// from grader_error: 1, NeMo Gym's judge_failed tag), leave it out of its group's baseline,
// and answer the same picture at once from the cache once the late call has finished.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fluentEmoji } from '../support/corpus.ts';
import { type DoubleRequest, type ModelDouble, startModelDouble } from '../support/model-double.ts';
import {
  judgeByImage,
  postJson,
  type RealServer,
  scoreForImage,
  spawnServe,
  startRealServer,
  tempDir,
  writeRubrics,
} from './support.ts';

const SLOW_MS = 5000; // the late judge call: far past the deadline, well within its timeout
const DEADLINE_MS = 2000;
// The bound is deadline + 0.5 s (bench:tails measures it); a test on a shared, loaded
// machine only shows that the answer did not wait for the late call.
const SLACK_MS = 2000;

const icons = fluentEmoji(60);
const completion = (k: number) => `\`\`\`svg\n${icons[k]!.svg}\n\`\`\``;
// The judge sees the picture, not the rollout: a picture whose score (scoreForImage, which
// the reward equals) is `slowScore` is judged SLOW_MS late. Which icons those are is learned
// once, by scoring every icon under a calibration rubric (that also warms the render pool).
let slowScore = -1;
const fast = judgeByImage();
const slowOrFast = (req: DoubleRequest) => {
  const r = fast(req);
  const late = scoreForImage(req.images[0] ?? '') === slowScore;
  return late && 'content' in r ? { ...r, delayMs: SLOW_MS } : r;
};
const slowIcons: number[] = [];
const fastIcons: number[] = [];
/** The next unused icon judged late (slow) or at once. */
const icon = (slow: boolean) => {
  const k = (slow ? slowIcons : fastIcons).shift();
  if (k === undefined) throw new Error('ran out of calibrated icons');
  return k;
};

let double: ModelDouble;
let server: RealServer;
const dir = tempDir('deadline');
const rubrics = writeRubrics(dir, [
  ['fox', 'a red fox'],
  ['cal', 'calibration'],
]);

beforeAll(async () => {
  double = await startModelDouble({ handler: slowOrFast });
  server = await startRealServer({
    judgeUrl: double.url,
    rubrics,
    dir,
    maxRetries: 0,
    timeoutMs: 20_000,
    // A wide gather window: on a loaded machine three concurrent posts may arrive >20 ms apart.
    server: { deadlineMs: DEADLINE_MS, gather: { windowMs: 300 } },
  });
  const items = icons.map((_, k) => ({ id: `c${k}`, prompt_id: 'cal', completion: completion(k) }));
  const res = await postJson(`${server.url}/v1/rewards`, { items, deadline_ms: 120_000 });
  const rewards = (res.json as { results: Array<{ reward: number; status: string }> }).results;
  const byScore = new Map<number, number[]>();
  rewards.forEach((r, k) => {
    if (r.status !== 'ok') return;
    const s = Math.round(r.reward * 10) / 10;
    byScore.set(s, [...(byScore.get(s) ?? []), k]);
  });
  // The most common score is the slow one: enough late pictures for every case.
  const [score, ks] = [...byScore.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
  slowScore = score;
  slowIcons.push(...ks);
  for (const [s, list] of byScore) if (s !== score) fastIcons.push(...list);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await double?.close();
});

/** Waits (bounded) until the judge double has answered every call it was given. */
async function judgeIdle(): Promise<void> {
  const t0 = Date.now();
  while (double.inFlight > 0 && Date.now() - t0 < 3 * SLOW_MS)
    await new Promise((r) => setTimeout(r, 50));
  expect(double.inFlight).toBe(0);
}

/** Posts and measures; the answer must come by the deadline. */
async function timed(path: string, body: unknown, deadline = DEADLINE_MS) {
  const t0 = performance.now();
  const res = await postJson(`${server.url}${path}`, body);
  const ms = performance.now() - t0;
  expect(res.status).toBe(200);
  expect(ms).toBeLessThan(deadline + SLACK_MS);
  // biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
  return res.json as any;
}

describe('a rollout not scored by the deadline', () => {
  it('native route (TRL reads grader_error as None): per-request deadline_ms, out of the group, cached for the next request', async () => {
    const items = [false, false, true].map((slow, i) => ({
      id: `n${i}`,
      prompt_id: 'fox',
      completion: completion(icon(slow)),
    }));
    const out = await timed('/v1/rewards', { items, deadline_ms: 1500 }, 1500);
    const [a, b, late] = out.results;
    expect([a.status, b.status]).toEqual(['ok', 'ok']);
    expect(late).toMatchObject({ status: 'grader_error', reason: 'deadline', advantage: 0 });
    expect(late.group.excluded).toBe(1);
    expect(late.group.mean).toBeCloseTo((a.reward + b.reward) / 2, 12);

    await judgeIdle();
    const calls = double.requests.length;
    const again = await timed('/v1/rewards', { items: [items[2]], deadline_ms: 1500 }, 1500);
    expect(again.results[0]).toMatchObject({ status: 'ok', cached: true });
    expect(double.requests.length).toBe(calls); // answered from the cache: no judge call
  });

  it('verl: grader_error 1 and reason deadline, scored as its group-mates’ mean', async () => {
    const ks = [icon(false), icon(false), icon(true)];
    const out = await timed('/v1/verl', {
      data_sources: ks.map(() => 'svg'),
      solution_strs: ks.map(completion),
      ground_truths: ks.map(() => 'fox'),
      extra_infos: ks.map((k) => ({ id: `v${k}` })),
    });
    expect(out[2]).toMatchObject({ status: 'grader_error', reason: 'deadline', grader_error: 1 });
    expect(out[2].score).toBeCloseTo((out[0].score + out[1].score) / 2, 12);
    expect(out.slice(0, 2).map((r: { grader_error: number }) => r.grader_error)).toEqual([0, 0]);
  });

  it('OpenRLHF and slime per-sample requests (gathered): flagged, imputed, remove_sample', async () => {
    const rlhf = await Promise.all(
      [icon(false), icon(false), icon(true)].map((k) =>
        timed('/v1/openrlhf', { query: [completion(k)], prompts: [''], labels: ['fox'] }),
      ),
    );
    expect(rlhf.map((o) => o.extra_logs.grader_error[0])).toEqual([0, 0, 1]);
    expect(rlhf[2].rewards[0]).toBeCloseTo((rlhf[0].rewards[0] + rlhf[1].rewards[0]) / 2, 12);

    const slime = await Promise.all(
      [icon(false), icon(false), icon(true)].map((k) =>
        timed('/v1/slime', { prompt: 'a red fox', response: completion(k), label: 'fox' }),
      ),
    );
    // rubrica/slime.py sets remove_sample from grader_error.
    expect(slime.map((o) => o.grader_error)).toEqual([0, 0, 1]);
    expect(slime[2]).toMatchObject({ status: 'grader_error', reason: 'deadline' });
  });

  it('NeMo Gym verify: tagged judge_failed with the deadline reason', async () => {
    const body = (k: number) => ({
      responses_create_params: { input: [{ role: 'user', content: 'a red fox' }] },
      response: {
        output: [
          {
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text', text: completion(k) }],
          },
        ],
      },
      prompt_id: 'fox',
    });
    const outs = await Promise.all([icon(false), icon(true)].map((k) => timed('/verify', body(k))));
    expect(outs[0]._ng_failure_class).toBeUndefined();
    expect(outs[1]).toMatchObject({
      reward: 0,
      grader_error: 1,
      rubrica_reason: 'deadline',
      _ng_failure_class: 'judge_failed',
    });
  });

  it('/metrics counts the deadline faults and the late work that finished', async () => {
    await judgeIdle();
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const faults = Number(/rubrica_deadline_faults_total (\d+)/.exec(text)?.[1]);
    expect(faults).toBeGreaterThanOrEqual(5); // one per case above
    expect(text).toMatch(/rubrica_deadline_late_finished_total\{outcome="ok"\} [1-9]/);
  });
});

describe('rubrica serve --deadline-ms (a real process)', () => {
  it('answers by the deadline and flags the late rollout', async () => {
    const d = tempDir('deadline-serve');
    const proc = await spawnServe([
      '--rubrics',
      writeRubrics(d, [['fox', 'a red fox']]),
      '--judge',
      'openai-compatible:judge',
      '--judge-base-url',
      double.url,
      '--cache',
      `${d}/cache.sqlite`,
      '--render-workers',
      '1',
      '--deadline-ms',
      '3000',
    ]);
    try {
      const items = [icon(false), icon(false), icon(true)].map((k) => ({
        id: `s${k}`,
        prompt_id: 'fox',
        completion: completion(k),
      }));
      const t0 = performance.now();
      const res = await postJson(`${proc.url}/v1/rewards`, { items });
      expect(performance.now() - t0).toBeLessThan(3000 + SLACK_MS);
      // biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
      const results = (res.json as any).results;
      expect(results.map((r: { status: string }) => r.status)).toEqual([
        'ok',
        'ok',
        'grader_error',
      ]);
      expect(results[2].reason).toBe('deadline');
      // The judge's retry budget (--judge-retry-budget, default 20 %) is on /metrics.
      const metrics = await (await fetch(`${proc.url}/metrics`)).text();
      expect(metrics).toMatch(/rubrica_judge_retry_budget_ratio 0\.2\b/);
      expect(metrics).toMatch(/rubrica_judge_calls_started_total [1-9]/);
      expect(metrics).toMatch(/rubrica_deadline_faults_total 1\b/);
      expect(metrics).toMatch(/rubrica_judge_hedges_total \d+/);
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });
});
