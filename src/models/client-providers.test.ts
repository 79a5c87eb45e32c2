// The same client over the other wires: Anthropic Messages, OpenAI proper, keys and setup
// errors. The double answers; the assertions look at what really travelled.
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonAnswer, type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { createModelClient } from './client.ts';
import { ModelConfigError } from './errors.ts';
import type { ChatMessage } from './types.ts';

let double: ModelDouble;
let png: string;

beforeAll(async () => {
  double = await startModelDouble();
  const buf = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  png = `data:image/png;base64,${buf.toString('base64')}`;
});
afterAll(() => double.close());
beforeEach(() => double.reset());

const items = z.object({
  items: z.array(z.object({ key: z.string(), score: z.number().min(0).max(1) })).min(1),
});
const messages = (): ChatMessage[] => [
  { role: 'system', content: 'Score each item.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'The picture:' },
      { type: 'image', dataUrl: png },
    ],
  },
];
const fast = { retryBaseMs: 5, retryMaxMs: 20 };

describe('anthropic', () => {
  it('sends base64 image blocks and the schema, reads the answer and prices it', async () => {
    double.enqueue(
      { status: 429, headers: { 'retry-after': '0' } },
      jsonAnswer(
        { items: [{ key: 'fit', score: 0.9 }] },
        { usage: { inputTokens: 1000, outputTokens: 100 } },
      ),
    );
    const c = createModelClient('anthropic:claude-sonnet-4-5', {
      role: 'judge',
      baseUrl: double.url,
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      ...fast,
    });
    const r = await c.generateObject(messages(), items, 'scores');
    expect(r).toMatchObject({
      ok: true,
      value: { items: [{ key: 'fit', score: 0.9 }] },
      attempts: 2,
    });
    expect(r.usage.costUsd).toBeCloseTo((1000 * 3 + 100 * 15) / 1e6, 12);
    const req = double.requests[1]!;
    expect(req.api).toBe('anthropic');
    expect(req.headers['x-api-key']).toBe('sk-ant-test');
    expect(req.body.system).toEqual([{ type: 'text', text: 'Score each item.' }]);
    const content = (req.body.messages as { content: unknown[] }[])[0]!.content;
    expect(content).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: png.split(',')[1] },
    });
    expect(req.schema).toMatchObject({ type: 'object', required: ['items'] });
  });

  it('counts a schema-invalid Anthropic answer as invalid_answer', async () => {
    double.script(() => jsonAnswer({ items: [] }));
    const c = createModelClient('anthropic:claude-haiku-4-5', {
      role: 'judge',
      baseUrl: double.url,
      apiKey: 'k',
      maxRetries: 1,
      env: {},
      ...fast,
    });
    const r = await c.generateObject(messages(), items, 'scores');
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_answer' }, attempts: 2 });
  });
});

describe('openai', () => {
  it('uses chat completions with a bearer key and a non-strict json_schema', async () => {
    double.enqueue(jsonAnswer({ items: [{ key: 'a', score: 0 }] }));
    const c = createModelClient('openai:gpt-5-mini', {
      role: 'author',
      baseUrl: double.url,
      env: { RUBRICA_AUTHOR_API_KEY: 'sk-role', OPENAI_API_KEY: 'sk-generic' },
    });
    const r = await c.generateObject(messages(), items, 'scores');
    expect(r.ok).toBe(true);
    const req = double.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-role');
    expect(req.responseFormat).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'scores', strict: false },
    });
    expect(req.images).toEqual([png]);
  });
});

describe('google', () => {
  it('sends inline PNG data and a response schema to generateContent, retries a 503', async () => {
    double.enqueue(
      { status: 503 },
      jsonAnswer(
        { items: [{ key: 'style', score: 0.6 }] },
        { usage: { inputTokens: 2000, outputTokens: 400 } },
      ),
    );
    const c = createModelClient('google:gemini-2.5-flash', {
      role: 'judge',
      baseUrl: double.googleUrl,
      env: { GOOGLE_GENERATIVE_AI_API_KEY: 'g-key' },
      ...fast,
    });
    const r = await c.generateObject(messages(), items, 'scores');
    expect(r).toMatchObject({
      ok: true,
      value: { items: [{ key: 'style', score: 0.6 }] },
      attempts: 2,
    });
    expect(r.usage.costUsd).toBeCloseTo((2000 * 0.3 + 400 * 2.5) / 1e6, 12);
    const req = double.requests[1]!;
    expect(req).toMatchObject({ api: 'google', model: 'gemini-2.5-flash', images: [png] });
    expect(req.headers['x-goog-api-key']).toBe('g-key');
    expect(req.messages[0]).toMatchObject({ role: 'system', text: 'Score each item.' });
    expect(req.body.generationConfig).toMatchObject({ responseMimeType: 'application/json' });
    expect(req.schema).toMatchObject({ type: 'object', required: ['items'] });
  });
});

describe('keys and setup', () => {
  it('sends VLLM_API_KEY to vLLM and no key to a bare local server', async () => {
    double.script(() => ({ content: 'ok' }));
    const env = { VLLM_API_KEY: 'vk' };
    await createModelClient('vllm:m', { role: 'judge', baseUrl: double.url, env }).generateText(
      messages(),
    );
    await createModelClient('ollama:qwen3-vl:8b', {
      role: 'judge',
      baseUrl: double.url,
      env: { OPENAI_API_KEY: 'x' },
    }).generateText(messages());
    expect(double.requests[0]!.headers.authorization).toBe('Bearer vk');
    expect(double.requests[1]!.headers.authorization).toBeUndefined();
    expect(double.requests[1]!.model).toBe('qwen3-vl:8b');
  });

  it('takes the base URL from RUBRICA_<ROLE>_BASE_URL', async () => {
    double.enqueue({ content: 'hello' });
    const c = createModelClient('sglang:m', {
      role: 'policy',
      env: { RUBRICA_POLICY_BASE_URL: double.url },
    });
    expect(c.baseUrl).toBe(double.url);
    expect(await c.generateText(messages())).toMatchObject({ ok: true, value: 'hello' });
  });

  it('fails before any call when a hosted key or a generic base URL is missing', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return err instanceof ModelConfigError ? err.code : String(err);
      }
      return 'no error';
    };
    expect(code(() => createModelClient('openai:gpt-5', { role: 'judge', env: {} }))).toBe(
      'missing_api_key',
    );
    expect(
      code(() => createModelClient('google:gemini-2.5-flash', { role: 'judge', env: {} })),
    ).toBe('missing_api_key');
    expect(code(() => createModelClient('openai-compatible:m', { role: 'judge', env: {} }))).toBe(
      'missing_base_url',
    );
    expect(code(() => createModelClient('llama:m', { role: 'judge', env: {} }))).toBe(
      'unknown_provider',
    );
    const g = createModelClient('google:gemini-2.5-flash', {
      role: 'judge',
      env: { GOOGLE_GENERATIVE_AI_API_KEY: 'g' },
    });
    expect(g.baseUrl).toBe('https://generativelanguage.googleapis.com/v1beta');
    expect(double.requests).toHaveLength(0);
  });
});
