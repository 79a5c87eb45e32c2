// Fault drills for the reward server over real HTTP on loopback, with the real scorer
// (render pool, inspection, SQLite cache) and the judge double: the judge down then up
// (circuit breaker, /readyz), a client that disconnects while a second client waits on
// the same rollouts, a cache file corrupted under a running server, and request bodies that
// are stalled, chunked over the limit, or together over the shared byte budget.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start.ts';
import { corruptDataPages, fillCache } from '../support/broken-cache.ts';
import { fluentEmoji } from '../support/corpus.ts';
import { startModelDouble } from '../support/model-double.ts';
import { createFakeScorer } from './fake-scorer.ts';
import {
  freePort,
  judgeByImage,
  postJson,
  type RealServer,
  startRealServer,
  tempDir,
  writeRubrics,
} from './support.ts';

// biome-ignore lint/suspicious/noExplicitAny: test-side JSON access
type Json = any;

const icons = fluentEmoji(16);
const completion = (svg: string) => `\`\`\`svg\n${svg}\n\`\`\``;
const items = (from: number, n: number, prefix = 'r') =>
  icons.slice(from, from + n).map((ic, i) => ({
    id: `${prefix}${i}`,
    prompt_id: 'fox',
    completion: completion(ic.svg),
  }));

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

describe('judge down, then up', () => {
  it('fails fast as grader faults while the circuit is open, /readyz says so, then recovers', async () => {
    const dir = tempDir('bad-judge');
    const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
    const port = await freePort();
    const server: RealServer = await startRealServer({
      judgeUrl: `http://127.0.0.1:${port}/v1`,
      rubrics,
      dir,
      maxRetries: 2,
      circuitBreaker: { failureThreshold: 3, cooldownMs: 400, maxCooldownMs: 400 },
    });
    cleanup.push(() => server.close());

    // Nothing listens: the first rollouts fail on refused connections and open the circuit.
    const down = await postJson(`${server.url}/v1/rewards`, { items: items(0, 6) });
    expect(down.status).toBe(200);
    const downResults = (down.json as Json).results as Json[];
    expect(downResults.every((r) => r.reward === 0 && r.reason === 'judge_error')).toBe(true);
    expect(downResults.some((r) => /circuit open/.test(r.message))).toBe(true);

    // While open, rollouts fail at once (no retries, no backoff) and say why.
    const t0 = Date.now();
    const fast = await postJson(`${server.url}/v1/rewards`, { items: items(6, 4) });
    const fastResults = (fast.json as Json).results as Json[];
    expect(
      fastResults.every((r) => /circuit open: openai-compatible:test-judge at/.test(r.message)),
    ).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5000);
    const notReady = await fetch(`${server.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({
      status: 'not_ready',
      judge: { answers: false, circuit: 'open', error: 'circuit_open' },
    });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200); // liveness is unaffected

    // The judge comes back on the same port; after the cool-down one probe closes the circuit.
    const double = await startModelDouble({ handler: judgeByImage(), port });
    cleanup.push(() => double.close());
    await new Promise((r) => setTimeout(r, 500));
    const up = await postJson(`${server.url}/v1/rewards`, { items: items(0, 6) });
    const upResults = (up.json as Json).results as Json[];
    expect(upResults.map((r) => r.status)).toEqual(Array(6).fill('ok'));
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      judge: { answers: true, circuit: 'closed' },
    });
  });

  it('/readyz probes an idle judge once and reports it answering', async () => {
    const dir = tempDir('ready-judge');
    const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
    const double = await startModelDouble({ handler: () => ({ content: '{"colour": "red"}' }) });
    cleanup.push(() => double.close());
    const server = await startRealServer({ judgeUrl: double.url, rubrics, dir });
    cleanup.push(() => server.close());
    const [a, b] = await Promise.all([
      fetch(`${server.url}/readyz`),
      fetch(`${server.url}/readyz`),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(double.requests).toHaveLength(1); // concurrent readiness checks share one probe
  });
});

describe('one client disconnects, another waits on the same rollouts', () => {
  it('the second client still gets real scores', async () => {
    const dir = tempDir('bad-abort');
    const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
    const double = await startModelDouble({ handler: judgeByImage('JUDGE_FAILS', 3000) });
    cleanup.push(() => double.close());
    const server = await startRealServer({ judgeUrl: double.url, rubrics, dir });
    cleanup.push(() => server.close());

    const batch = items(0, 4);
    const a = new AbortController();
    const first = fetch(`${server.url}/v1/rewards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items: batch }),
      signal: a.signal,
    }).catch((e: Error) => e);
    while (double.inFlight < batch.length) await new Promise((r) => setTimeout(r, 10));
    // B asks for the same pictures while A's judge calls are on the wire, then A goes away.
    const second = postJson(`${server.url}/v1/rewards`, { items: batch });
    await new Promise((r) => setTimeout(r, 1200)); // B renders and joins A's judge calls
    a.abort();
    expect(await first).toBeInstanceOf(Error);
    const res = await second;
    expect(res.status).toBe(200);
    const results = (res.json as Json).results as Json[];
    expect(results.map((r) => r.status)).toEqual(Array(4).fill('ok'));
    expect(results.every((r) => r.reward > 0)).toBe(true);
    expect(double.requests).toHaveLength(batch.length); // shared, not asked twice
  });
});

