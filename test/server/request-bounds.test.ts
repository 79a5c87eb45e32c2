// Issue 35, item 2: every size and count a scoring request controls has a bound with a stable
// code, checked over a real socket before any scoring (the fake scorer must never see a
// refused request). The body, the rollouts per request, deadline_ms, the gate list and the
// reward list had bounds before; a rollout's prompt, id and prompt_id did not. Those rows fail
// on the code before src/server/item-bounds.ts (answered 200). A completion over its bound is
// the policy's output, so it is a per-rollout `too_large` result, not a refusal: that is
// src/pipeline/completion-bound.test.ts and test/server/e2e.test.ts (real scorer). The table
// is docs/serve.md "Request bounds".
import { describe, expect, it } from 'vitest';
import { MAX_COMPLETION_CHARS } from '../../src/pipeline/completion-bound.ts';
import { DEFAULT_ITEM_BOUNDS } from '../../src/server/item-bounds.ts';
import { readOrsTasks } from '../../src/server/ors/index.ts';
import { startServer } from '../../src/server/start.ts';
import { createFakeScorer } from './fake-scorer.ts';
import { postJson, tempDir, writeRubrics } from './support.ts';

const B = DEFAULT_ITEM_BOUNDS;
const item = (over: Record<string, unknown> = {}) => ({
  id: 'r1',
  prompt_id: 'p',
  completion: 'reward=0.5',
  ...over,
});
const long = (n: number) => 'x'.repeat(n);

// [what, route, body, status, code]
const ROWS: [string, string, unknown, number, string][] = [
  [
    'body over --max-body-mb',
    '/v1/rewards',
    { items: [item({ completion: long(5 << 20) })] },
    413,
    'body_too_large',
  ],
  [
    'more rollouts than --max-items',
    '/v1/rewards',
    { items: [1, 2, 3, 4, 5].map((i) => item({ id: `r${i}` })) },
    400,
    'too_many_items',
  ],
  ['no rollouts', '/v1/rewards', { items: [] }, 400, 'invalid_request'],
  [
    'prompt over its bound',
    '/v1/rewards',
    { items: [item({ prompt_id: null, prompt: long(B.maxPromptChars + 1) })] },
    400,
    'item_too_large',
  ],
  [
    'id over its bound',
    '/v1/rewards',
    { items: [item({ id: long(B.maxIdChars + 1) })] },
    400,
    'item_too_large',
  ],
  [
    'prompt_id over its bound',
    '/v1/rewards',
    { items: [item({ prompt_id: long(B.maxIdChars + 1) })] },
    400,
    'item_too_large',
  ],
  [
    'deadline_ms 0 (too small)',
    '/v1/rewards',
    { items: [item()], deadline_ms: 0 },
    400,
    'invalid_request',
  ],
  [
    'deadline_ms over an hour',
    '/v1/rewards',
    { items: [item()], deadline_ms: 3_600_001 },
    400,
    'invalid_request',
  ],
  [
    'deadline_ms not a number',
    '/v1/rewards',
    { items: [item()], deadline_ms: 'soon' },
    400,
    'invalid_request',
  ],
  [
    'deadline_ms not an integer',
    '/v1/rewards',
    { items: [item()], deadline_ms: 1.5 },
    400,
    'invalid_request',
  ],
  [
    'a gate list of 33 checks',
    '/v1/rewards',
    { items: [item()], gate: Array.from({ length: 33 }, () => 'clutter') },
    400,
    'invalid_request',
  ],
  [
    'more rewards than there are kinds',
    '/v1/rewards',
    { items: [item()], reward: Array.from({ length: 40 }, () => 'ruler') },
    400,
    'invalid_request',
  ],
];

describe('request bounds over HTTP', () => {
  it('each request-controlled size or count over its bound is refused with its code, unscored', async () => {
    const scorer = createFakeScorer();
    const server = await startServer({
      scorer,
      port: 0,
      limits: { maxBodyBytes: 4 << 20, maxItemsPerRequest: 4 },
    });
    try {
      for (const [what, route, body, status, code] of ROWS) {
        const res = await postJson(`${server.url}${route}`, body);
        const c = (res.json as { error?: { code?: string } })?.error?.code;
        expect(`${what}: ${res.status} ${c}`).toBe(`${what}: ${status} ${code}`);
      }
      expect(scorer.calls, 'a refused request reached the scorer').toHaveLength(0);
      // At the bounds exactly, the same shapes are scored.
      const ok = await postJson(`${server.url}/v1/rewards`, {
        items: [item({ id: long(B.maxIdChars), completion: long(MAX_COMPLETION_CHARS) })],
        deadline_ms: 3_600_000,
      });
      expect(ok.status).toBe(200);
      expect(scorer.calls).toHaveLength(1);
      // And the service still answers its health check.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('OpenEnv /step: code over the completion bound is 422 item_too_large, unscored', async () => {
    const scorer = createFakeScorer();
    const rubrics = writeRubrics(tempDir('bounds-openenv'), [['fox', 'a red fox']]);
    const server = await startServer({
      scorer,
      port: 0,
      openenv: { tasks: readOrsTasks(rubrics) },
    });
    try {
      const res = await postJson(`${server.url}/step`, {
        action: { code: long(MAX_COMPLETION_CHARS + 1), prompt_id: 'fox' },
      });
      expect(res.status).toBe(422);
      expect((res.json as { detail?: string }).detail).toMatch(/^item_too_large/);
      expect(scorer.calls).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
