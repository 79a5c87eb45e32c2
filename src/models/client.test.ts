// createModelClient against the loopback double over the real OpenAI-compatible protocol:
// answers, tolerant parsing, retries, timeouts, validation, wire format, limits and usage.
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { answerJsonSchema } from './answer-schema.ts';
import { createModelClient, type ModelClientOptions } from './client.ts';
import type { ChatMessage } from './types.ts';

let double: ModelDouble;
let png: string;

beforeAll(async () => {
  double = await startModelDouble();
  const buf = await sharp({
    create: { width: 16, height: 16, channels: 4, background: '#3a7' },
  })
    .png()
    .toBuffer();
  png = `data:image/png;base64,${buf.toString('base64')}`;
});
afterAll(() => double.close());
beforeEach(() => double.reset());

const verdict = z.object({
  reasoning: z.string().min(1),
  score: z.number().min(0).max(1),
});

const client = (opts: Partial<ModelClientOptions> = {}) =>
  createModelClient('vllm:Qwen/Qwen3-VL-8B-Instruct', {
    role: 'judge',
    baseUrl: double.url,
    retryBaseMs: 5,
    retryMaxMs: 20,
    env: {},
    ...opts,
  });

const ask: ChatMessage[] = [
  { role: 'system', content: 'You are a strict judge.' },
  { role: 'user', content: 'Judge this drawing of a green square.' },
];
const withImage = (): ChatMessage[] => [
  ask[0]!,
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Judge this.' },
      { type: 'image', dataUrl: png },
    ],
  },
];

describe('generateObject', () => {
  it('sends requestSchema when given, and parses the answer with the looser schema', async () => {
    const strict = z.object({ colour: z.enum(['red', 'green']) });
    const loose = z.record(z.string(), z.unknown());
    double.enqueue(jsonAnswer({ colour: 'mauve' }));
    const r = await client().generateObject(ask, loose, 'colour', { requestSchema: strict });
    // The wire carries the strict schema (what a guided decoder would be held to)…
    expect(double.requests[0]!.schema).toEqual(await answerJsonSchema(strict));
    expect(double.requests[0]!.schema).toMatchObject({
      properties: { colour: { enum: ['red', 'green'] } },
    });
    // …while an unguided answer outside it still comes back for the caller to judge.
    expect(r).toMatchObject({ ok: true, value: { colour: 'mauve' }, attempts: 1 });
  });

  it('sends the image as a data URI and the schema in response_format, and parses the answer', async () => {
    double.enqueue(jsonAnswer({ reasoning: 'clean shapes', score: 0.8 }));
    const r = await client().generateObject(withImage(), verdict, 'verdict', { temperature: 0 });
    expect(r).toMatchObject({ ok: true, value: { reasoning: 'clean shapes', score: 0.8 } });
    const req = double.requests[0]!;
    expect(req.model).toBe('Qwen/Qwen3-VL-8B-Instruct');
    expect(req.images).toEqual([png]);
    expect(req.body.messages).toContainEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Judge this.' },
        { type: 'image_url', image_url: { url: png } },
      ],
    });
    expect(req.responseFormat).toMatchObject({
      type: 'json_schema',
      json_schema: {
        name: 'verdict',
        schema: { type: 'object', required: ['reasoning', 'score'] },
      },
    });
    expect(req.schema?.properties).toMatchObject({
      score: { type: 'number', minimum: 0, maximum: 1 },
    });
    expect(req.body.temperature).toBe(0);
  });

  it.each([
    ['a ```json fence', '```json\n{"reasoning":"ok","score":0.5}\n```'],
    [
      'a <think> block first',
      '<think>{"score": 9} is wrong</think>\n{"reasoning":"ok","score":0.5}',
    ],
    ['prose around the JSON', 'Here is my verdict: {"reasoning":"ok","score":0.5} Hope it helps.'],
  ])('reads an answer wrapped in %s', async (_, content) => {
    double.enqueue({ content });
    const r = await client().generateObject(ask, verdict, 'verdict');
    expect(r).toMatchObject({
      ok: true,
      value: { reasoning: 'ok', score: 0.5 },
      raw: content,
      attempts: 1,
    });
  });

  it('retries schema-invalid answers, then succeeds', async () => {
    double.enqueue(
      jsonAnswer({ reasoning: 'too generous', score: 1.7 }),
      jsonAnswer({ score: 0.4 }),
      jsonAnswer({ reasoning: 'fine', score: 0.4 }),
    );
    const r = await client().generateObject(ask, verdict, 'verdict');
    expect(r).toMatchObject({ ok: true, value: { score: 0.4 }, attempts: 3 });
    expect(double.requests).toHaveLength(3);
  });

  it('gives invalid_answer after the retries, with the last raw text', async () => {
    double.script(() => jsonAnswer({ reasoning: 'x', score: 1.7 }));
    const r = await client({ maxRetries: 2 }).generateObject(ask, verdict, 'verdict');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid_answer');
    expect(r.error.message).toMatch(/score/);
    expect(r.raw).toBe('{"reasoning":"x","score":1.7}');
    expect(r.attempts).toBe(3);
    expect(r.usage.calls).toBe(3);
    expect(double.requests).toHaveLength(3);
  });

  it('reports a missing field by name', async () => {
    double.script(() => jsonAnswer({ score: 0.2 }));
    const r = await client({ maxRetries: 0 }).generateObject(ask, verdict, 'verdict');
    expect(r.ok ? '' : r.error.message).toMatch(/reasoning/);
  });

  it('treats text without JSON as invalid', async () => {
    double.script(() => ({ content: 'I cannot judge this image.' }));
    const r = await client({ maxRetries: 1 }).generateObject(ask, verdict, 'verdict');
    expect(r.ok ? '' : r.error.code).toBe('invalid_answer');
  });
});

