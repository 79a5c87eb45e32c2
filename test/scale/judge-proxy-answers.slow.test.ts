// Issue 42, findings 3 and 4, against the real `rubrica judge-proxy` process and a stub judge
// on loopback (stub-judge.ts), alone and as two proxies sharing a real Redis:
//  - a faulty 200 is never kept: each shape (cut off by EOF, `{"error"}`, streams the old
//    proxy did not read as streams — `"stream": 1`, `"true"`, a UTF-8 BOM, UTF-16 — and an
//    error event mid-stream) asked twice costs two judge calls; a good answer asked twice
//    costs one (the control, so the counts can fail);
//  - --concurrency bounds every upstream call: 12 streams and 20 GET /models at
//    --concurrency 4 never put more than 4 calls at the judge, also over two proxies.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JudgeProxyProcess, spawnJudgeProxy } from '../server/support.ts';
import { type RedisProcess, startRedis } from '../support/redis-server.ts';
import { type StubJudge, startStubJudge } from './stub-judge.ts';

let stub: StubJudge;
let redis: RedisProcess;
const children: ChildProcess[] = [];

beforeAll(async () => {
  stub = await startStubJudge();
  redis = await startRedis();
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await stub?.close();
  await redis?.stop();
});

async function proxy(args: string[]): Promise<JudgeProxyProcess> {
  const p = await spawnJudgeProxy(['--upstream', stub.url, ...args]);
  children.push(p.child);
  return p;
}

const chat = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'judge', messages: [{ role: 'user', content }], ...extra });

/** The faulty shapes: a name, the body bytes sent, and the stub mode that counts the calls. */
function shapes(tag: string): Array<{ name: string; body: Buffer }> {
  const s = (x: string) => Buffer.from(x, 'utf8');
  return [
    { name: 'eofcut', body: s(chat(`mode:eofcut ${tag}`)) },
    { name: 'error200', body: s(chat(`mode:error200 ${tag}`)) },
    { name: 'streamint', body: s(chat(`mode:streamint ${tag}`, { stream: 1 })) },
    { name: 'streamstr', body: s(chat(`mode:streamstr ${tag}`, { stream: 'true' })) },
    {
      name: 'streambom',
      body: Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        s(chat(`mode:streambom ${tag}`, { stream: true })),
      ]),
    },
    {
      name: 'streamutf16',
      body: Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(chat(`mode:streamutf16 ${tag}`, { stream: true }), 'utf16le'),
      ]),
    },
    { name: 'streamerr', body: s(chat(`mode:streamerr ${tag}`)) },
  ];
}

const post = (url: string, body: Buffer | string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  }).then(async (r) => ({ status: r.status, text: await r.text().catch(() => '') }));

describe('judge-proxy keeps only whole, good answers', () => {
  it('each faulty 200 asked twice is two judge calls; a good one is one (in memory)', async () => {
    const p = await proxy([]);
    stub.reset();
    for (const { body } of shapes('mem')) {
      await post(p.url, body);
      await post(p.url, body);
    }
    await post(p.url, chat('mode:good mem'));
    await post(p.url, chat('mode:good mem'));
    const got = Object.fromEntries(shapes('mem').map(({ name }) => [name, stub.calls.get(name)]));
    expect(got).toEqual(Object.fromEntries(shapes('mem').map(({ name }) => [name, 2])));
    expect(stub.calls.get('good')).toBe(1);
    const metrics = await (await fetch(`${p.url}/metrics`)).text();
    expect(metrics).toMatch(/^rubrica_proxy_not_kept_total [1-9]/m);
  }, 60_000);

  it('through Redis: what one proxy got is never served by the other', async () => {
    const a = await proxy(['--cache', redis.url]);
    const b = await proxy(['--cache', redis.url]);
    stub.reset();
    for (const { body } of shapes('redis')) {
      await post(a.url, body);
      await post(b.url, body);
    }
    await post(a.url, chat('mode:good redis'));
    await post(b.url, chat('mode:good redis'));
    for (const { name } of shapes('redis')) expect(stub.calls.get(name), name).toBe(2);
    expect(stub.calls.get('good')).toBe(1);
  }, 60_000);
});

describe('judge-proxy --concurrency bounds every upstream call', () => {
  const load = async (urls: string[]) => {
    stub.reset();
    const streams = Array.from({ length: 12 }, (_, i) =>
      post(urls[i % urls.length]!, chat(`mode:s${i} streamms:80`, { stream: true })),
    );
    const models = Array.from({ length: 20 }, (_, i) =>
      fetch(`${urls[i % urls.length]}/v1/models`).then((r) => r.status),
    );
    const s = await Promise.all(streams);
    const m = await Promise.all(models);
    expect(s.map((r) => r.status)).toEqual(Array(12).fill(200));
    for (const r of s) expect(r.text).toContain('[DONE]');
    expect(m).toEqual(Array(20).fill(200));
    expect(stub.calls.get('models')).toBe(20);
    expect(stub.maxInFlight).toBeLessThanOrEqual(4);
    expect(stub.maxInFlight).toBeGreaterThanOrEqual(2); // the load did overlap
  };

  it('12 streams and 20 /models at --concurrency 4: never more than 4 at the judge', async () => {
    const p = await proxy(['--concurrency', '4']);
    await load([p.url]);
  }, 60_000);

  it('the same over two proxies sharing the Redis budget', async () => {
    const a = await proxy(['--concurrency', '4', '--cache', redis.url]);
    const b = await proxy(['--concurrency', '4', '--cache', redis.url]);
    await load([a.url, b.url]);
  }, 60_000);
});
