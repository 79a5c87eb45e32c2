// The per-sample trainer routes in-process (app.request) against the in-test scorer: requests
// arriving together are gathered into one scored batch (so a grader fault is imputed from its
// group-mates), every shape carries the same keys on every path, components travel as
// comp_<key>, NeMo Gym's verify tags grader faults. The real serve process, judge double and
// trainers' rhythms are in trainer-contracts.slow.test.ts.
import { describe, expect, it } from 'vitest';
import { REWARD_COMPONENT_KEYS } from '../../src/reward/components.ts';
import { createServer } from '../../src/server/app.ts';
import { createFakeScorer } from './fake-scorer.ts';

// biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
const read = async (res: Response): Promise<any> => res.json();
const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

// Group g: three measured rollouts and one judge fault, as four one-sample requests.
const completions = ['reward=0.2', 'reward=0.5', 'JUDGE_ERROR', 'reward=0.8'];
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
const COMP = REWARD_COMPONENT_KEYS.ruler.map((k) => `comp_${k}`);

describe('gathering per-sample requests', () => {
  it('OpenRLHF one-sample requests sent together are scored as one batch', async () => {
    const scorer = createFakeScorer();
    const app = createServer({ scorer });
    const outs = await Promise.all(
      completions.map(async (q) =>
        read(await app.request('/v1/openrlhf', post({ query: [q], prompts: [''], labels: ['g'] }))),
      ),
    );
    expect(scorer.calls).toHaveLength(1);
    expect(scorer.calls[0]!.items).toHaveLength(4);
    expect(outs.map((o) => o.rewards[0])).toEqual([0.2, 0.5, 0.5, 0.8]);
    for (const o of outs) {
      expect(Object.keys(o.extra_logs).sort()).toEqual([...STATUS_KEYS, ...COMP].sort());
      for (const v of Object.values(o.extra_logs) as number[][]) {
        expect(v).toHaveLength(1);
        expect(typeof v[0]).toBe('number');
      }
      const sum = COMP.reduce((a, k) => a + o.extra_logs[k][0], 0);
      expect(sum).toBeCloseTo(o.rewards[0], 12);
    }
    expect(outs[2].extra_logs.grader_error).toEqual([1]);
  });

  it('a zero window scores each request alone', async () => {
    const scorer = createFakeScorer();
    const app = createServer({ scorer, gather: { windowMs: 0 } });
    await Promise.all(
      completions.map((q) => app.request('/v1/openrlhf', post({ query: [q], labels: ['g'] }))),
    );
    expect(scorer.calls).toHaveLength(4);
  });

  it('requests asking for different rewards never share a batch', async () => {
    const scorer = createFakeScorer();
    const app = createServer({ scorer });
    await Promise.all([
      app.request('/v1/slime', post({ prompt: 'x', response: 'reward=0.1', label: 'g' })),
      app.request(
        '/v1/slime',
        post({ prompt: 'x', response: 'reward=0.1', label: 'g', reward: 'universal' }),
      ),
    ]);
    expect(scorer.calls).toHaveLength(2);
  });
});

describe('POST /v1/openrlhf with an empty batch', () => {
  it('answers empty lists with the fixed keys (what older OpenRLHF sends extra replicas)', async () => {
    const scorer = createFakeScorer();
    const app = createServer({ scorer });
    const res = await app.request('/v1/openrlhf', post({ query: [], prompts: [], labels: [] }));
    expect(res.status).toBe(200);
    const out = await read(res);
    expect(out.rewards).toEqual([]);
    expect(out.scores).toEqual([]);
    expect(Object.keys(out.extra_logs).sort()).toEqual([...STATUS_KEYS].sort());
    expect(scorer.calls).toHaveLength(0);
  });
});

describe('POST /v1/slime', () => {
  it('reads a chat-list prompt and the label; reward, status and components', async () => {
    const scorer = createFakeScorer();
    const app = createServer({ scorer });
    const res = await app.request(
      '/v1/slime',
      post({
        prompt: [
          { role: 'system', content: 'You draw SVG.' },
          { role: 'user', content: 'A red fox' },
        ],
        response: 'reward=0.7',
        label: 'fox',
        metadata: { anything: 1 },
      }),
    );
    expect(res.status).toBe(200);
    const out = await read(res);
    expect(out).toMatchObject({ reward: 0.7, status: 'ok', reason: '', scored: 1 });
    expect(Object.keys(out.components)).toEqual([...REWARD_COMPONENT_KEYS.ruler]);
    expect(scorer.calls[0]!.items[0]).toMatchObject({
      prompt_id: 'fox',
      prompt: 'A red fox',
      completion: 'reward=0.7',
    });
  });
});

describe('POST /verify (NeMo Gym)', () => {
  const body = (text: string) => ({
    responses_create_params: { input: [{ role: 'user', content: 'A red fox' }] },
    response: {
      id: 'resp_1',
      output: [
        { type: 'reasoning', summary: [] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
      ],
    },
    prompt_id: 'fox',
    task_index: 3,
  });

  it('echoes the request with reward and reward_components', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    const out = await read(await app.request('/verify', post(body('reward=0.4'))));
    expect(out).toMatchObject({ reward: 0.4, task_index: 3, rubrica_status: 'ok' });
    expect(out.response.id).toBe('resp_1');
    expect(Object.keys(out.reward_components)).toEqual([...REWARD_COMPONENT_KEYS.ruler]);
    expect(out._ng_failure_class).toBeUndefined();
  });

  it('tags a grader fault as NeMo Gym’s judge_failsafe does, also under /ng-rollout', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    for (const path of ['/verify', '/ng-rollout/abc/verify']) {
      const res = await app.request(path, post(body('JUDGE_ERROR')));
      expect(res.status).toBe(200);
      const out = await read(res);
      expect(out).toMatchObject({
        reward: 0,
        grader_error: 1,
        rubrica_status: 'grader_error',
        _ng_failure_class: 'judge_failed',
      });
      expect(out._ng_failure_judge_error).toMatch(/judge_error/);
    }
  });

  it('an unscoreable answer is a measured 0, not tagged', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    const out = await read(await app.request('/verify', post(body('no drawing'))));
    expect(out).toMatchObject({ reward: 0, rubrica_status: 'unscoreable', grader_error: 0 });
    expect(out._ng_failure_class).toBeUndefined();
  });
});

describe('GET /v1/components', () => {
  it('serves the key table', async () => {
    const app = createServer({ scorer: createFakeScorer() });
    const out = await read(await app.request('/v1/components'));
    expect(out).toEqual(
      Object.fromEntries(Object.entries(REWARD_COMPONENT_KEYS).map(([k, v]) => [k, [...v]])),
    );
  });
});