describe('retries and faults', () => {
  it('waits out a 429 retry-after, then succeeds', async () => {
    double.enqueue({ status: 429, headers: { 'retry-after': '1' } }, { content: 'done' });
    const t0 = Date.now();
    const r = await client().generateText(ask);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(r).toMatchObject({ ok: true, value: 'done', attempts: 2 });
  });

  it('caps a long retry-after', async () => {
    double.enqueue({ status: 429, headers: { 'retry-after': '3600' } }, { content: 'done' });
    const t0 = Date.now();
    const r = await client({ retryAfterCapMs: 50 }).generateText(ask);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r.ok).toBe(true);
  });

  it('retries a 500, then succeeds', async () => {
    double.enqueue({ status: 500 }, { status: 503 }, { content: 'recovered' });
    const r = await client().generateText(ask);
    expect(r).toMatchObject({ ok: true, value: 'recovered', attempts: 3 });
  });

  it('does not retry a 400 and keeps the status', async () => {
    double.enqueue({ status: 400, body: '{"error":{"message":"bad image"}}' });
    const r = await client().generateText(ask);
    expect(r).toMatchObject({ ok: false, error: { code: 'http_error', status: 400 }, attempts: 1 });
    expect(r.ok ? '' : r.error.message).toMatch(/bad image/);
  });

  it('gives http_error with the status when 5xx never stops', async () => {
    double.script(() => ({ status: 502 }));
    const r = await client({ maxRetries: 2 }).generateText(ask);
    expect(r).toMatchObject({ ok: false, error: { code: 'http_error', status: 502 }, attempts: 3 });
  });

  it('times out a hanging server per attempt', async () => {
    double.script(() => ({ hang: true }));
    const t0 = Date.now();
    const r = await client({ timeoutMs: 150, maxRetries: 1 }).generateText(ask);
    const took = Date.now() - t0;
    expect(r).toMatchObject({ ok: false, error: { code: 'timeout' }, attempts: 2 });
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(3000);
  });

  it('retries a malformed body, then reports bad_response', async () => {
    double.enqueue({ raw: 'not json' }, { content: 'fine' });
    expect(await client().generateText(ask)).toMatchObject({ ok: true, value: 'fine' });
    double.script(() => ({ raw: '{"choices": [' }));
    const r = await client({ maxRetries: 1 }).generateText(ask);
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_response' }, attempts: 2 });
  });

  it('reports network errors when nothing listens', async () => {
    const gone = await startModelDouble();
    const url = gone.url;
    await gone.close();
    const r = await client({ baseUrl: url, maxRetries: 1 }).generateText(ask);
    expect(r).toMatchObject({ ok: false, error: { code: 'network' }, attempts: 2 });
  });

  it('opens the circuit after failed attempts in a row and then fails fast without calling', async () => {
    double.script(() => ({ status: 503 }));
    const events: string[] = [];
    const c = client({
      circuitBreaker: { failureThreshold: 3, cooldownMs: 60_000 },
      onCircuitChange: (e) => events.push(`${e.state}:${e.failures}:${e.baseUrl}`),
    });
    const first = await c.generateText(ask);
    expect(first).toMatchObject({ ok: false, error: { code: 'circuit_open' } });
    expect(double.requests).toHaveLength(3);
    const t0 = performance.now();
    const second = await c.generateText(ask);
    expect(performance.now() - t0).toBeLessThan(50);
    expect(second.ok).toBe(false);
    if (!second.ok) {
      expect(second.error.message).toMatch(
        /^circuit open: vllm:Qwen\/Qwen3-VL-8B-Instruct at http:\/\/127\.0\.0\.1:\d+\/v1 failed 3 attempts in a row; last: http_error/,
      );
    }
    expect(double.requests).toHaveLength(3); // not called again
    expect(events).toEqual([`open:3:${double.url}`]);
    expect(c.health()).toMatchObject({ state: 'open', consecutiveFailures: 3 });
  });

  it('stops at once when the caller aborts', async () => {
    double.script(() => ({ hang: true }));
    const r = await client().generateText(ask, { signal: AbortSignal.timeout(100) });
    expect(r).toMatchObject({ ok: false, error: { code: 'aborted' }, attempts: 1 });
  });
});

