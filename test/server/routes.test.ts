// Route-level behaviour of the reward server, in-process (app.request), against an in-test
// scorer: request/response shapes, GRPO groups, auth, limits, backpressure, metrics, OpenAPI.
// The real scorer, renderer and judge double are exercised in e2e.test.ts.
import { describe, expect, it } from 'vitest';
import { groupAdvantages } from '../../src/reward/grpo.ts';
import { createAdmission } from '../../src/server/admission.ts';
import { createServer } from '../../src/server/app.ts';
import { createServerMetrics } from '../../src/server/metrics.ts';
import { createFakeScorer } from './fake-scorer.ts';

// Response bodies are read loosely here; each test asserts the fields it cares about.
// biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
const read = async (res: Response): Promise<any> => res.json();

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('POST /v1/rewards', () => {
  it('answers in request order with group stats and advantages per prompt', async () => {
    const scorer = createFakeScorer();
    const app = createServer({ scorer });
    const items = [
      { id: 'a1', prompt_id: 'A', completion: 'reward=0.2' },
      { id: 'b1', prompt_id: 'B', completion: 'reward=0.9' },
      { id: 'a2', prompt_id: 'A', completion: 'reward=0.6' },
      { id: 'a3', prompt_id: 'A', completion: 'no drawing' },
      { id: 'c1', prompt: '  a red   fox ', completion: 'reward=0.5' },
      { id: 'c2', prompt: 'a red fox', completion: 'reward=0.7' },
    ];
    const res = await app.request('/v1/rewards', post({ items, reward: 'universal' }));
    expect(res.status).toBe(200);
    const { results } = await read(res);
    expect(results.map((r: { id: string }) => r.id)).toEqual(['a1', 'b1', 'a2', 'a3', 'c1', 'c2']);
    expect(scorer.calls[0]!.opts?.reward).toBe('universal');
    // Group A: rewards 0.2, 0.6, 0 → mean 0.2667, unbiased std = sqrt(((−.0667)²+(.3333)²+(−.2667)²)/2)
    const a = results[0].group;
    expect(a).toMatchObject({ key: 'A', size: 3, min: 0, max: 0.6 });
    expect(a.mean).toBeCloseTo(0.8 / 3, 10);
    const std = Math.sqrt(((0.2 - 0.8 / 3) ** 2 + (0.6 - 0.8 / 3) ** 2 + (0.8 / 3) ** 2) / 2);
    expect(a.std).toBeCloseTo(std, 10);
    expect(results[2].advantage).toBeCloseTo((0.6 - 0.8 / 3) / (std + 1e-6), 6);
    expect(results[3]).toMatchObject({ status: 'unscoreable', reason: 'no_svg', reward: 0 });
    // A group of one: verl's rule (mean 0, std 1) gives R / (1 + ε).
    expect(results[1].group).toMatchObject({ key: 'B', size: 1, std: 0 });
    expect(results[1].advantage).toBeCloseTo(0.9 / (1 + 1e-6), 12);
    // Prompt text groups after whitespace normalisation.
    expect(results[4].group.key).toBe('prompt:a red fox');
    expect(results[5].group.size).toBe(2);
    expect(results[4].advantage).toBeCloseTo(-results[5].advantage, 10);
  });

  it('gives no_rubric as a result, not an HTTP error', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    const res = await app.request(
      '/v1/rewards',
      post({ items: [{ id: 'x', completion: 'reward=1' }] }),
    );
    expect(res.status).toBe(200);
    const { results } = await read(res);
    expect(results[0]).toMatchObject({ status: 'unscoreable', reason: 'no_rubric', reward: 0 });
  });

  it('a reward the server cannot give is a 400 naming it, not a 500', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    const items = [{ id: 'x', prompt_id: 'p', completion: 'reward=1' }];
    const res = await app.request('/v1/rewards', post({ items, reward: 'hybrid' }));
    expect(res.status).toBe(400);
    expect((await read(res)).error).toMatchObject({ code: 'hybrid_unavailable' });
    expect((await read(await app.request('/healthz'))).in_flight).toBe(0);
  });

  it('refuses malformed requests with a readable 400', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    const cases: Array<[unknown, RegExp]> = [
      ['{not json', /bad request/i],
      [{ items: [] }, /items/],
      [{ items: [{ id: 'x' }] }, /items\.0\.completion/],
      [{ items: [{ id: 'x', completion: 1 }] }, /completion/],
      [{ items: [{ id: 'x', completion: 'c' }], reward: 'clip' }, /reward/],
    ];
    for (const [body, pattern] of cases) {
      const res = await app.request('/v1/rewards', post(body));
      expect(res.status).toBe(400);
      const err = (await res.json()) as { error: { message: string } };
      expect(err.error.message).toMatch(pattern);
    }
  });
});

