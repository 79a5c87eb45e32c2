// Contract tests for the per-sample trainers, each written from the trainer's source at a
// named commit and driving a real `rubrica serve` process (real renders, real SQLite cache)
// over loopback with the judge doubled (test/support/model-double.ts), in the trainer's own
// request shape and rhythm. Each checks the ok, unscoreable and grader-fault paths give the
// SAME keys, numbers where the trainer makes tensors, and components that sum to the value sent.
//
//  - OpenRLHF 0.11.0 @ 3c3be6234e0cb353e76bb8019947db9dfe99fca7 (2026-08-13),
//    openrlhf/utils/agent.py SingleTurnAgentExecutor: every sample is its own request,
//    {query: [q], prompts: [p], labels: [l]}, posted to EVERY URL of --reward.remote_url's comma
//    list, sharded by ceil(1/len(urls)) — so the first URL gets the sample and the others an
//    empty batch (PR #1325 stopped the empty batches, PR #1329 rotates the replicas; both
//    after this commit); aiohttp total timeout 180 s, 5 tries 1 s apart
//    on any error (raise_for_status), then the sample's reward stays None. The reply read is
//    the first URL's {rewards, scores, extra_logs}; samples_generator.py makes
//    torch.tensor([value]) of every extra_logs value, so they must be numbers.
//  - slime @ 624b824a898ab0ec1fcb4d373004c7f3852bf515 (2026-08-21), slime/rollout/rm_hub/
//    __init__.py remote_rm: {prompt, response, label} per sample to --rm-url, a shared aiohttp
//    session (64 connections, 120 s), 10 tries with backoff on any error, then it raises; a
//    group's samples go out together (batched_async_rm gathers async_rm); the reply is the
//    sample's reward, read with --reward-key (slime/utils/types.py get_reward_value).
//  - NeMo Gym @ 07d6b0d07b22fcf530b4c211dae2ee23100428e4 (2026-08-22),
//    nemo_gym/base_resources_server.py: POST /verify with BaseVerifyRequest
//    {responses_create_params, response} (+ the row's own fields), answered with the request
//    plus `reward` (BaseMultiRewardVerifyResponse adds `reward_components`); judge_failsafe
//    (nemo_gym/judge.py) answers a judge failure with reward 0.0 and
//    `_ng_failure_class: "judge_failed"`, which rollout_collection routes to the failures file.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REWARD_COMPONENT_KEYS } from '../../src/reward/components.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';
import { judgeByImage, type ServeProcess, spawnServe, tempDir, writeRubrics } from './support.ts';

const icons = fluentEmoji(8);
const fenced = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;
// The judge double fails (HTTP 500) every call whose text holds this marker: the rollout's
// prompt text, so one rollout of a group can fault while its group-mates are measured.
const FAIL = 'JUDGE_FAILS';
const COMP = REWARD_COMPONENT_KEYS.universal.map((k) => `comp_${k}`);
const STATUS_KEYS = [
  'scored',
  'gated',
  'grader_error',
  'judge_error',
  'no_rubric',
  'renders',
  'blank',
  'cached',
  'judge_calls',
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// One group of a GRPO step: four drawings, one answer without SVG, one whose judge fails.
interface Sample {
  prompt: string;
  response: string;
  kind: 'ok' | 'unscoreable' | 'fault';
}
function group(): Sample[] {
  return [
    ...icons.slice(0, 4).map((ic) => ({
      prompt: 'a red fox',
      response: fenced(ic.svg),
      kind: 'ok' as const,
    })),
    { prompt: 'a red fox', response: 'I cannot draw that.', kind: 'unscoreable' },
    { prompt: `a red fox ${FAIL}`, response: fenced(icons[5]!.svg), kind: 'fault' },
  ];
}

/** OpenRLHF's _post_request: 5 tries, 1 s apart, any non-2xx is an error; counts the tries. */
async function openRlhfPost(url: string, data: unknown): Promise<{ json: unknown; tries: number }> {
  for (let t = 1; t <= 5; t++) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(data),
        signal: AbortSignal.timeout(180_000),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return { json: await res.json(), tries: t };
    } catch {
      await sleep(1000);
    }
  }
  throw new Error('Request error for 5 times');
}

/** slime's remote_rm: 10 tries with backoff min(2^a, 30) s + jitter; counts the tries. */
async function slimePost(url: string, payload: unknown): Promise<{ json: unknown; tries: number }> {
  for (let a = 0; a < 10; a++) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(120_000),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return { json: await res.json(), tries: a + 1 };
    } catch (err) {
      if (a + 1 >= 10) throw err;
      await sleep(Math.min(2 ** a, 30) * 1000 + Math.random() * 1000);
    }
  }
  throw new Error('unreachable');
}

let double: ModelDouble;
let serve: ServeProcess;