describe('a cache file corrupted under a running server', () => {
  it('answers cache_error faults naming the file, never a failed drawing or a 500', async () => {
    const dir = tempDir('bad-cache');
    const rubrics = writeRubrics(dir, [['fox', 'a red fox']]);
    const double = await startModelDouble({ handler: judgeByImage() });
    cleanup.push(() => double.close());
    const cachePath = `${dir}/cache.sqlite`;
    fillCache(cachePath);
    corruptDataPages(cachePath);
    const server = await startRealServer({ judgeUrl: double.url, rubrics, dir });
    cleanup.push(() => server.close());
    const res = await postJson(`${server.url}/v1/rewards`, { items: items(0, 3) });
    expect(res.status).toBe(200);
    const results = (res.json as Json).results as Json[];
    for (const r of results) {
      expect(r.reason).toBe('cache_error');
      expect(r.message).toContain(cachePath);
      expect(r.message).toContain('--no-cache');
      expect(r.checks.renders).toBe(true); // the drawing rendered: not blamed on it
    }
  });
});

/** A raw HTTP request whose body the test writes by hand (chunked or stalled). */
function rawPost(url: string, headers: Record<string, string | number>) {
  const u = new URL(url);
  const req = request({
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    method: 'POST',
    headers,
  });
  const response = new Promise<{ status: number; body: Json }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => {
        text += d.toString();
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || 'null') }),
      );
    });
    req.on('error', reject);
  });
  return { req, response };
}

describe('request bodies on a bad day', () => {
  it('a chunked body over the limit gets 413 like a sized one', async () => {
    const server = await startServer({
      scorer: createFakeScorer(),
      port: 0,
      limits: { maxBodyBytes: 64 * 1024 },
    });
    cleanup.push(() => server.close());
    const { req, response } = rawPost(`${server.url}/v1/rewards`, {
      'content-type': 'application/json',
      'transfer-encoding': 'chunked',
    });
    req.write('{"items": [{"id": "a", "prompt_id": "p", "completion": "');
    for (let i = 0; i < 20; i++) req.write('x'.repeat(8 * 1024));
    req.end('"}]}');
    const res = await response;
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: { code: 'body_too_large' } });
  });

  it('a body that stops arriving is dropped with 408, and the server keeps serving', async () => {
    const scorer = createFakeScorer();
    const server = await startServer({
      scorer,
      port: 0,
      limits: { bodyIdleTimeoutMs: 300 },
    });
    cleanup.push(() => server.close());
    const { req, response } = rawPost(`${server.url}/v1/rewards`, {
      'content-type': 'application/json',
      'content-length': 1000,
    });
    req.write('{"items": [');
    const t0 = Date.now();
    const res = await response;
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ error: { code: 'body_timeout' } });
    expect(Date.now() - t0).toBeLessThan(3000);
    req.destroy();
    const ok = await postJson(`${server.url}/v1/rewards`, {
      items: [{ id: 'b', prompt_id: 'p', completion: 'reward=0.5' }],
    });
    expect(ok.status).toBe(200);
    expect(scorer.calls).toHaveLength(1);
  });

  it('bodies being read at once share one byte budget: the one over it gets 503 body_budget', async () => {
    const server = await startServer({
      scorer: createFakeScorer(),
      port: 0,
      limits: { maxBodyBytes: 1024 * 1024, maxBodyBytesInFlight: 1536 * 1024 },
    });
    cleanup.push(() => server.close());
    // Two sized 1 MB bodies, sent slowly: the first reserves its length, the second does not fit.
    const open = (id: string) =>
      rawPost(`${server.url}/v1/rewards`, {
        'content-type': 'application/json',
        'content-length': 1000 * 1000,
        'x-id': id,
      });
    const a = open('a');
    a.response.catch(() => undefined); // A is cut off below; its answer never comes
    a.req.write('{"items": [');
    await new Promise((r) => setTimeout(r, 100));
    const b = open('b');
    b.req.write('{"items": [');
    const refused = await b.response;
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ error: { code: 'body_budget' } });
    b.req.destroy();
    a.req.destroy();
    // Once A has disconnected its reservation is released: another ~0.9 MB body fits again.
    await new Promise((r) => setTimeout(r, 200));
    const ok = await postJson(`${server.url}/v1/rewards`, {
      items: [{ id: 'c', prompt_id: 'p', completion: `reward=0.5 ${'x'.repeat(900_000)}` }],
    });
    expect(ok.status).toBe(200);
  });
});