describe('POST /v1/verl', () => {
  it('maps ground_truth to prompt_id and answers flat dicts with one key set per batch', async () => {
    const scorer = createFakeScorer();
    const app = createServer({ scorer });
    const body = {
      data_sources: ['rubrica', 'rubrica', 'rubrica'],
      solution_strs: ['reward=0.4', 'nothing here', 'JUDGE_ERROR reward=1'],
      ground_truths: ['p1', 'p2', 7],
      extra_infos: [{ prompt: 'a cat', index: 0 }, null, { id: 'roll-3' }],
    };
    const res = await app.request('/v1/verl', post(body));
    expect(res.status).toBe(200);
    const out = (await res.json()) as Array<Record<string, unknown>>;
    const items = scorer.calls[0]!.items;
    expect(items.map((i) => [i.id, i.prompt_id, i.prompt])).toEqual([
      ['verl-0', 'p1', 'a cat'],
      ['verl-1', 'p2', null],
      ['roll-3', '7', null],
    ]);
    expect(out[0]).toMatchObject({
      score: 0.4,
      status: 'ok',
      reason: '',
      scored: 1,
      crit_concept: 0.4,
    });
    expect(out[1]).toMatchObject({ score: 0, reason: 'no_svg', renders: 0, crit_concept: null });
    expect(out[2]).toMatchObject({
      score: 0,
      status: 'grader_error',
      reason: 'judge_error',
      judge_error: 1,
      grader_error: 1,
    });
    const keys = Object.keys(out[0]!).sort();
    for (const o of out) expect(Object.keys(o).sort()).toEqual(keys);
  });

  it('rejects lists of different lengths', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    const res = await app.request(
      '/v1/verl',
      post({ data_sources: ['a'], solution_strs: ['x', 'y'], ground_truths: ['p', 'q'] }),
    );
    expect(res.status).toBe(400);
    expect((await read(res)).error.message).toMatch(/data_sources has 1 entries/);
  });
});

describe('POST /v1/openrlhf', () => {
  it('strips the templated prompt and end tokens; label is the rubric id', async () => {
    const scorer = createFakeScorer();
    const app = createServer({ scorer });
    const prompt =
      '<|im_start|>system\nYou draw SVG.<|im_end|>\n<|im_start|>user\nA red fox<|im_end|>\n<|im_start|>assistant\n';
    const body = {
      query: [`${prompt}reward=0.75<|im_end|><|endoftext|>`, `${prompt}oops<|im_end|>`],
      prompts: [prompt, prompt],
      labels: ['fox', ''],
    };
    const res = await app.request('/v1/openrlhf', post(body));
    expect(res.status).toBe(200);
    const out = await read(res);
    expect(out.rewards).toEqual([0.75, 0]);
    expect(out.scores).toEqual([0.75, 0]);
    expect(out.extra_logs.scored).toEqual([1, 0]);
    expect(out.extra_logs.judge_calls).toEqual([1, 0]);
    const items = scorer.calls[0]!.items;
    expect(items[0]).toMatchObject({
      prompt_id: 'fox',
      prompt: 'A red fox',
      completion: 'reward=0.75',
    });
    expect(items[1]).toMatchObject({ prompt_id: null, prompt: 'A red fox', completion: 'oops' });
  });
});

