// In-flight de-duplication with a reference-counted abort. When several callers ask for the
// same thing at once (identical pictures in a batch, or two trainer requests carrying the
// same rollouts), one call runs and all of them share its answer. The call gets its own
// AbortController: a caller that goes away only stops waiting, and the call is aborted when
// the last waiting caller is gone — so one client's disconnect never fails another client.

export interface Shared<T> {
  value: T;
  /** True for the one caller that owns the call's result (it gets the usage). */
  owner: boolean;
}

export type SharedOutcome<T> = Shared<T> | { aborted: true };

interface Entry<T> {
  promise: Promise<T>;
  controller: AbortController;
  waiters: number;
  /** Set once a waiter took ownership of the result. */
  claimed: boolean;
}

export interface SharedCalls<T> {
  /**
   * Joins the call running under `key`, or starts `start(signal)` when none is. Resolves with
   * the value, or `{aborted: true}` as soon as this caller's own `signal` fires.
   */
  run(
    key: string,
    start: (signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<SharedOutcome<T>>;
  /** Calls running now (tests, metrics). */
  readonly size: number;
}

export function createSharedCalls<T>(): SharedCalls<T> {
  const running = new Map<string, Entry<T>>();

  const join = (key: string, entry: Entry<T>, signal?: AbortSignal): Promise<SharedOutcome<T>> => {
    entry.waiters++;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      entry.waiters--;
      if (entry.waiters > 0) return;
      // Nobody is waiting any more: stop the call, and let a later caller start afresh.
      if (running.get(key) === entry) running.delete(key);
      entry.controller.abort(signal?.reason);
    };
    if (signal?.aborted) {
      leave();
      return Promise.resolve({ aborted: true });
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        leave();
        resolve({ aborted: true });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      entry.promise.then(
        (value) => {
          signal?.removeEventListener('abort', onAbort);
          if (left) return;
          left = true;
          entry.waiters--;
          // Waiters are settled in the order they joined: the earliest one still here owns it.
          const owner = !entry.claimed;
          entry.claimed = true;
          resolve({ value, owner });
        },
        (err: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          if (!left) reject(err);
        },
      );
    });
  };

  return {
    run(key, start, signal) {
      if (signal?.aborted) return Promise.resolve({ aborted: true });
      const existing = running.get(key);
      if (existing) return join(key, existing, signal);
      const controller = new AbortController();
      const entry: Entry<T> = {
        promise: Promise.resolve().then(() => start(controller.signal)),
        controller,
        waiters: 0,
        claimed: false,
      };
      running.set(key, entry);
      const forget = () => {
        if (running.get(key) === entry) running.delete(key);
      };
      entry.promise.then(forget, forget);
      return join(key, entry, signal);
    },
    get size() {
      return running.size;
    },
  };
}
