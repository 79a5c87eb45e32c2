// The model test double must speak the real protocols: these tests drive it with the AI SDK's
// own providers (no hand-written client) and with plain fetch for the faults.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, Output, streamText } from 'ai';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  fillSchema,
  jsonAnswer,
  type ModelDouble,
  routeByPrompt,
  schemaAnswer,
  startModelDouble,
} from './model-double.ts';

let double: ModelDouble;
let png: string;

beforeAll(async () => {
  double = await startModelDouble({ models: ['m1', 'm2'] });
  const buf = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 255, g: 0, b: 0 } },
  })
    .png()
    .toBuffer();
  png = `data:image/png;base64,${buf.toString('base64')}`;
});
afterAll(() => double.close());
beforeEach(() => double.reset());

const compat = () =>
  createOpenAICompatible({
    name: 'vllm',
    baseURL: double.url,
    supportsStructuredOutputs: true,
    includeUsage: true,
  });

const imageMessage = () => [
  {
    role: 'user' as const,
    content: [
      { type: 'text' as const, text: 'Score this picture of a red square.' },
      { type: 'image' as const, image: png, mediaType: 'image/png' },
    ],
  },
];

describe('model double over the OpenAI-compatible protocol', () => {
  it('answers a structured request and records the image and the schema', async () => {
    double.script(schemaAnswer());
    const schema = z.object({ score: z.number().min(0).max(1), why: z.string() });
    const res = await generateText({
      model: compat()('Qwen/Qwen3-VL-8B-Instruct'),
      messages: imageMessage(),
      output: Output.object({ schema, name: 'verdict' }),
      maxRetries: 0,
    });
    expect(res.output).toEqual({ score: 0.75, why: 'text for why' });
    const req = double.requests[0]!;
    expect(req.api).toBe('openai');
    expect(req.model).toBe('Qwen/Qwen3-VL-8B-Instruct');
    expect(req.images).toEqual([png]);
    expect(req.schemaName).toBe('verdict');
    expect(req.schema?.required).toEqual(['score', 'why']);
    expect((req.responseFormat as { type: string }).type).toBe('json_schema');
    expect(res.usage.inputTokens).toBe(Math.ceil(req.text.length / 4) + 256);
  });

  it('streams an answer as server-sent events', async () => {
    double.enqueue({
      content: 'a streamed answer of some length',
      usage: { inputTokens: 3, outputTokens: 7 },
    });
    const res = streamText({ model: compat()('m'), prompt: 'hi', maxRetries: 0 });
    expect(await res.text).toBe('a streamed answer of some length');
    expect((await res.usage).outputTokens).toBe(7);
    expect(double.requests[0]!.stream).toBe(true);
  });

  it('routes replies by prompt text and serves queued replies first', async () => {
    double.script(
      routeByPrompt([
        { when: 'apple', reply: { content: 'fruit' } },
        { when: /car|bus/, reply: () => jsonAnswer({ kind: 'vehicle' }) },
      ]),
    );
    double.enqueue({ content: 'queued' });
    const ask = async (prompt: string) =>
      (await generateText({ model: compat()('m'), prompt, maxRetries: 0 })).text;
    expect(await ask('an apple')).toBe('queued');
    expect(await ask('an apple')).toBe('fruit');
    expect(await ask('a bus')).toBe('{"kind":"vehicle"}');
    await expect(ask('a cloud')).rejects.toThrow(/no route matched/);
  });
});