describe('grader faults in every trainer shape', () => {
  // Group g: three measured rollouts and one judge fault.
  const completions = ['reward=0.2', 'reward=0.5', 'JUDGE_ERROR', 'reward=0.8'];
  const measured = [0.2, 0.5, 0.8];
  const mean = 0.5;

  it('native: the fault gets advantage 0 and the others keep the advantages of the group without it', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    const items = completions.map((completion, i) => ({ id: `r${i}`, prompt_id: 'g', completion }));
    const { results } = await read(await app.request('/v1/rewards', post({ items })));
    expect(results[2]).toMatchObject({ status: 'grader_error', advantage: 0 });
    const without = groupAdvantages(measured);
    expect([results[0].advantage, results[1].advantage, results[3].advantage]).toEqual(without);
    expect(results[0].group).toMatchObject({ size: 3, excluded: 1, mean });
  });

  it('verl and OpenRLHF: the fault is sent as its group-mates’ mean and flagged', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    const verl = await app.request(
      '/v1/verl',
      post({
        data_sources: completions.map(() => 'x'),
        solution_strs: completions,
        ground_truths: completions.map(() => 'g'),
      }),
    );
    const out = (await verl.json()) as Array<Record<string, unknown>>;
    expect(out.map((o) => o.score)).toEqual([0.2, 0.5, mean, 0.8]);
    expect(out.map((o) => o.grader_error)).toEqual([0, 0, 1, 0]);
    expect(out[2]).toMatchObject({ status: 'grader_error', reason: 'judge_error' });
    const orl = await app.request(
      '/v1/openrlhf',
      post({ query: completions, labels: completions.map(() => 'g') }),
    );
    const body = (await orl.json()) as { rewards: number[]; extra_logs: Record<string, number[]> };
    expect(body.rewards).toEqual([0.2, 0.5, mean, 0.8]);
    expect(body.extra_logs.grader_error).toEqual([0, 0, 1, 0]);
  });
});

describe('auth, limits and backpressure', () => {
  it('needs the bearer token on every route but /healthz', async () => {
    const app = createServer({ scorer: createFakeScorer(), token: 's3cret' });
    const body = post({ items: [{ id: 'x', prompt_id: 'p', completion: 'reward=1' }] });
    expect((await app.request('/healthz')).status).toBe(200);
    expect((await app.request('/v1/rewards', body)).status).toBe(401);
    expect((await app.request('/metrics')).status).toBe(401);
    expect((await app.request('/openapi.json')).status).toBe(401);
    const wrong = post({ items: [] }, { authorization: 'Bearer nope' });
    expect((await app.request('/v1/rewards', wrong)).status).toBe(401);
    const right = post(
      { items: [{ id: 'x', prompt_id: 'p', completion: 'reward=1' }] },
      { authorization: 'Bearer s3cret' },
    );
    expect((await app.request('/v1/rewards', right)).status).toBe(200);
  });

  it('every 401 says what is wrong; Basic auth is a 401, not a 400', async () => {
    const app = createServer({ scorer: createFakeScorer(), token: 's3cret' });
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{}, /missing "Authorization: Bearer <token>" header/],
      [{ authorization: 'Basic dXNlcjpzM2NyZXQ=' }, /scheme "Basic" is not accepted/],
      [{ authorization: 'Bearer two words' }, /malformed Authorization header/],
      [{ authorization: 'Bearer nope' }, /not the one this server was started with/],
    ];
    for (const [headers, message] of cases) {
      const res = await app.request('/v1/rewards', post({ items: [] }, headers));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="rubrica"/);
      const { error } = await read(res);
      expect(error.code).toBe('unauthorized');
      expect(error.message).toMatch(message);
    }
    expect((await app.request('/readyz')).status).toBe(200); // probes need no token
  });

  it('an empty or unusable token cannot configure the app', () => {
    expect(() => createServer({ scorer: createFakeScorer(), token: '' })).toThrow(/empty/);
    expect(() => createServer({ scorer: createFakeScorer(), token: 'a b' })).toThrow(/Bearer/);
  });

  it('413 above the body limit, 400 above the item limit', async () => {
    const app = createServer({
      scorer: createFakeScorer(),
      limits: { maxBodyBytes: 1000, maxItemsPerRequest: 2 },
    });
    const big = post({ items: [{ id: 'x', prompt_id: 'p', completion: 'x'.repeat(2000) }] });
    const res = await app.request('/v1/rewards', big);
    expect(res.status).toBe(413);
    const three = [1, 2, 3].map((i) => ({ id: `${i}`, prompt_id: 'p', completion: 'reward=1' }));
    const res2 = await app.request('/v1/rewards', post({ items: three }));
    expect(res2.status).toBe(400);
    expect((await read(res2)).error.code).toBe('too_many_items');
  });

  it('503 with Retry-After when the in-flight bound is reached, then recovers', async () => {
    const scorer = createFakeScorer();
    const app = createServer({ scorer, limits: { maxInFlight: 4, retryAfterSeconds: 3 } });
    const items = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => ({
        id: `${tag}${i}`,
        prompt_id: 'p',
        completion: 'reward=0.5',
      }));
    const release = scorer.hold();
    const first = app.request('/v1/rewards', post({ items: items(3, 'a') }));
    await new Promise((r) => setTimeout(r, 20));
    const refused = await app.request('/v1/rewards', post({ items: items(2, 'b') }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('3');
    const health = await read(await app.request('/healthz'));
    expect(health.in_flight).toBe(3);
    release();
    expect((await first).status).toBe(200);
    expect((await app.request('/v1/rewards', post({ items: items(4, 'c') }))).status).toBe(200);
  });

  it('a draining server refuses new work and /healthz says so', async () => {
    const admission = createAdmission(10);
    const app = createServer({ scorer: createFakeScorer(), admission });
    admission.startDraining();
    const res = await app.request('/v1/rewards', post({ items: [{ id: 'x', completion: 'c' }] }));
    expect(res.status).toBe(503);
    expect((await app.request('/healthz')).status).toBe(503);
  });
});

