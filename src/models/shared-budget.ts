// One judge budget for every replica: calls in flight and a rate limit (requests and tokens
// per minute), kept in the Redis the replicas already share. A call holds a lease, a sorted-
// set member whose score is its expiry; the holder renews it while the call runs, so a
// replica that dies (SIGKILL, OOM, node lost) stops renewing and its capacity comes back
// after `leaseMs` on its own — nothing to clean up by hand. The check and the take happen in
// one Lua script on Redis's clock, so replicas never race each other or disagree on time.
// Without a shared store the client keeps its per-process p-limit (src/models/client.ts);
// if Redis fails mid-run the gate falls back to that per-replica limit (logged), so a
// Redis outage slows nothing down to zero and never fails a call.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pLimit from 'p-limit';

/**
 * How many calls in a row one lease may pass to the next waiting call of the same process
 * before it goes back to Redis, where every process's waiters compete for it.
 */
const MAX_PASSES = 8;
/** How long a process that gave a lease back for another waits before asking again, ms. */
const YIELD_MS = 10;

/** What a model client runs each attempt through: p-limit's call shape, plus token charging. */
export interface CallGate {
  <T>(fn: () => Promise<T>): Promise<T>;
  /** Count tokens a finished attempt used against the tokens-per-minute limit. */
  charge(tokens: number): void;
  /** Calls in flight through this gate in this process. */
  readonly activeCount: number;
  close(): Promise<void>;
}

/** The shared budget's limits; 0 turns a rate limit off. */
export interface SharedBudgetOptions {
  /** redis://host:port/db, usually the same as `--cache`. */
  url: string;
  /** Names the budget: replicas with the same name share it (e.g. the judge's model and URL). */
  name: string;
  /** Calls in flight at once over all replicas. */
  concurrency: number;
  /** Requests started per rolling minute over all replicas (0: no limit). */
  requestsPerMinute?: number;
  /** Tokens (input + output) per rolling minute over all replicas (0: no limit). */
  tokensPerMinute?: number;
  /**
   * A lease not renewed for this long is given back (default 6 s: what a crashed replica's
   * slots are lost for; the holder renews every third of it, so only a process whose event
   * loop stalls that long loses a lease it still uses).
   */
  leaseMs?: number;
  /**
   * Longest a waiting call sleeps without a release message before asking again, ms: what
   * a lease that expired (its holder died) or a rate window costs at most (default 250).
   */
  pollMs?: number;
  /** Called once per burst when Redis fails and the gate falls back to the local limit. */
  onFault?: (err: unknown) => void;
}

// Returns 1 (taken), 0 (no slot), -1 (request rate), -2 (token rate).
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, rpm, tpm, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[4]) then
  -- Taken by an earlier ask whose answer was lost (a command timeout): still ours.
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[4])
  return 1
end
if redis.call('ZCARD', KEYS[1]) >= limit then
  -- This process waits: say so for a holder deciding whether to pass its lease on (HANDOFF).
  redis.call('ZADD', KEYS[4], now + tonumber(ARGV[7]), ARGV[6])
  redis.call('PEXPIRE', KEYS[4], tonumber(ARGV[7]) * 2)
  return 0
end
if rpm > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
  if redis.call('ZCARD', KEYS[2]) >= rpm then return -1 end
end
if tpm > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 60000)
  local sum = 0
  for _, m in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
    sum = sum + tonumber(string.match(m, ':(%d+)$'))
  end
  if sum >= tpm then return -2 end
end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ttl * 4)
redis.call('ZREM', KEYS[4], ARGV[6])
if rpm > 0 then
  redis.call('ZADD', KEYS[2], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[2], 120000)
end
return 1`;

const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 4)
return 1`;

const RELEASE = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[1])
return 1`;

// A lease passed on MAX_PASSES times in a row: given back (1) when another process waits for
// a slot, else kept (0) and renewed for this process's next call.
const HANDOFF = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local others = redis.call('ZCARD', KEYS[2])
if redis.call('ZSCORE', KEYS[2], ARGV[2]) then others = others - 1 end
if others > 0 then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('PUBLISH', ARGV[3], ARGV[1])
  return 1
end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[4]), ARGV[1])
return 0`;

