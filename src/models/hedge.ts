// Hedged judge calls on the wire: when an attempt has not answered after the recent p95
// (`auto`) or N ms, one identical second request goes out — to another judge server when
// there are several (judge-servers.ts) — and the first good answer wins; the other is aborted
// and counted. Hedges are capped to a share of requests over a sliding window (the retry
// budget's arithmetic) and pass through the same concurrency slot as every attempt, so they
// share the judge budget. This sits under the retry loop: a hedge is part of one attempt.
import { createJudgeServers, type JudgeServers } from './judge-servers.ts';
import { createRetryBudget } from './retry-budget.ts';

/** `auto`: after the recent p95 of answered requests; a number: after that many ms; off. */
export type HedgeAfter = 'auto' | number | 'off';

export interface HedgeOptions {
  afterMs?: HedgeAfter;
  /** Hedges as a share of requests over 10 s. Default 0.05. */
  maxShare?: number;
  /** `auto` hedges only once this many answers were timed. Default 20. */
  minSamples?: number;
}

export interface HedgeStats {
  requests: number;
  /** Second requests sent. */
  hedges: number;
  /** Hedges whose answer came first. */
  hedgeWins: number;
  /** Requests aborted because the other one answered first. */
  dropped: number;
  /** The delay `auto` uses now (ms), null until enough answers were timed. */
  autoAfterMs: number | null;
}

/** Parses `--hedge-after-ms auto|N|off`; null when it is none of those. */
export function parseHedgeAfter(v: string): HedgeAfter | null {
  if (v === 'auto' || v === 'off') return v;
  const n = Number(v);
  return v.trim() !== '' && Number.isInteger(n) && n > 0 ? n : null;
}

/** A good answer: one the retry loop would keep (not a 5xx, 429 or 408). */
const good = (res: Response) => res.status < 500 && res.status !== 429 && res.status !== 408;

/** The recent latencies of answered requests and their p95. */
function latencyWindow(size = 256) {
  const ring: number[] = [];
  let next = 0;
  let cached: number | null = null;
  let since = 0;
  return {
    add(ms: number) {
      if (ring.length < size) ring.push(ms);
      else ring[next] = ms;
      next = (next + 1) % size;
      if (++since >= 8) cached = null;
    },
    p95(minSamples: number): number | null {
      if (ring.length < minSamples) return null;
      if (cached === null) {
        const sorted = [...ring].sort((a, b) => a - b);
        cached = sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))]!;
        since = 0;
      }
      return cached;
    },
  };
}

export interface HedgedFetch {
  fetch: typeof globalThis.fetch;
  servers: JudgeServers;
  stats(): HedgeStats;
}

/**
 * A fetch over `inner` that spreads requests over `servers` (URLs starting with the first
 * server's base are re-targeted) and hedges slow ones. `inner` is the slot-holding fetch.
 */
export function hedgedFetch(
  inner: typeof globalThis.fetch,
  urls: readonly string[],
  o: HedgeOptions = {},
  servers: JudgeServers = createJudgeServers(urls),
): HedgedFetch {
  // Off unless asked for: `serve` asks (its --hedge-after-ms defaults to auto), where one slow
  // judge call holds a whole training step; a batch command's extra calls would buy little.
  const afterMs = o.afterMs ?? 'off';
  const minSamples = o.minSamples ?? 20;
  const budget = createRetryBudget({ ratio: o.maxShare ?? 0.05, minRetries: 1 });
  const latency = latencyWindow();
  const primary = urls[0]!;
  const stats = { requests: 0, hedges: 0, hedgeWins: 0, dropped: 0 };
  const delay = () =>
    afterMs === 'off' ? null : afterMs === 'auto' ? latency.p95(minSamples) : afterMs;
  const target = (url: string, i: number) =>
    url.startsWith(primary) ? urls[i]! + url.slice(primary.length) : url;

  const fetchFn: typeof globalThis.fetch = (input, init) => {
    stats.requests++;
    budget.noteCall();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    // Only a body that can be sent twice can be hedged (the SDK sends JSON strings).
    const resendable = init?.body === undefined || typeof init.body === 'string';
    return new Promise<Response>((resolve, reject) => {
      type Leg = {
        ctl: AbortController;
        end: (x: 'success' | 'failure' | 'dropped') => void;
        hedge: boolean;
      };
      const legs: Leg[] = [];
      let settled = false;
      let running = 0;
      let lastFail: { res?: Response; err?: unknown } = {};
      let timer: NodeJS.Timeout | undefined;
      const finishAll = (winner: Leg | null) => {
        settled = true;
        clearTimeout(timer);
        for (const l of legs) {
          if (l === winner) continue;
          // The loser: a first request beaten by its hedge was too slow (it counts against
          // its server); a hedge beaten by the first request says nothing of its server.
          l.end(l.hedge ? 'dropped' : 'failure');
          l.ctl.abort(new Error('hedged: the other request answered first'));
          stats.dropped++;
        }
      };
      const send = (i: number, hedge: boolean) => {
        const ctl = new AbortController();
        const signal = init?.signal ? AbortSignal.any([init.signal, ctl.signal]) : ctl.signal;
        const leg: Leg = { ctl, end: servers.start(i), hedge };
        legs.push(leg);
        running++;
        const t0 = performance.now();
        inner(target(url, i), { ...init, signal }).then(
          (res) => {
            running--;
            if (settled) return;
            if (good(res)) {
              leg.end('success');
              latency.add(performance.now() - t0);
              if (hedge) stats.hedgeWins++;
              finishAll(leg);
              resolve(res);
              return;
            }
            leg.end('failure');
            lastFail = { res };
            if (running === 0) {
              finishAll(null);
              resolve(res);
            }
          },
          (err: unknown) => {
            running--;
            if (settled) return;
            leg.end(ctl.signal.aborted ? 'dropped' : 'failure');
            lastFail = { err };
            if (running === 0) {
              finishAll(null);
              if (lastFail.res) resolve(lastFail.res);
              else reject(err);
            }
          },
        );
        return i;
      };
      const first = send(servers.pick(), false);
      const wait = resendable ? delay() : null;
      if (wait !== null) {
        timer = setTimeout(() => {
          if (settled || init?.signal?.aborted || !budget.tryRetry()) return;
          stats.hedges++;
          send(servers.pick(new Set([first])), true);
        }, wait);
      }
    });
  };
  return {
    fetch: fetchFn,
    servers,
    stats: () => ({ ...stats, autoAfterMs: afterMs === 'auto' ? latency.p95(minSamples) : null }),
  };
}
