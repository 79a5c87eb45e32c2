// What a one-shot command calls first of all: a render worker with the pool's default entry,
// forked before the command loads, for its first createRenderPool() to claim (worker-slot.ts).
import { DEFAULT_WORKER_HEAP_MB, workerEntry } from './worker-entry.ts';
import { prestartWorker } from './worker-slot.ts';

/** Forks the worker; its pid (for tests and logs), undefined if the fork failed. */
export function prestartRenderWorker(): number | undefined {
  return prestartWorker(workerEntry(DEFAULT_WORKER_HEAP_MB));
}