beforeAll(async () => {
  const dir = tempDir('trainer-contracts');
  const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
  double = await startModelDouble({ handler: judgeByImage(FAIL) });
  serve = await spawnServe(
    [
      '--rubrics',
      rubrics,
      '--judge',
      'openai-compatible:judge',
      '--judge-base-url',
      double.url,
      '--judge-retries',
      '0',
      // The universal rubric judges against the rollout's own prompt text, so the failure
      // marker in one sample's prompt faults that sample alone (RULER reads its rubric's text).
      '--reward',
      'universal',
      // A group's requests leave the trainer together; on a loaded 2-core CI box they may reach
      // the service a few hundred ms apart, so the window is wider than the default 20 ms.
      '--gather-ms',
      '1500',
      '--cache',
      join(dir, 'cache.sqlite'),
      '--render-workers',
      '1',
    ],
    {},
    150_000,
  );
}, 180_000);

afterAll(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  await double?.close();
});

/** The measured group-mates' mean: what a grader fault is sent as. */
function mateMean(values: number[], kinds: Sample['kind'][]): number {
  const measured = values.filter((_, i) => kinds[i] !== 'fault');
  return measured.reduce((a, b) => a + b, 0) / measured.length;
}

describe('OpenRLHF 0.11 (3c3be623): one request per sample, to every replica URL', () => {
  it('answers every sample on the first try with fixed numeric extra_logs; the fault is imputed', async () => {
    const samples = group();
    const template = (p: string) =>
      `<|im_start|>system\nYou draw SVG.<|im_end|>\n<|im_start|>user\n${p}<|im_end|>\n<|im_start|>assistant\n`;
    // --reward.remote_url "URL,URL": the same service twice, as two replicas would be listed.
    const urls = [`${serve.url}/v1/openrlhf`, `${serve.url}/v1/openrlhf`];
    const replies = await Promise.all(
      samples.map(async (s) => {
        const prompt = template(s.prompt);
        const queries = [`${prompt}${s.response}<|im_end|>`];
        const per = Math.ceil(queries.length / urls.length);
        const outs = await Promise.all(
          urls.map((u, i) =>
            openRlhfPost(u, {
              query: queries.slice(i * per, (i + 1) * per),
              prompts: [prompt].slice(i * per, (i + 1) * per),
              labels: ['fox'].slice(i * per, (i + 1) * per),
            }),
          ),
        );
        return outs;
      }),
    );
    const kinds = samples.map((s) => s.kind);
    const rewards: number[] = [];
    for (const [i, outs] of replies.entries()) {
      for (const o of outs) expect(o.tries).toBe(1);
      // The other replica's empty batch: empty lists, not an error.
      expect((outs[1]!.json as { rewards: number[] }).rewards).toEqual([]);
      const first = outs[0]!.json as {
        rewards: number[];
        scores: number[];
        extra_logs: Record<string, number[]>;
      };
      expect(first.rewards).toHaveLength(1);
      expect(first.scores).toEqual(first.rewards);
      expect(Object.keys(first.extra_logs).sort()).toEqual([...STATUS_KEYS, ...COMP].sort());
      for (const v of Object.values(first.extra_logs)) {
        expect(v).toHaveLength(1);
        expect(Number.isFinite(v[0])).toBe(true);
      }
      const sum = COMP.reduce((a, k) => a + first.extra_logs[k]![0]!, 0);
      expect(Math.abs(sum - first.rewards[0]!)).toBeLessThanOrEqual(1e-12);
      const flags = first.extra_logs;
      if (kinds[i] === 'ok') expect(flags.scored).toEqual([1]);
      if (kinds[i] === 'unscoreable') {
        expect(flags.scored).toEqual([0]);
        expect(first.rewards).toEqual([0]);
      }
      if (kinds[i] === 'fault') expect(flags.grader_error).toEqual([1]);
      rewards.push(first.rewards[0]!);
    }
    // Drawings are scored by the picture (the double's rule), the fault by its mates' mean.
    samples.forEach((s, i) => {
      if (s.kind === 'ok') expect(rewards[i]).toBeGreaterThan(0);
    });
    expect(rewards[5]).toBeCloseTo(mateMean(rewards, kinds), 12);
    expect(rewards[5]).toBeGreaterThan(0);
  }, 120_000);

  it('before 0.10 (--remote_rm_url): one batch per request, same keys', async () => {
    const samples = group();
    const { json, tries } = await openRlhfPost(`${serve.url}/v1/openrlhf`, {
      query: samples.map((s) => `${s.prompt}\n${s.response}`),
      prompts: samples.map((s) => `${s.prompt}\n`),
      labels: samples.map(() => 'fox'),
    });
    expect(tries).toBe(1);
    const out = json as { rewards: number[]; extra_logs: Record<string, number[]> };
    expect(out.rewards).toHaveLength(6);
    expect(Object.keys(out.extra_logs).sort()).toEqual([...STATUS_KEYS, ...COMP].sort());
    expect(out.extra_logs.grader_error).toEqual([0, 0, 0, 0, 0, 1]);
    expect(out.rewards[5]).toBeCloseTo(
      mateMean(
        out.rewards,
        samples.map((s) => s.kind),
      ),
      12,
    );
  }, 120_000);
});

