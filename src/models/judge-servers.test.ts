// Several judge servers and hedged calls (issue 38, items 2 and 4) over real loopback HTTP:
// two judge doubles, one of which hangs every call. Every call still answers well within its
// attempt timeout (a hedge to the healthy server wins), the hanging server is ejected, and
// afterwards ≥ 95 % of requests go to the healthy one. Plus the pool's arithmetic on a clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { createModelClient } from './client.ts';
import { parseHedgeAfter } from './hedge.ts';
import { createJudgeServers, parseBaseUrls } from './judge-servers.ts';

describe('createJudgeServers', () => {
  it('picks the least loaded, ejects after failures in a row, probes back once', () => {
    let t = 0;
    const p = createJudgeServers(['http://a', 'http://b'], {
      ejectAfter: 2,
      ejectMs: 100,
      now: () => t,
    });
    const a1 = p.start(p.pick());
    expect(p.pick()).toBe(1); // a is busy
    a1('failure');
    p.start(0)('failure'); // two in a row: a is out
    expect(p.stats()[0]!.ejected).toBe(true);
    expect([p.pick(), p.pick(), p.pick()]).toEqual([1, 1, 1]);
    t = 150; // due back: one probe goes to a, no second one while it is out
    expect(p.pick()).toBe(0);
    const probe = p.start(0);
    expect(p.pick()).toBe(1);
    probe('failure'); // a failed probe ejects again, for twice as long
    t = 300;
    expect(p.pick()).toBe(1);
    t = 351;
    expect(p.pick()).toBe(0);
    p.start(0)('success');
    expect(p.stats()[0]).toMatchObject({ ejected: false, ejections: 0 });
  });

  it('parses lists and hedge settings', () => {
    expect(parseBaseUrls('http://a/v1, http://b/v1/ ,')).toEqual(['http://a/v1', 'http://b/v1']);
    expect([parseHedgeAfter('auto'), parseHedgeAfter('off'), parseHedgeAfter('250')]).toEqual([
      'auto',
      'off',
      250,
    ]);
    expect(parseHedgeAfter('-3')).toBeNull();
    expect(parseHedgeAfter('soon')).toBeNull();
  });
});

describe('two judge servers, one hanging every call', () => {
  let healthy: ModelDouble;
  let hanging: ModelDouble;
  beforeAll(async () => {
    healthy = await startModelDouble({ handler: () => ({ content: 'fine' }) });
    hanging = await startModelDouble({ handler: () => ({ hang: true }) });
  });
  afterAll(async () => {
    await healthy.close();
    await hanging.close();
  });

  it('every call answers (hedged to the healthy server), and ≥ 95 % of requests go to the healthy one', async () => {
    const TIMEOUT = 5000;
    const client = createModelClient('vllm:judge', {
      role: 'judge',
      // The hanging server first: the primary is the one that fails.
      baseUrl: `${hanging.url},${healthy.url}`,
      env: {},
      timeoutMs: TIMEOUT,
      retryBaseMs: 1,
      retryMaxMs: 2,
      circuitBreaker: false,
      hedge: { afterMs: 150 },
    });
    const N = 200;
    const times: number[] = [];
    for (let i = 0; i < N; i += 4) {
      const batch = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const t0 = performance.now();
          const r = await client.generateText([{ role: 'user', content: 'Judge.' }]);
          times.push(performance.now() - t0);
          return r;
        }),
      );
      expect(batch.every((r) => r.ok)).toBe(true);
    }
    // Hedges are capped (5 % of requests), so a call sent to the hanging server before it was
    // ejected may wait out one attempt timeout; after that, none does.
    expect(times.filter((t) => t > TIMEOUT).length).toBeLessThanOrEqual(4);
    expect(times.filter((t) => t > 2 * TIMEOUT)).toEqual([]);
    // Once its failures count against it (and again each time it is ejected and probed), the
    // hanging server gets almost nothing: ≥ 95 % of requests after its first failure go to
    // the healthy one.
    const hung = hanging.requests.length;
    const total = hung + healthy.requests.length;
    expect(client.serverStats()[0]!.failures).toBeGreaterThan(0);
    expect(healthy.requests.length / (total - 2)).toBeGreaterThanOrEqual(0.95);
    expect(client.hedgeStats().hedges).toBeGreaterThan(0);
  }, 60_000);
});