describe('model double over the Anthropic Messages API', () => {
  it('answers text and records base64 image blocks as data URIs', async () => {
    double.script(() => ({ content: 'a red square', usage: { inputTokens: 11, outputTokens: 4 } }));
    const anthropic = createAnthropic({ baseURL: double.url, apiKey: 'test-key' });
    const res = await generateText({
      model: anthropic('claude-sonnet-4-5'),
      system: 'Be brief.',
      messages: imageMessage(),
      maxRetries: 0,
    });
    expect(res.text).toBe('a red square');
    expect(res.usage).toMatchObject({ inputTokens: 11, outputTokens: 4 });
    const req = double.requests[0]!;
    expect(req.api).toBe('anthropic');
    expect(req.headers['x-api-key']).toBe('test-key');
    expect(req.images).toEqual([png]);
    expect(req.messages[0]).toMatchObject({ role: 'system', text: 'Be brief.' });
  });

  it('answers structured requests whichever way the SDK asks (output format or json tool)', async () => {
    double.script(schemaAnswer());
    const anthropic = createAnthropic({ baseURL: double.url, apiKey: 'k' });
    const schema = z.object({ score: z.number().min(0).max(1) });
    for (const mode of ['outputFormat', 'jsonTool'] as const) {
      const res = await generateText({
        model: anthropic('claude-sonnet-4-5'),
        prompt: 'score it',
        output: Output.object({ schema }),
        providerOptions: { anthropic: { structuredOutputMode: mode } },
        maxRetries: 0,
      });
      expect(res.output).toEqual({ score: 0.75 });
    }
    expect(double.requests.map((r) => r.forcedTool)).toEqual([undefined, 'json']);
    expect(double.requests.every((r) => r.schema?.type === 'object')).toBe(true);
  });
});

describe('model double faults', () => {
  const post = (body: object, signal?: AbortSignal) =>
    fetch(`${double.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }], ...body }),
      signal,
    });

  it('sends statuses with headers, raw bodies, and hangs until aborted', async () => {
    double.enqueue(
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 500 },
      { raw: 'not json' },
    );
    const r1 = await post({});
    expect([r1.status, r1.headers.get('retry-after')]).toEqual([429, '2']);
    expect((await post({})).status).toBe(500);
    const r3 = await post({});
    expect([r3.status, await r3.text()]).toEqual([200, 'not json']);
    double.enqueue({ hang: true });
    const t0 = Date.now();
    await expect(post({}, AbortSignal.timeout(150))).rejects.toThrow();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(double.requests).toHaveLength(4);
  });

  it('injects seeded faults reproducibly', async () => {
    const runs: number[][] = [];
    for (let k = 0; k < 2; k++) {
      const d = await startModelDouble({
        faultRate: 0.5,
        seed: 42,
        handler: () => ({ content: 'ok' }),
      });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await fetch(`${d.url}/chat/completions`, {
          method: 'POST',
          body: JSON.stringify({ model: 'm', messages: [] }),
        });
        statuses.push(r.status);
        await r.text();
      }
      expect(d.injected.length).toBeGreaterThan(0);
      expect(d.injected.length).toBeLessThan(12);
      runs.push(statuses);
      await d.close();
    }
    expect(runs[0]).toEqual(runs[1]);
  });

  it('counts requests in flight', async () => {
    double.script(() => ({ content: 'slow', delayMs: 100 }));
    await Promise.all(Array.from({ length: 5 }, () => post({})));
    expect(double.maxInFlight).toBe(5);
    expect(double.inFlight).toBe(0);
  });

  it('lists models', async () => {
    const body = (await (await fetch(`${double.url}/models`)).json()) as { data: { id: string }[] };
    expect(body.data.map((m) => m.id)).toEqual(['m1', 'm2']);
  });
});

describe('fillSchema', () => {
  it('fills nested zod schemas: refs, arrays, enums and bounds', () => {
    const item = z.object({ key: z.enum(['a', 'b']), score: z.number().min(0).max(1) });
    const schema = z.toJSONSchema(
      z.object({ items: z.array(item).min(2), note: z.string().optional(), ok: z.boolean() }),
    ) as Record<string, unknown>;
    const value = fillSchema(schema, (kind, path) =>
      kind === 'number' ? path.length / 10 : undefined,
    );
    expect(value).toEqual({
      items: [
        { key: 'a', score: 0.3 },
        { key: 'a', score: 0.3 },
      ],
      note: 'text for note',
      ok: true,
    });
    expect(fillSchema({ type: 'integer', minimum: 2, maximum: 9 })).toBe(2);
    expect(fillSchema({ type: 'number', minimum: 0, maximum: 1 })).toBe(0.75);
  });
});