describe('slime (624b824a): remote_rm, a group gathered per sample', () => {
  it('every sample’s reply holds the reward under --reward-key reward, the same keys on every path', async () => {
    const samples = group();
    const replies = await Promise.all(
      samples.map((s) =>
        slimePost(`${serve.url}/v1/slime`, {
          prompt: [{ role: 'user', content: s.prompt }],
          response: s.response,
          label: 'fox',
        }),
      ),
    );
    const bodies = replies.map((r) => r.json as Record<string, unknown>);
    const keys = Object.keys(bodies[0]!).sort();
    for (const [i, b] of bodies.entries()) {
      expect(replies[i]!.tries).toBe(1);
      expect(Object.keys(b).sort()).toEqual(keys);
      // get_reward_value: sample.reward[args.reward_key]
      expect(typeof b.reward).toBe('number');
      const comps = b.components as Record<string, number>;
      expect(Object.keys(comps)).toEqual([...REWARD_COMPONENT_KEYS.universal]);
      const sum = Object.values(comps).reduce((a, v) => a + v, 0);
      expect(Math.abs(sum - (b.reward as number))).toBeLessThanOrEqual(1e-12);
    }
    expect(bodies.map((b) => b.status)).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'unscoreable',
      'grader_error',
    ]);
    const rewards = bodies.map((b) => b.reward as number);
    // Gathered with its group: the fault is its measured mates' mean, not 0.
    expect(rewards[5]).toBeCloseTo(
      mateMean(
        rewards,
        samples.map((s) => s.kind),
      ),
      12,
    );
    expect(rewards[5]).toBeGreaterThan(0);
  }, 120_000);
});

describe('NeMo Gym (07d6b0d0): POST /verify', () => {
  it('answers {reward, reward_components}; a grader fault is tagged judge_failed, never a silent 0', async () => {
    const samples = group();
    const replies = await Promise.all(
      samples.map(async (s, i) => {
        const res = await fetch(`${serve.url}/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            responses_create_params: { input: [{ role: 'user', content: s.prompt }] },
            response: {
              id: `resp_${i}`,
              object: 'response',
              output: [
                {
                  type: 'message',
                  role: 'assistant',
                  content: [{ type: 'output_text', text: s.response }],
                },
              ],
            },
            prompt_id: 'fox',
          }),
        });
        expect(res.status).toBe(200);
        return (await res.json()) as Record<string, unknown>;
      }),
    );
    for (const [i, r] of replies.entries()) {
      expect((r.response as { id: string }).id).toBe(`resp_${i}`);
      expect(typeof r.reward).toBe('number');
      const comps = r.reward_components as Record<string, number>;
      expect(Object.keys(comps)).toEqual([...REWARD_COMPONENT_KEYS.universal]);
      const sum = Object.values(comps).reduce((a, v) => a + v, 0);
      expect(Math.abs(sum - (r.reward as number))).toBeLessThanOrEqual(1e-12);
      for (const k of [...STATUS_KEYS, ...COMP]) expect(typeof r[k]).toBe('number');
    }
    const tagged = replies.map((r) => r._ng_failure_class ?? null);
    expect(tagged).toEqual([null, null, null, null, null, 'judge_failed']);
    expect(replies[5]).toMatchObject({ reward: 0, rubrica_status: 'grader_error' });
    expect(replies[4]).toMatchObject({ reward: 0, rubrica_status: 'unscoreable' });
  }, 120_000);
});

describe('record components from the real pipeline', () => {
  it('POST /v1/rewards: components sum to the reward on ok, unscoreable and fault records', async () => {
    const samples = group();
    const res = await fetch(`${serve.url}/v1/rewards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        items: samples.map((s, i) => ({
          id: `r${i}`,
          prompt_id: 'fox',
          prompt: s.prompt,
          completion: s.response,
        })),
      }),
    });
    const { results } = (await res.json()) as {
      results: Array<{ reward: number; status: string; components: Record<string, number> }>;
    };
    for (const [i, r] of results.entries()) {
      expect(Object.keys(r.components)).toEqual([...REWARD_COMPONENT_KEYS.universal]);
      const sum = Object.values(r.components).reduce((a, v) => a + v, 0);
      expect(Math.abs(sum - r.reward)).toBeLessThanOrEqual(1e-12);
      if (samples[i]!.kind === 'ok') {
        expect(r.status).toBe('ok');
        expect(Object.values(r.components).filter((v) => v > 0).length).toBeGreaterThan(1);
      } else {
        expect(Object.values(r.components).every((v) => v === 0)).toBe(true);
      }
    }
  }, 120_000);
});
