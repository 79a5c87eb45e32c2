// The judge budget shared by replicas over a real redis-server: two gates (two replicas)
// never exceed the concurrency together, a crashed holder's lease comes back on its own, and
// the request rate is counted over both.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisProcess, startRedis } from '../../test/support/redis-server.ts';
import { createSharedBudget } from './shared-budget.ts';

let redis: RedisProcess;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('shared judge budget', () => {
  it('two replicas together never exceed the concurrency, and use all of it', async () => {
    const a = createSharedBudget({ url: redis.url, name: 'conc', concurrency: 3 });
    const b = createSharedBudget({ url: redis.url, name: 'conc', concurrency: 3 });
    let now = 0;
    let peak = 0;
    const call = async () => {
      now += 1;
      peak = Math.max(peak, now);
      await wait(40);
      now -= 1;
      return 1;
    };
    const out = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b)(call)));
    expect(out.reduce((s, x) => s + x, 0)).toBe(24);
    expect(peak).toBe(3);
    await a.close();
    await b.close();
  });

  it('a freed slot goes to a waiting call at once, on any replica: no waiter sleeps through a release', async () => {
    // A poll far longer than the whole run: one wake-up lost (a release message that came
    // while the waiter's ask was on its way) would cost 5 s, so the run's time shows it.
    const opts = { url: redis.url, name: 'handoff', concurrency: 2, pollMs: 5000 };
    const a = createSharedBudget(opts);
    const b = createSharedBudget(opts);
    let now = 0;
    let peak = 0;
    const call = async () => {
      now += 1;
      peak = Math.max(peak, now);
      await wait(25);
      now -= 1;
    };
    const r = new Redis(redis.url);
    await r.config('RESETSTAT');
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b)(call)));
    const ms = Date.now() - t0;
    const stats = String(await r.info('commandstats'));
    const evals = Number(/cmdstat_eval:calls=(\d+)/.exec(stats)?.[1]);
    r.disconnect();
    expect(peak).toBe(2);
    expect(ms).toBeGreaterThanOrEqual(500); // 20 rounds of 25 ms: the budget did hold
    expect(ms).toBeLessThan(4000); // and no call waited for the 5 s poll
    // One ask per replica per release, not one per waiting call: about 3 Redis scripts a
    // call (take, give back, a losing ask), where every waiter asking made 13 (521).
    expect(evals).toBeLessThan(200);
    await a.close();
    await b.close();
  });

  it('a finishing call passes its lease to the next call of its own process, not through Redis', async () => {
    const a = createSharedBudget({ url: redis.url, name: 'pass', concurrency: 2 });
    await a(async () => {}); // connected
    const r = new Redis(redis.url);
    await r.config('RESETSTAT');
    let now = 0;
    let peak = 0;
    const call = async () => {
      now += 1;
      peak = Math.max(peak, now);
      await wait(10);
      now -= 1;
    };
    await Promise.all(Array.from({ length: 32 }, () => a(call)));
    const stats = String(await r.info('commandstats'));
    const evals = Number(/cmdstat_eval:calls=(\d+)/.exec(stats)?.[1]);
    r.disconnect();
    expect(peak).toBe(2);
    // 32 calls on 2 slots, no other process: each lease is taken once, passed on from call
    // to call (asking Redis every 9th whether another process waits) and given back once:
    // about 10 scripts, where taking and giving back every call's lease made at least 64.
    expect(evals).toBeLessThan(20);
    await a.close();
  });

  it('a lease passed on 8 times goes back when another process waits: that process is not starved', async () => {
    const a = createSharedBudget({ url: redis.url, name: 'fair', concurrency: 1 });
    const b = createSharedBudget({ url: redis.url, name: 'fair', concurrency: 1 });
    await a(async () => {});
    await b(async () => {});
    const order: string[] = [];
    const call = (who: string) => async () => {
      order.push(who);
      await wait(10);
    };
    // A has 30 calls queued before B asks for one: B must not wait for all of A's.
    const as = Array.from({ length: 30 }, () => a(call('a')));
    await wait(5);
    const bs = b(call('b'));
    await Promise.all([...as, bs]);
    expect(order.indexOf('b')).toBeGreaterThan(0);
    expect(order.indexOf('b')).toBeLessThanOrEqual(18);
    await a.close();
    await b.close();
  });

  it('a Redis that is slow (command timeouts) does not make every replica fall back to its own limit', async () => {
    const a = createSharedBudget({ url: redis.url, name: 'slow', concurrency: 2 });
    const b = createSharedBudget({ url: redis.url, name: 'slow', concurrency: 2 });
    await a(async () => {}); // both connected
    await b(async () => {});
    let now = 0;
    let peak = 0;
    const call = async () => {
      now += 1;
      peak = Math.max(peak, now);
      await wait(100);
      now -= 1;
    };
    // Redis busy for 1.5 s (a script that spins): the gates' asks time out after 1 s.
    const r = new Redis(redis.url);
    const spin = r.eval(
      "local s = redis.call('TIME') while true do local n = redis.call('TIME') if (n[1] - s[1]) * 1000000 + (n[2] - s[2]) > 1500000 then break end end return 1",
      0,
    );
    await wait(20);
    await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b)(call)));
    await spin;
    r.disconnect();
    expect(peak).toBe(2); // not 2 per replica
    await a.close();
    await b.close();
  });

  it('a lease left by a replica that died is given back when it expires', async () => {
    const r = new Redis(redis.url);
    const t = await r.time();
    const nowMs = Number(t[0]) * 1000 + Math.floor(Number(t[1]) / 1000);
    // What a SIGKILLed holder leaves behind: its leases, never renewed again.
    await r.zadd('rubrica:budget:crash:leases', nowMs + 700, 'dead-1', nowMs + 700, 'dead-2');
    const g = createSharedBudget({ url: redis.url, name: 'crash', concurrency: 2, leaseMs: 700 });
    const started = Date.now();
    expect(await g(async () => 'ran')).toBe('ran');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(400); // it did wait for the dead leases
    expect(waited).toBeLessThan(3000); // and got them back without anyone cleaning up
    await g.close();
    r.disconnect();
  });

  it('a live holder renews its lease: a call longer than the lease keeps its slot', async () => {
    const a = createSharedBudget({ url: redis.url, name: 'renew', concurrency: 1, leaseMs: 300 });
    const b = createSharedBudget({ url: redis.url, name: 'renew', concurrency: 1, leaseMs: 300 });
    let overlap = false;
    let inA = false;
    const long = a(async () => {
      inA = true;
      await wait(900); // three leases long
      inA = false;
    });
    await wait(50);
    await b(async () => {
      overlap = inA;
    });
    await long;
    expect(overlap).toBe(false);
    await a.close();
    await b.close();
  });

  it('requests per minute are counted over all replicas', async () => {
    const a = createSharedBudget({
      url: redis.url,
      name: 'rpm',
      concurrency: 8,
      requestsPerMinute: 3,
    });
    const b = createSharedBudget({
      url: redis.url,
      name: 'rpm',
      concurrency: 8,
      requestsPerMinute: 3,
    });
    let ran = 0;
    const calls = [a, b, a, b].map((g) => g(async () => (ran += 1)));
    await wait(600);
    expect(ran).toBe(3); // the fourth waits for the minute window, whichever replica asked
    await a.close();
    await b.close();
    void calls;
  });
});
