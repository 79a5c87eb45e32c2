// Limits and backpressure over a real socket (@hono/node-server), where a large body arrives
// in chunks and a busy server must answer at once instead of queueing: 413, 400, 503 +
// Retry-After, and close() waiting for admitted work before closing the scorer.
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start.ts';
import { createFakeScorer } from './fake-scorer.ts';
import { postJson } from './support.ts';

const item = (id: string, completion = 'reward=0.5') => ({ id, prompt_id: 'p', completion });

describe('limits over HTTP', () => {
  it('413 for a body over the limit, 400 for too many items, and the server stays up', async () => {
    const scorer = createFakeScorer();
    const server = await startServer({
      scorer,
      port: 0,
      limits: { maxBodyBytes: 256 * 1024, maxItemsPerRequest: 3 },
    });
    try {
      const big = await postJson(`${server.url}/v1/rewards`, {
        items: [item('a', 'x'.repeat(2_000_000))],
      });
      expect(big.status).toBe(413);
      expect(big.json).toMatchObject({ error: { code: 'body_too_large' } });
      const many = await postJson(`${server.url}/v1/verl`, {
        data_sources: ['d', 'd', 'd', 'd'],
        solution_strs: ['a', 'b', 'c', 'd'],
        ground_truths: ['p', 'p', 'p', 'p'],
      });
      expect(many.status).toBe(400);
      expect(many.json).toMatchObject({ error: { code: 'too_many_items' } });
      const ok = await postJson(`${server.url}/v1/rewards`, { items: [item('b')] });
      expect(ok.status).toBe(200);
      expect(scorer.calls).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('503 + Retry-After when full; close() drains admitted work, then closes the scorer', async () => {
    const scorer = createFakeScorer();
    const server = await startServer({
      scorer,
      port: 0,
      limits: { maxInFlight: 8, retryAfterSeconds: 1 },
    });
    const release = scorer.hold();
    const first = postJson(`${server.url}/v1/rewards`, {
      items: Array.from({ length: 8 }, (_, i) => item(`a${i}`)),
    });
    while (scorer.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    const busy = await postJson(`${server.url}/v1/rewards`, { items: [item('b')] });
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.json).toMatchObject({ error: { code: 'busy' } });
    const closing = server.close('test');
    await new Promise((r) => setTimeout(r, 50));
    expect(scorer.closed).toBe(false);
    release();
    const answered = await first;
    expect(answered.status).toBe(200);
    expect((answered.json as { results: unknown[] }).results).toHaveLength(8);
    await closing;
    expect(scorer.closed).toBe(true);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});
