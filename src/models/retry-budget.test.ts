// The retry budget (issue 38, item 3): its sliding-window arithmetic on a fake clock, and a
// real client against the loopback judge double answering 100 % errors: retries counted at
// the double stay within the budget, then the client recovers on its own once the judge does.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { createModelClient } from './client.ts';
import { createRetryBudget } from './retry-budget.ts';
import type { ChatMessage } from './types.ts';

describe('createRetryBudget', () => {
  it('allows max(minRetries, ratio × calls) retries per sliding window', () => {
    let t = 0;
    const b = createRetryBudget({ ratio: 0.2, windowMs: 1000, minRetries: 2, now: () => t });
    for (let i = 0; i < 50; i++) b.noteCall();
    const granted = Array.from({ length: 20 }, () => b.tryRetry()).filter(Boolean).length;
    expect(granted).toBe(10); // 20 % of 50
    expect(b.stats()).toMatchObject({ windowCalls: 50, windowRetries: 10, refused: 10 });
    t = 1001; // the window has slid past all of it: the floor applies again
    expect(b.stats().allowed).toBe(2);
    expect([b.tryRetry(), b.tryRetry(), b.tryRetry()]).toEqual([true, true, false]);
  });

  it('refuses a bad configuration', () => {
    expect(() => createRetryBudget({ ratio: -1 })).toThrow(RangeError);
    expect(() => createRetryBudget({ windowMs: 0 })).toThrow(RangeError);
  });
});

describe('a judge answering 100 % errors', () => {
  let double: ModelDouble;
  beforeAll(async () => {
    double = await startModelDouble();
  });
  afterAll(() => double.close());
  beforeEach(() => double.reset());

  const ask: ChatMessage[] = [{ role: 'user', content: 'Judge this.' }];
  const client = (retryBudget: Parameters<typeof createModelClient>[1]['retryBudget']) =>
    createModelClient('vllm:judge', {
      role: 'judge',
      baseUrl: double.url,
      env: {},
      retryBaseMs: 1,
      retryMaxMs: 2,
      maxRetries: 4,
      // The breaker would stop the calls itself; off, so the budget alone is measured.
      circuitBreaker: false,
      retryBudget,
    });

  /** `n` calls, `perTick` at once every 20 ms (a steady stream, as a training step sends). */
  async function stream(c: ReturnType<typeof client>, n: number, perTick = 4) {
    const out: Array<Promise<{ ok: boolean }>> = [];
    for (let i = 0; i < n; i += perTick) {
      for (let j = i; j < Math.min(n, i + perTick); j++) out.push(c.generateText(ask));
      await new Promise((r) => setTimeout(r, 20));
    }
    return Promise.all(out);
  }

  it('retries within the budget (counted at the double), then recovers on its own', async () => {
    const WINDOW = 1000;
    const MIN = 2;
    double.script(() => ({ status: 500 }));
    const c = client({ ratio: 0.2, windowMs: WINDOW, minRetries: MIN });
    const N = 120;
    const t0 = Date.now();
    const failed = await stream(c, N);
    const windows = Math.ceil((Date.now() - t0) / WINDOW) + 1;
    expect(failed.every((r) => !r.ok)).toBe(true);
    const retries = double.requests.length - N;
    // At most 20 % of the calls of any window, plus the floor of each window touched.
    expect(retries).toBeLessThanOrEqual(Math.ceil(0.2 * N) + MIN * windows);
    expect(retries).toBeGreaterThan(0); // the budget is used, not refused outright
    expect(c.retryStats()).toMatchObject({ calls: N, retries });
    expect(c.retryStats()!.refused).toBeGreaterThan(0);

    // The judge comes back: calls succeed again with nothing to reset.
    double.reset();
    double.script(() => ({ content: 'fine' }));
    const healed = await stream(c, 20);
    expect(healed.every((r) => r.ok)).toBe(true);
    expect(double.requests).toHaveLength(20);
  });

  it('without a budget every call retries maxRetries times (the storm it prevents)', async () => {
    double.script(() => ({ status: 500 }));
    const c = client(false);
    await stream(c, 20);
    expect(double.requests).toHaveLength(20 * 5);
    expect(c.retryStats()).toBeNull();
  });
});
