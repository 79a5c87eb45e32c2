// The judge proxy over real loopback HTTP in front of the model double: identical requests in
// flight make one upstream call, different bodies or credentials do not, only 200s are kept,
// streams are piped, a client that goes away does not cancel its call, bad input and an
// unreachable judge get stable codes in the provider's error shape, and a drain finishes
// what is in flight.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type DoubleRequest,
  type ModelDouble,
  startModelDouble,
} from '../../test/support/model-double.ts';
import { freePort } from '../../test/support/redis-server.ts';
import { answerFacts } from './answer-check.ts';
import { createAnswerStore } from './answer-store.ts';
import { localRates } from './gate.ts';
import { proxyKey } from './key.ts';
import { type RunningProxy, startProxy } from './server.ts';

const answerTokens = (text: string) => answerFacts('/chat/completions', Buffer.from(text)).tokens;

let double: ModelDouble;
let proxy: RunningProxy;
let delayMs = 300;
let failNext = 0;

beforeAll(async () => {
  double = await startModelDouble({
    handler: (req: DoubleRequest) => {
      if (failNext > 0) {
        failNext -= 1;
        return { status: 500, delayMs };
      }
      return { content: `answer to ${req.text}`, delayMs };
    },
  });
  proxy = await startProxy({ upstream: double.url, port: 0, memoryEntries: 64 });
});
afterAll(async () => {
  await proxy?.close();
  await double?.close();
});
beforeEach(() => {
  double.reset();
  delayMs = 300;
  failNext = 0;
});

const chat = (text: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'judge', messages: [{ role: 'user', content: text }], ...extra });

