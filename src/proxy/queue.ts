// Bounded waiting in front of the call budget (issue 42): at most `maxQueue` upstream calls
// wait for a slot, and none waits longer than `timeoutMs`; past either bound the call is
// refused (503 `queue_full` + Retry-After) so a replica's client retries or backs off instead
// of hanging behind a backlog. A call whose clients have all gone still counts (its answer
// is kept for their retries, as documented), so a burst of abandoned calls fills the queue
// and is refused rather than queued without bound. A call refused after waiting drops its
// work at once; if the budget then hands it a slot, the slot is given straight back.
import type { CallGate } from '../models/shared-budget.ts';

export const QUEUE_FULL = Symbol('queue_full');

export interface QueuedGate {
  /** Runs fn under the budget, or QUEUE_FULL when the queue is full or the wait too long. */
  run<T>(fn: () => Promise<T>): Promise<T | typeof QUEUE_FULL>;
  /** Calls waiting for a slot now. */
  readonly waiting: number;
  /** Calls holding a slot now (through this process). */
  readonly running: number;
  readonly maxQueue: number;
  readonly timeoutMs: number;
}

export function createQueuedGate(
  gate: CallGate,
  o: { maxQueue: number; timeoutMs: number },
): QueuedGate {
  let waiting = 0;
  let running = 0;
  return {
    get waiting() {
      return waiting;
    },
    get running() {
      return running;
    },
    maxQueue: o.maxQueue,
    timeoutMs: o.timeoutMs,
    run<T>(fn: () => Promise<T>): Promise<T | typeof QUEUE_FULL> {
      if (waiting >= o.maxQueue) return Promise.resolve(QUEUE_FULL);
      waiting += 1;
      // Dropped on timeout, so a refused call's request body is not held until its turn.
      let job: (() => Promise<T>) | undefined = fn;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<typeof QUEUE_FULL>((resolve) => {
        timer = setTimeout(() => {
          if (!job) return;
          job = undefined;
          waiting -= 1;
          resolve(QUEUE_FULL);
        }, o.timeoutMs);
      });
      const ran = gate(async (): Promise<T | typeof QUEUE_FULL> => {
        const work = job;
        if (!work) return QUEUE_FULL; // gave up waiting: the slot goes straight back
        job = undefined;
        clearTimeout(timer);
        waiting -= 1;
        running += 1;
        try {
          return await work();
        } finally {
          running -= 1;
        }
      });
      return Promise.race([ran, timedOut]);
    },
  };
}
