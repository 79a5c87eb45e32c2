// A retry budget: retries may add at most a set share of calls over a sliding window, the
// way gRPC's retry throttling and Envoy's retry budgets work. Per-call retries (`maxRetries`)
// protect one call from a blip; when the judge fails for everyone, they multiply its load by
// up to retries + 1 exactly when it can least take it (slime#1582's retry storms). Past the
// budget a failure is final at once — a grader fault the trainer leaves out of its group —
// instead of another attempt. A floor of a few retries per window keeps a quiet client (a
// handful of calls) able to ride out a single blip. The circuit breaker still stops calls to
// a server that keeps failing; this only caps what retries add on top of the calls.

/** How much retrying a client may add. */
export interface RetryBudgetOptions {
  /** Retries allowed as a share of calls started in the window. Default 0.2 (20 %). */
  ratio?: number;
  /** The sliding window, ms. Default 10 000. */
  windowMs?: number;
  /** Retries always allowed per window, whatever the ratio says. Default 10 (gRPC's maxTokens). */
  minRetries?: number;
  /** The clock (tests). Default Date.now. */
  now?: () => number;
}

/** What the budget has let through and refused, for /metrics. */
export interface RetryBudgetStats {
  /** Calls started and retries made in the current window. */
  windowCalls: number;
  windowRetries: number;
  /** Retries the window allows now: max(minRetries, ratio × windowCalls). */
  allowed: number;
  /** Totals since the client was made. */
  calls: number;
  retries: number;
  /** Retries refused because the budget was spent: those failures were final at once. */
  refused: number;
  ratio: number;
}

export interface RetryBudget {
  /** A call starts (its first attempt). */
  noteCall(): void;
  /** Whether a retry fits now, without spending it. */
  hasRoom(): boolean;
  /** Spends one retry when it fits (true); counts a refusal otherwise (false). */
  tryRetry(): boolean;
  stats(): RetryBudgetStats;
}

/** Timestamps in a sliding window, pruned from the front (they arrive in order). */
function windowCounter(windowMs: number, now: () => number) {
  const times: number[] = [];
  let head = 0;
  const prune = () => {
    const from = now() - windowMs;
    while (head < times.length && times[head]! <= from) head++;
    // Compact now and then so the array does not grow without end.
    if (head > 1024 && head * 2 > times.length) {
      times.splice(0, head);
      head = 0;
    }
  };
  return {
    add() {
      times.push(now());
    },
    count() {
      prune();
      return times.length - head;
    },
  };
}

export function createRetryBudget(o: RetryBudgetOptions = {}): RetryBudget {
  const ratio = o.ratio ?? 0.2;
  const windowMs = o.windowMs ?? 10_000;
  const minRetries = o.minRetries ?? 10;
  const now = o.now ?? Date.now;
  if (!(ratio >= 0) || !(windowMs > 0) || !(minRetries >= 0))
    throw new RangeError('retry budget: ratio ≥ 0, windowMs > 0 and minRetries ≥ 0 are needed');
  const calls = windowCounter(windowMs, now);
  const retries = windowCounter(windowMs, now);
  let totalCalls = 0;
  let totalRetries = 0;
  let refused = 0;
  const allowed = () => Math.max(minRetries, Math.floor(ratio * calls.count()));
  const hasRoom = () => retries.count() < allowed();
  return {
    noteCall() {
      calls.add();
      totalCalls++;
    },
    hasRoom,
    tryRetry() {
      if (!hasRoom()) {
        refused++;
        return false;
      }
      retries.add();
      totalRetries++;
      return true;
    },
    stats: () => ({
      windowCalls: calls.count(),
      windowRetries: retries.count(),
      allowed: allowed(),
      calls: totalCalls,
      retries: totalRetries,
      refused,
      ratio,
    }),
  };
}