describe('metrics and OpenAPI', () => {
  it('counts requests, rollouts by status, judge calls and in-flight', async () => {
    const metrics = createServerMetrics({ defaultMetrics: false });
    const app = createServer({ scorer: createFakeScorer(), metrics });
    const items = [
      { id: '1', prompt_id: 'p', completion: 'reward=0.5' },
      { id: '2', prompt_id: 'p', completion: 'JUDGE_ERROR' },
      { id: '3', prompt_id: 'p', completion: 'none' },
    ];
    await app.request('/v1/rewards', post({ items }));
    await app.request('/v1/rewards', post({ items: [] }));
    const text = await (await app.request('/metrics')).text();
    expect(text).toContain('rubrica_http_requests_total{route="/v1/rewards",status="200"} 1');
    expect(text).toContain('rubrica_http_requests_total{route="/v1/rewards",status="400"} 1');
    expect(text).toContain('rubrica_rollouts_total{status="ok",reason="none"} 1');
    expect(text).toContain('rubrica_rollouts_total{status="grader_error",reason="judge_error"} 1');
    expect(text).toContain('rubrica_rollouts_total{status="unscoreable",reason="no_svg"} 1');
    expect(text).toContain('rubrica_judge_calls_total 1');
    expect(text).toContain('rubrica_in_flight_rollouts 0');
    expect(text).toMatch(/rubrica_render_seconds_count 2/);
  });

  it('serves an OpenAPI document generated from the request schemas', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    const doc = await read(await app.request('/openapi.json'));
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/healthz',
      '/ng-rollout/{rollout}/verify',
      '/readyz',
      '/v1/components',
      '/v1/openrlhf',
      '/v1/rewards',
      '/v1/slime',
      '/v1/verl',
      '/verify',
    ]);
    const schema = doc.components.schemas.RewardsRequest;
    expect(schema.required).toContain('items');
    expect(doc.components.schemas.RolloutItem.required).toEqual(['id', 'completion']);
  });
});
