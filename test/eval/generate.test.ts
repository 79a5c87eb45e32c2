// `generateRollouts` against the loopback model double: n samples per prompt with the
// request we promise (system prompt, temperature, token limit), error lines instead of
// crashes, and resume (answered ids skipped, failed ids asked again).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY_SYSTEM, generateRollouts } from '../../src/eval/generate.ts';
import { readRolloutsFile } from '../../src/eval/run-inputs.ts';
import { createModelClient } from '../../src/models/client.ts';
import { type ModelDouble, startModelDouble } from '../support/model-double.ts';

let dir: string;
let double: ModelDouble;

const prompts = [
  { id: 'apple', prompt: 'a red apple' },
  { id: 'boat', prompt: 'a sailboat' },
  { id: 'owl', prompt: 'an owl' },
];

const svgFor = (text: string) =>
  `\`\`\`svg\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>${text}</title><circle cx="5" cy="5" r="4"/></svg>\n\`\`\``;

function client() {
  return createModelClient('vllm:policy-model', {
    role: 'policy',
    baseUrl: double.url,
    maxRetries: 1,
    retryBaseMs: 1,
    retryMaxMs: 2,
    env: {},
  });
}

const lines = async (file: string) =>
  (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rubrica-generate-'));
  double = await startModelDouble();
});
afterEach(() => double.reset());
afterAll(async () => {
  await double.close();
  await rm(dir, { recursive: true, force: true });
});

describe('generateRollouts', () => {
  it('writes n samples per prompt with the promised request', async () => {
    double.script((req) => {
      const user = req.messages.at(-1)?.text ?? '';
      return { content: svgFor(user), usage: { inputTokens: 20, outputTokens: 50 } };
    });
    const out = join(dir, 'basic.jsonl');
    const summary = await generateRollouts({
      prompts,
      client: client(),
      n: 4,
      out,
      concurrency: 3,
    });
    expect(summary).toMatchObject({ planned: 12, written: 12, ok: 12, failed: 0, skipped: 0 });
    expect(summary.usage).toMatchObject({ calls: 12, inputTokens: 240, outputTokens: 600 });

    const got = await lines(out);
    expect(got.map((l) => l.id)).toEqual(
      prompts.flatMap((p) => [0, 1, 2, 3].map((k) => `${p.id}#${k}`)),
    );
    for (const l of got) {
      const p = prompts.find((x) => x.id === l.prompt_id)!;
      expect(l).toMatchObject({
        prompt: p.prompt,
        model: 'vllm:policy-model',
        finish_reason: 'stop',
      });
      expect(l.completion).toBe(svgFor(p.prompt));
      expect(l.id).toBe(`${p.id}#${l.sample}`);
    }
    expect(double.requests).toHaveLength(12);
    const req = double.requests[0]!;
    expect(req.messages[0]).toMatchObject({ role: 'system', text: DEFAULT_POLICY_SYSTEM });
    expect(req.body.temperature).toBe(1);
    expect(req.body.max_tokens ?? req.body.max_completion_tokens).toBe(4096);
  });

  it('records failed calls as error lines and retries them on resume', async () => {
    double.script((req) => {
      const user = req.messages.at(-1)?.text ?? '';
      if (user === 'a sailboat')
        return { status: 400, body: '{"error":{"message":"bad request"}}' };
      if (user === 'an owl') return { content: '<svg', finishReason: 'length' };
      return { content: svgFor(user) };
    });
    const out = join(dir, 'errors.jsonl');
    const first = await generateRollouts({
      prompts,
      client: client(),
      n: 2,
      out,
      system: null,
      temperature: 0.7,
      maxTokens: 64,
    });
    expect(first).toMatchObject({ planned: 6, written: 6, ok: 4, failed: 2, truncated: 2 });
    expect(first.failedByCode).toEqual({ http_error: 2 });
    const firstLines = await lines(out);
    const boatLines = firstLines.filter((l) => l.prompt_id === 'boat');
    expect(boatLines).toHaveLength(2);
    for (const l of boatLines) {
      expect(l.completion).toBeUndefined();
      expect(l.error).toMatchObject({ code: 'http_error' });
    }
    expect(firstLines.find((l) => l.id === 'owl#0')).toMatchObject({ finish_reason: 'length' });
    expect(double.requests[0]!.messages.map((m) => m.role)).toEqual(['user']);
    expect(double.requests[0]!.body.temperature).toBe(0.7);

    // Resume with a healthy service: only the two failed ids are asked again.
    double.reset();
    double.script((req) => ({ content: svgFor(req.messages.at(-1)?.text ?? '') }));
    const second = await generateRollouts({ prompts, client: client(), n: 2, out, system: null });
    expect(second).toMatchObject({ planned: 6, skipped: 4, written: 2, ok: 2, failed: 0 });
    expect(double.requests.map((r) => r.messages.at(-1)?.text)).toEqual([
      'a sailboat',
      'a sailboat',
    ]);

    // One line per id: each retried answer replaced its error line where it stood.
    expect(second.compacted).toBe(2);
    const after = await lines(out);
    expect(after.map((l) => l.id)).toEqual(firstLines.map((l) => l.id));
    expect(after.filter((l) => l.error)).toEqual([]);
    const read = await readRolloutsFile(out);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.errors).toEqual([]);
    expect(read.value.rollouts.map((r) => r.id).sort()).toEqual([
      'apple#0',
      'apple#1',
      'boat#0',
      'boat#1',
      'owl#0',
      'owl#1',
    ]);
    expect(read.value.rollouts.find((r) => r.id === 'boat#1')?.completion).toBe(
      svgFor('a sailboat'),
    );

    // A third run has nothing left to do and calls nothing.
    double.reset();
    const third = await generateRollouts({ prompts, client: client(), n: 2, out });
    expect(third).toMatchObject({ skipped: 6, written: 0 });
    expect(double.requests).toHaveLength(0);
  });

  it('keeps going when the service is down, one error line per sample', async () => {
    const dead = createModelClient('vllm:policy-model', {
      role: 'policy',
      baseUrl: 'http://127.0.0.1:9/v1',
      maxRetries: 0,
      env: {},
    });
    const out = join(dir, 'down.jsonl');
    const summary = await generateRollouts({ prompts, client: dead, n: 1, out });
    expect(summary).toMatchObject({ written: 3, ok: 0, failed: 3 });
    expect(Object.keys(summary.failedByCode)).toEqual(['network']);
    const read = await readRolloutsFile(out);
    expect(read.ok && read.value.errors.map((e) => e.id)).toEqual(['apple#0', 'boat#0', 'owl#0']);
  });
});
