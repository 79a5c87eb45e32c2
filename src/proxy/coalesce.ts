// Singleflight: requests with the same key while one is in flight join it instead of making
// their own call. The flight is never tied to any one caller — a caller that goes away (a
// replica SIGKILLed) leaves it running for the others and for the cache.

export interface Coalescer<T> {
  /** Runs `start` unless a flight of `key` is on; `joined` says which happened. */
  run(key: string, start: () => Promise<T>): { result: Promise<T>; joined: boolean };
  /** Flights in progress now. */
  readonly size: number;
  /** Resolves when no flight is in progress. */
  idle(): Promise<void>;
}

export function createCoalescer<T>(): Coalescer<T> {
  const flights = new Map<string, Promise<T>>();
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (flights.size > 0) return;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  return {
    run(key, start) {
      const on = flights.get(key);
      if (on) return { result: on, joined: true };
      const result = start();
      flights.set(key, result);
      // Removed only once settled: the answer is in the cache by then (start() stores it
      // before resolving), so no request falls between the flight and the cache.
      const done = () => {
        if (flights.get(key) === result) flights.delete(key);
        settle();
      };
      result.then(done, done);
      return { result, joined: false };
    },
    get size() {
      return flights.size;
    },
    idle() {
      if (flights.size === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
