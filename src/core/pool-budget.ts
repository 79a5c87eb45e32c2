// A budget of units in flight that refuses instead of queueing: `tryAcquire(n)` reserves n
// units at once or none, and says so at once. This is the one helper for limits that must
// answer "not now" to the caller (the reward server's rollouts in flight, the bytes of
// request bodies being read) rather than make it wait; limits that should wait use p-limit.
// p-limit cannot express this: it queues every call, and counts calls, not weighted units.

export interface Budget {
  /** Units that may be in flight at once. */
  readonly max: number;
  /** Units reserved now. */
  readonly used: number;
  /** Reserve n units; false (nothing reserved) when they do not fit. */
  tryAcquire(n: number): boolean;
  /** Give n units back; never goes below zero (a double release cannot mint units). */
  release(n: number): void;
  /** Resolves once nothing is reserved (at once if nothing is). */
  idle(): Promise<void>;
}

export function createBudget(max: number): Budget {
  let used = 0;
  let waiters: Array<() => void> = [];
  return {
    max,
    get used() {
      return used;
    },
    tryAcquire(n) {
      if (used + n > max) return false;
      used += n;
      return true;
    },
    release(n) {
      used = Math.max(0, used - n);
      if (used !== 0 || waiters.length === 0) return;
      const ready = waiters;
      waiters = [];
      for (const w of ready) w();
    },
    idle() {
      if (used === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