describe('limits and accounting', () => {
  it('never has more than `concurrency` requests in flight', async () => {
    double.script(() => ({ content: 'ok', delayMs: 40 }));
    const c = client({ concurrency: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => c.generateText(ask)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(double.maxInFlight).toBe(3);
  });

  it('holds the slot only on the wire: around the HTTP exchange, not the SDK around it', async () => {
    // A gate that records what each slot was held around.
    const held: unknown[] = [];
    const gate = Object.assign(
      async <T>(fn: () => Promise<T>): Promise<T> => {
        const out = await fn();
        held.push(out);
        return out;
      },
      { charge: () => {}, activeCount: 0, close: async () => {} },
    );
    double.script(() => ({ content: 'ok' }));
    const r = await client({ gate }).generateText(ask);
    expect(r).toMatchObject({ ok: true, value: 'ok' });
    // One slot, around the fetch (its fully read Response), not around the whole attempt.
    expect(held).toHaveLength(1);
    expect(held[0]).toBeInstanceOf(Response);
    expect((held[0] as Response).status).toBe(200);
  });

  it('refuses an attempt whose circuit opened while it waited for a slot, without sending it', async () => {
    double.script(() => ({ status: 503, delayMs: 30 }));
    const c = client({
      concurrency: 1,
      maxRetries: 0,
      circuitBreaker: { failureThreshold: 1, cooldownMs: 60_000 },
    });
    // One slot, three calls. The first fails and opens the circuit, but only once its answer
    // is read and classified, after it gave its slot back: the second took the slot in that
    // moment and was sent. The third waited while the circuit was open: never sent.
    const [first, second, third] = await Promise.all([
      c.generateText(ask),
      c.generateText(ask),
      c.generateText(ask),
    ]);
    expect(first).toMatchObject({ ok: false, error: { code: 'http_error' } });
    expect(second).toMatchObject({ ok: false, error: { code: 'http_error' } });
    expect(third).toMatchObject({ ok: false, error: { code: 'circuit_open' } });
    expect(third.usage.calls).toBe(0);
    expect(double.requests).toHaveLength(2);
  });

  it('sums tokens and cost over attempts, failed ones included', async () => {
    const prices = { 'vllm:Qwen/Qwen3-VL-8B-Instruct': { input: 2, output: 10 } };
    const c = client({ prices });
    double.enqueue(
      { content: 'no json here', usage: { inputTokens: 1000, outputTokens: 100 } },
      { status: 500 },
      jsonAnswer({ reasoning: 'r', score: 1 }, { usage: { inputTokens: 1000, outputTokens: 50 } }),
    );
    const r = await c.generateObject(ask, verdict, 'verdict');
    expect(r.ok).toBe(true);
    expect(r.usage).toMatchObject({ calls: 3, inputTokens: 2000, outputTokens: 150 });
    expect(r.usage.costUsd).toBeCloseTo((2000 * 2 + 150 * 10) / 1e6, 12);
    expect(r.usage.latencyMs).toBeGreaterThan(0);
    double.enqueue({ content: 'x', usage: { inputTokens: 10, outputTokens: 1 } });
    await c.generateText(ask);
    expect(c.totalUsage()).toMatchObject({ calls: 4, inputTokens: 2010, outputTokens: 151 });
  });

  it('leaves cost null when the model has no price', async () => {
    double.enqueue({ content: 'x' });
    const r = await client().generateText(ask);
    expect(r.usage.costUsd).toBeNull();
    expect(r.usage.inputTokens).toBeGreaterThan(0);
  });

  it('reports a truncated answer as finishReason length', async () => {
    double.enqueue({ content: '<svg><rect', finishReason: 'length' });
    const r = await client().generateText(ask, { maxTokens: 5 });
    expect(r).toMatchObject({ ok: true, value: '<svg><rect', finishReason: 'length' });
    expect(double.requests[0]!.body.max_tokens).toBe(5);
  });
});
