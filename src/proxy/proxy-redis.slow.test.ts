// Two proxies sharing a real Redis (--cache redis://…): an answer one kept is a hit on the
// other (0 upstream calls), kept under rubrica:proxy:* with a TTL and apart from the
// replicas' rubrica:answer:*; and --concurrency holds over both (the shared budget).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelDouble, startModelDouble } from '../../test/support/model-double.ts';
import { type RedisProcess, startRedis } from '../../test/support/redis-server.ts';
import { type RunningProxy, startProxy } from './server.ts';

let redis: RedisProcess;
let double: ModelDouble;
let a: RunningProxy;
let b: RunningProxy;

beforeAll(async () => {
  redis = await startRedis();
  double = await startModelDouble({ handler: (r) => ({ content: `ok ${r.text}`, delayMs: 300 }) });
  const o = { upstream: double.url, port: 0, cache: redis.url, concurrency: 2, ttlMs: 60_000 };
  a = await startProxy(o);
  b = await startProxy(o);
}, 30_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await double?.close();
  await redis?.stop();
});

const chat = (text: string) =>
  JSON.stringify({ model: 'judge', messages: [{ role: 'user', content: text }] });
const post = (p: RunningProxy, body: string) =>
  fetch(`${p.url}/v1/chat/completions`, { method: 'POST', body });

describe('proxies sharing Redis', () => {
  it('an answer kept by one is a hit on the other, with a TTL, under its own prefix', async () => {
    const first = await post(a, chat('shared'));
    const text = await first.text();
    expect(double.requests).toHaveLength(1);
    const second = await post(b, chat('shared'));
    expect(await second.text()).toBe(text);
    expect(double.requests).toHaveLength(1);
    const r = new Redis(redis.url);
    const keys = await r.keys('rubrica:proxy:*');
    expect(keys).toHaveLength(1);
    const ttl = await r.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await r.keys('rubrica:answer:*')).toHaveLength(0);
    r.disconnect();
  });

  it('--concurrency holds over both proxies', async () => {
    double.reset();
    const res = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(i % 2 ? a : b, chat(`budget ${i}`))),
    );
    expect(res.every((x) => x.status === 200)).toBe(true);
    expect(double.requests).toHaveLength(8);
    expect(double.maxInFlight).toBe(2);
  }, 30_000);
});
