// The proxy's budget on upstream calls: --concurrency calls at once and, optionally,
// --judge-rpm / --judge-tpm. With a redis:// --cache it is the shared budget
// (src/models/shared-budget.ts), so several proxies in front of one judge hold one limit;
// otherwise it is this process's own (p-limit, and a rolling-minute window for the rates).
// Only upstream calls pass through it: cache hits and joiners of a flight take no slot.
import pLimit from 'p-limit';
import { type CallGate, createSharedBudget } from '../models/shared-budget.ts';
import { cacheKey } from '../store/keys.ts';
import { isRedisUrl } from '../store/redis-cache.ts';

export interface GateOptions {
  upstream: string;
  concurrency: number;
  rpm: number;
  tpm: number;
  /** The --cache value; a redis:// URL makes the budget shared. */
  cache?: string;
}

/** A rolling-minute limit of requests and tokens in this process (0: off). */
export function localRates(rpm: number, tpm: number) {
  const starts: number[] = [];
  const spent: Array<{ at: number; n: number }> = [];
  const trim = (now: number) => {
    while (starts.length && starts[0]! <= now - 60_000) starts.shift();
    while (spent.length && spent[0]!.at <= now - 60_000) spent.shift();
  };
  return {
    /** ms to wait before a request may start (0: now, and it is counted). */
    take(now: number): number {
      trim(now);
      if (rpm > 0 && starts.length >= rpm) return starts[0]! + 60_000 - now;
      const used = spent.reduce((s, e) => s + e.n, 0);
      if (tpm > 0 && used >= tpm) return spent[0]!.at + 60_000 - now;
      starts.push(now);
      return 0;
    },
    charge(n: number, now = Date.now()) {
      if (n > 0) spent.push({ at: now, n });
    },
  };
}

function localGate(o: GateOptions): CallGate {
  const limit = pLimit(o.concurrency);
  const rates = localRates(o.rpm, o.tpm);
  const gate = (<T>(fn: () => Promise<T>) =>
    limit(async () => {
      for (;;) {
        const wait = rates.take(Date.now());
        if (wait <= 0) break;
        await new Promise((r) => setTimeout(r, Math.min(wait, 1000)));
      }
      return fn();
    })) as CallGate;
  Object.defineProperty(gate, 'activeCount', { get: () => limit.activeCount });
  gate.charge = (n) => rates.charge(n);
  gate.close = async () => {};
  return gate;
}

export function createProxyGate(o: GateOptions): CallGate {
  if (o.cache && isRedisUrl(o.cache)) {
    return createSharedBudget({
      url: o.cache,
      // Proxies in front of the same upstream share one budget; not the replicas' name.
      name: cacheKey(['judge-proxy-budget', o.upstream]).slice(0, 16),
      concurrency: o.concurrency,
      requestsPerMinute: o.rpm,
      tokensPerMinute: o.tpm,
    });
  }
  return localGate(o);
}