const CHARGE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], 120000)
return 1`;

/**
 * A CallGate whose concurrency and rates hold over every process using the same Redis and
 * budget name. Leases expire `leaseMs` after their holder stops renewing them.
 */
export function createSharedBudget(o: SharedBudgetOptions): CallGate {
  const leaseMs = o.leaseMs ?? 6_000;
  const pollMs = o.pollMs ?? 250;
  const base = `rubrica:budget:${o.name}`;
  const keys = [`${base}:leases`, `${base}:requests`, `${base}:tokens`, `${base}:waiting`];
  const me = randomUUID(); // this process, among those waiting for a slot
  const channel = `${base}:released`;
  const opts = { lazyConnect: true, commandTimeout: 1000, maxRetriesPerRequest: 1 };
  const redis = new Redis(o.url, opts);
  const sub = new Redis(o.url, opts);
  for (const r of [redis, sub]) {
    r.on('error', () => {});
    r.connect().catch(() => {});
  }
  // Waiters wake on any replica's release (pub/sub), or after a short poll for expiries and
  // rate windows that no message announces. `releases` counts the messages seen, so an ask
  // that raced a release (the message came while the ask was on its way) asks again at once
  // instead of sleeping through the only wake-up it would get.
  let releases = 0;
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    releases += 1;
    const w = wake;
    wake = undefined;
    w?.();
  };
  sub.on('message', wakeUp);
  sub.subscribe(channel).catch(() => {});
  const nextRelease = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = undefined;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const local = pLimit(o.concurrency);
  let lastFault = 0;
  let closed = false;
  const fault = (err: unknown) => {
    if (closed || Date.now() - lastFault < 10_000) return;
    lastFault = Date.now();
    if (o.onFault) o.onFault(err);
    else
      process.stderr.write(
        `rubrica: shared judge budget unavailable (${err instanceof Error ? err.message : String(err)}); ` +
          'limiting this replica alone\n',
      );
  };

  // The calls of this process queue up here and only the first asks Redis: a release wakes
  // one ask per replica, not one per waiting call (a herd of evals that slowed every
  // hand-off), and this replica's calls get their slots in the order they asked.
  // `done` gets the lease the call now holds: its own id when Redis gave it one, or the lease
  // of a call of this process that just finished (passed on, below), with how many times
  // that lease has been passed on in a row.
  type Lease = { id: string; passes: number };
  type Waiter = { id: string; done: (lease: Lease | undefined, err?: unknown) => void };
  const queue: Waiter[] = [];
  let asking: Waiter | undefined; // the waiter whose ask is on its way to Redis
  let yieldUntil = 0;
  let pumping = false;
  let slow = 0; // asks in a row that timed out on a connected Redis
  const ask = (id: string) =>
    redis.eval(
      ACQUIRE,
      4,
      ...keys,
      o.concurrency,
      o.requestsPerMinute ?? 0,
      o.tokensPerMinute ?? 0,
      id,
      leaseMs,
      me,
      2 * pollMs, // a waiter asks again at least every pollMs: a lapsed entry is a gone one
    ) as Promise<number>;
  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length > 0) {
        // Just gave a lease back for another process: let its ask reach Redis first.
        const yielding = yieldUntil - performance.now();
        if (yielding > 0) await new Promise((r) => setTimeout(r, yielding));
        const head = queue[0]!;
        const seen = releases;
        let got: number;
        try {
          asking = head;
          got = await ask(head.id);
          slow = 0;
        } catch (err) {
          // Connected but slow (a command timeout on a loaded machine): ask again with the
          // same id (the script knows a lease it already gave it). Falling back to the
          // local limit here would let every replica send its own --concurrency at once.
          // A Redis that has answered nothing for ten timeouts in a row counts as gone.
          if (redis.status === 'ready' && !closed && ++slow < 10) {
            await new Promise((r) => setTimeout(r, 50));
            continue;
          }
          slow = 0;
          // Redis is gone: every queued call falls back to the local limit now, rather
          // than each waiting out its own command timeout in turn.
          for (const w of queue.splice(0)) w.done(undefined, err);
          break;
        } finally {
          asking = undefined;
        }
        if (got === 1) {
          // Not shift(): a lease passed on while this ask was out took a waiter behind it.
          queue.splice(queue.indexOf(head), 1);
          head.done({ id: head.id, passes: 0 });
          continue; // more slots may be free (several releases at once): ask again now
        }
        if (releases !== seen) continue;
        // A full slot frees on a release message (or an expiry: polled); a rate window only
        // with time.
        await nextRelease(pollMs);
      }
    } finally {
      pumping = false;
    }
  };
  /** Resolves with the lease this call holds; rejects when Redis cannot be asked. */
  const acquire = (id: string) =>
    new Promise<Lease>((resolve, reject) => {
      queue.push({ id, done: (lease, err) => (lease ? resolve(lease) : reject(err)) });
      void pump();
    });
  // A finishing call's lease goes directly to the next waiting call of this process, if any:
  // that skips a release and an ask (two Redis round trips and a wake-up, most of a hand-off
  // from one judge call to the next). Not with rate limits (each call must be counted in
  // Redis). After MAX_PASSES passes in a row the holder asks Redis whether another process
  // waits (HANDOFF): if so the lease goes back, and this process lets the other ask first.
  const waiting = () => queue.some((w) => w !== asking);
  const passOn = (lease: Lease): boolean => {
    const at = queue.findIndex((w) => w !== asking);
    if (at < 0) return false;
    queue.splice(at, 1)[0]!.done(lease);
    return true;
  };
  // Give it back and tell every replica in one round trip; this replica's own waiters need
  // not wait for the message to come back. An unreturned lease expires on its own.
  const giveBack = (lease: Lease) =>
    redis.eval(RELEASE, 1, keys[0]!, lease.id, channel).then(wakeUp).catch(fault);
  const handOff = (lease: Lease) => {
    if (closed || o.requestsPerMinute || o.tokensPerMinute || !waiting()) return giveBack(lease);
    if (lease.passes < MAX_PASSES) return passOn({ id: lease.id, passes: lease.passes + 1 });
    redis
      .eval(HANDOFF, 2, keys[0]!, keys[3]!, lease.id, me, channel, leaseMs)
      .then((given) => {
        if (given === 1) {
          yieldUntil = performance.now() + YIELD_MS;
          wakeUp();
        } else if (!passOn({ id: lease.id, passes: 0 })) void giveBack(lease);
      })
      .catch((err) => {
        fault(err);
        void giveBack(lease);
      });
  };

  let active = 0;
  const gate = (async <T>(fn: () => Promise<T>): Promise<T> => {
    let lease: Lease;
    try {
      lease = await acquire(randomUUID());
    } catch (err) {
      fault(err);
      return local(fn);
    }
    active += 1;
    const renew = setInterval(() => {
      redis.eval(RENEW, 1, keys[0]!, lease.id, leaseMs).catch(fault);
    }, leaseMs / 3);
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      active -= 1;
      // A lease passed on is taken as it is: renewed at most a third of its time ago, and
      // renewed by its new holder from now on.
      handOff(lease);
    }
  }) as CallGate;
  gate.charge = (tokens: number) => {
    if (!(o.tokensPerMinute && tokens > 0)) return;
    redis.eval(CHARGE, 1, keys[2]!, `${randomUUID()}:${Math.round(tokens)}`).catch(fault);
  };
  Object.defineProperty(gate, 'activeCount', { get: () => active + local.activeCount });
  gate.close = async () => {
    closed = true; // a release still on its way when the connection closes is no fault
    // QUIT is answered after every command sent before it, so the lease of the last call
    // is given back, not left to expire (a drained replica leaves its capacity at once);
    // an unreachable Redis gets a second, then the sockets are dropped.
    const bye = (r: Redis) =>
      Promise.race([
        r.quit().catch(() => {}),
        new Promise<void>((res) => setTimeout(res, 1000).unref()),
      ]).then(() => r.disconnect());
    await Promise.all([bye(redis), bye(sub)]);
  };
  return gate;
}