function post(
  path: string,
  body: string,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
) {
  return fetch(`${proxy.url}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer k1', ...headers },
    body,
    ...(signal ? { signal } : {}),
  });
}

async function metric(p: RunningProxy, name: string): Promise<number> {
  const text = await p.metrics.registry.metrics();
  return text
    .split('\n')
    .filter((l) => l.startsWith(name))
    .reduce((s, l) => s + Number(l.split(' ').at(-1)), 0);
}

describe('proxyKey', () => {
  const base = {
    upstream: 'http://j/v1',
    path: '/chat/completions',
    headers: { authorization: 'Bearer a' },
    body: Buffer.from('{"a":1}'),
  };
  it('is the same for the same request and differs with any part', () => {
    expect(proxyKey(base)).toBe(proxyKey({ ...base, body: Buffer.from('{"a":1}') }));
    expect(proxyKey(base)).not.toBe(proxyKey({ ...base, body: Buffer.from('{"a": 1}') }));
    expect(proxyKey(base)).not.toBe(proxyKey({ ...base, headers: { authorization: 'Bearer b' } }));
    expect(proxyKey(base)).not.toBe(proxyKey({ ...base, path: '/messages' }));
    expect(proxyKey(base)).not.toBe(proxyKey({ ...base, upstream: 'http://k/v1' }));
    // Length-prefixed parts: moving a byte from one part to the next is another key.
    expect(proxyKey({ ...base, upstream: 'ab', path: 'c' })).not.toBe(
      proxyKey({ ...base, upstream: 'a', path: 'bc' }),
    );
  });
});

describe('the per-process rate limits (no redis:// --cache)', () => {
  it('--judge-rpm: the next request waits until the oldest leaves the rolling minute', () => {
    const r = localRates(2, 0);
    expect(r.take(0)).toBe(0);
    expect(r.take(10)).toBe(0);
    expect(r.take(20)).toBe(59_980);
    expect(r.take(60_000)).toBe(0);
  });

  it('--judge-tpm: tokens charged from answers hold the next request back', () => {
    const r = localRates(0, 100);
    expect(r.take(0)).toBe(0);
    r.charge(answerTokens('{"usage":{"prompt_tokens":80,"completion_tokens":30}}'), 5);
    expect(r.take(10)).toBe(59_995);
    expect(r.take(60_005)).toBe(0);
    expect(answerTokens('{"usage":{"input_tokens":3,"output_tokens":4}}')).toBe(7);
    expect(answerTokens('not json')).toBe(0);
  });
});

describe('the answer store', () => {
  it('forgets an answer after its TTL and keeps at most memoryEntries', async () => {
    let t = 0;
    const store = createAnswerStore({ ttlMs: 1000, memoryEntries: 2, now: () => t });
    const a = { contentType: 'application/json', body: Buffer.from('x') };
    await store.set('k1', a);
    t = 999;
    expect((await store.get('k1'))?.body.toString()).toBe('x');
    t = 1000;
    expect(await store.get('k1')).toBeUndefined();
    await store.set('k1', a);
    await store.set('k2', a);
    await store.set('k3', a); // k1 is the least recently used
    expect(await store.get('k1')).toBeUndefined();
    expect(await store.get('k3')).toBeDefined();
  });

  it('with a SQLite file, a second store (another proxy) reads what the first kept, until it expires', async () => {
    let t = 0;
    const file = join(mkdtempSync(join(tmpdir(), 'rubrica-proxy-')), 'cache.sqlite');
    const s1 = createAnswerStore({ ttlMs: 1000, shared: file, now: () => t });
    const s2 = createAnswerStore({ ttlMs: 1000, shared: file, now: () => t });
    await s1.set('k', { contentType: 'application/json', body: Buffer.from('{"ok":1}') });
    expect((await s2.get('k'))?.body.toString()).toBe('{"ok":1}');
    t = 5000;
    const s3 = createAnswerStore({ ttlMs: 1000, shared: file, now: () => t });
    expect(await s3.get('k')).toBeUndefined();
    await s3.set('k', { contentType: 'application/json', body: Buffer.from('{"ok":2}') });
    expect((await s3.get('k'))?.body.toString()).toBe('{"ok":2}');
    for (const s of [s1, s2, s3]) await s.close();
  });
});

describe('judge-proxy', () => {
  it('identical requests in flight share one upstream call; the answer is then kept', async () => {
    const joinsBefore = await metric(proxy, 'rubrica_proxy_coalesced_total');
    const body = chat('same');
    const res = await Promise.all(Array.from({ length: 6 }, () => post('/chat/completions', body)));
    const texts = await Promise.all(res.map((r) => r.text()));
    expect(res.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(texts).size).toBe(1);
    expect(double.requests).toHaveLength(1);
    expect((await metric(proxy, 'rubrica_proxy_coalesced_total')) - joinsBefore).toBe(5);
    // Later: from memory, no call.
    const again = await post('/chat/completions', body);
    expect(await again.text()).toBe(texts[0]);
    expect(again.headers.get('content-type')).toContain('application/json');
    expect(double.requests).toHaveLength(1);
  });

  it('cache-control: no-cache reaches the judge every time (a readiness or models check probe)', async () => {
    delayMs = 20;
    const body = chat('are you there');
    expect((await post('/chat/completions', body)).status).toBe(200); // now kept
    const probes = await Promise.all([
      post('/chat/completions', body, { 'cache-control': 'no-cache' }),
      post('/chat/completions', body, { 'cache-control': 'no-cache' }),
    ]);
    expect(probes.map((r) => r.status)).toEqual([200, 200]);
    expect(double.requests).toHaveLength(3); // neither answered from memory nor joined
    // The judge failing now: the probe says so, while kept answers still serve the rest.
    failNext = 1;
    expect((await post('/chat/completions', body, { 'cache-control': 'no-cache' })).status).toBe(
      500,
    );
    expect((await post('/chat/completions', body)).status).toBe(200);
  });

  it('different bodies or credentials are separate calls', async () => {
    await Promise.all([
      post('/chat/completions', chat('one')),
      post('/chat/completions', chat('two')),
      post('/chat/completions', chat('one'), { authorization: 'Bearer k2' }),
    ]);
    expect(double.requests).toHaveLength(3);
    // The credentials reach the judge as sent.
    expect(double.requests.map((r) => r.headers.authorization).sort()).toEqual([
      'Bearer k1',
      'Bearer k1',
      'Bearer k2',
    ]);
  });

  it('an error is shared with the requests that joined it but never kept', async () => {
    failNext = 1;
    const body = chat('fails once');
    const first = await Promise.all([
      post('/chat/completions', body),
      post('/chat/completions', body),
    ]);
    expect(first.map((r) => r.status)).toEqual([500, 500]);
    expect(double.requests).toHaveLength(1);
    const second = await post('/chat/completions', body);
    expect(second.status).toBe(200);
    expect(double.requests).toHaveLength(2);
  });

  it('Anthropic /messages is forwarded with its headers and coalesced too', async () => {
    const body = JSON.stringify({
      model: 'judge',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hello anthropic' }],
    });
    const h = { 'x-api-key': 'ak', 'anthropic-version': '2023-06-01' };
    const res = await Promise.all([post('/messages', body, h), post('/messages', body, h)]);
    expect(res.map((r) => r.status)).toEqual([200, 200]);
    expect(double.requests).toHaveLength(1);
    expect(double.requests[0]!.headers['x-api-key']).toBe('ak');
    expect(double.requests[0]!.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('stream: true is piped through, neither joined nor kept', async () => {
    delayMs = 0;
    const body = chat('stream me', { stream: true });
    const res = await Promise.all([
      post('/chat/completions', body),
      post('/chat/completions', body),
    ]);
    const texts = await Promise.all(res.map((r) => r.text()));
    expect(res[0]!.headers.get('content-type')).toContain('text/event-stream');
    for (const t of texts) expect(t).toContain('data: [DONE]');
    expect(double.requests).toHaveLength(2);
    await (await post('/chat/completions', body)).text();
    expect(double.requests).toHaveLength(3);
  });

  it('GET /models is forwarded', async () => {
    const res = await fetch(`${proxy.url}/v1/models`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it('a client that goes away mid-call does not cancel it: the same request again costs no call', async () => {
    delayMs = 600;
    const body = chat('client leaves');
    const gone = new AbortController();
    const first = post('/chat/completions', body, {}, gone.signal).catch((e: Error) => e.name);
    const t0 = Date.now();
    while (double.requests.length < 1 && Date.now() - t0 < 5000)
      await new Promise((r) => setTimeout(r, 10));
    gone.abort();
    expect(await first).toBe('AbortError');
    expect(proxy.inFlight).toBe(1); // the call is still out
    const again = await post('/chat/completions', body);
    expect(again.status).toBe(200);
    expect(double.requests).toHaveLength(1);
    // And once it finished, it is kept.
    expect((await post('/chat/completions', body)).status).toBe(200);
    expect(double.requests).toHaveLength(1);
  });

  it('a body over the limit is 413 body_too_large; an unknown path 404', async () => {
    const small = await startProxy({ upstream: double.url, port: 0, maxBodyBytes: 1024 });
    try {
      const res = await fetch(`${small.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: chat('x'.repeat(4096)),
      });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('body_too_large');
      const nf = await fetch(`${small.url}/v1/embeddings`, { method: 'POST', body: '{}' });
      expect(nf.status).toBe(404);
      expect(double.requests).toHaveLength(0);
    } finally {
      await small.close();
    }
  });

  it("an unreachable judge is a 502 upstream_unreachable in the provider's error shape", async () => {
    const dead = await startProxy({ upstream: `http://127.0.0.1:${await freePort()}/v1`, port: 0 });
    try {
      const o = await fetch(`${dead.url}/v1/chat/completions`, { method: 'POST', body: chat('x') });
      expect(o.status).toBe(502);
      expect(await o.json()).toMatchObject({
        error: { code: 'upstream_unreachable', type: 'upstream_unreachable' },
      });
      const a = await fetch(`${dead.url}/v1/messages`, { method: 'POST', body: chat('x') });
      expect(a.status).toBe(502);
      expect(await a.json()).toMatchObject({
        type: 'error',
        error: { type: 'upstream_unreachable' },
      });
      expect(await metric(dead, 'rubrica_proxy_upstream_errors_total{status="502"}')).toBe(2);
    } finally {
      await dead.close();
    }
  });

  it('a call that outlasts --timeout-s is a 504 upstream_timeout', async () => {
    const short = await startProxy({ upstream: double.url, port: 0, timeoutMs: 100 });
    try {
      const res = await fetch(`${short.url}/v1/chat/completions`, {
        method: 'POST',
        body: chat('slow one'),
      });
      expect(res.status).toBe(504);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
        'upstream_timeout',
      );
    } finally {
      await short.close();
    }
  });

  it('--concurrency bounds upstream calls; joiners take no slot', async () => {
    const narrow = await startProxy({ upstream: double.url, port: 0, concurrency: 2 });
    try {
      delayMs = 200;
      const bodies = ['c1', 'c2', 'c3', 'c4'].map((t) => chat(t));
      const all = [...bodies, ...bodies].map((b) =>
        fetch(`${narrow.url}/v1/chat/completions`, { method: 'POST', body: b }),
      );
      const res = await Promise.all(all);
      expect(res.every((r) => r.status === 200)).toBe(true);
      expect(double.requests).toHaveLength(4);
      expect(double.maxInFlight).toBe(2);
    } finally {
      await narrow.close();
    }
  });

  it('with a token: clients must show it, and the judge never sees it', async () => {
    const guarded = await startProxy({
      upstream: double.url,
      port: 0,
      token: 'proxy-secret',
      upstreamKey: 'judge-key',
    });
    try {
      const no = await fetch(`${guarded.url}/v1/chat/completions`, {
        method: 'POST',
        body: chat('t'),
      });
      expect(no.status).toBe(401);
      const yes = await fetch(`${guarded.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer proxy-secret' },
        body: chat('t'),
      });
      expect(yes.status).toBe(200);
      expect(double.requests.at(-1)!.headers.authorization).toBe('Bearer judge-key');
      // Probes stay open; /metrics needs the token like the rest.
      expect((await fetch(`${guarded.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
    } finally {
      await guarded.close();
    }
  });

  it('close() drains: new calls get 503 draining, the call in flight is answered, then it stops', async () => {
    const p = await startProxy({ upstream: double.url, port: 0 });
    delayMs = 500;
    const inFlight = fetch(`${p.url}/v1/chat/completions`, { method: 'POST', body: chat('drain') });
    const t0 = Date.now();
    while (double.requests.length < 1 && Date.now() - t0 < 5000)
      await new Promise((r) => setTimeout(r, 10));
    const closed = p.close('test');
    const ready = await fetch(`${p.url}/readyz`);
    expect(ready.status).toBe(503);
    const late = await fetch(`${p.url}/v1/chat/completions`, {
      method: 'POST',
      body: chat('late'),
    });
    expect(late.status).toBe(503);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe('draining');
    expect((await inFlight).status).toBe(200);
    await closed;
    expect(double.requests).toHaveLength(1);
  });
});

describe('bounded waiting (issue 42)', () => {
  it('past --max-queue a call gets 503 queue_full with Retry-After, at once', async () => {
    const p = await startProxy({ upstream: double.url, port: 0, concurrency: 1, maxQueue: 1 });
    try {
      delayMs = 400;
      const res = await Promise.all(
        [0, 1, 2].map((i) =>
          fetch(`${p.url}/v1/chat/completions`, { method: 'POST', body: chat(`queued ${i}`) }),
        ),
      );
      const statuses = res.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 503]);
      const full = res.find((r) => r.status === 503)!;
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await full.json()) as { error: { code: string } }).error.code).toBe('queue_full');
      expect(double.requests).toHaveLength(2);
    } finally {
      await p.close();
    }
  });
});
