// A fixed number of warm LineWorkers, started lazily, one job each at a time. A worker that
// died or went silent is replaced before its slot takes the next job; a worker is also
// recycled after `maxJobsPerWorker` jobs, so whatever slowly accumulates in a long-lived
// process (memory, caches) is bounded even though each job is already isolated.
// Jobs wait for a slot in p-limit's queue (first come, first served); a job that holds the
// limit takes a free slot index from #free, which then can never be empty.
import pLimit from 'p-limit';
import { RubricaError } from '../../core/errors.ts';
import type { SandboxSpec } from './bwrap.ts';
import { isFailure, LineWorker, type LineWorkerFailure } from './line-worker.ts';

export interface WorkerPoolOptions {
  spec: SandboxSpec;
  size: number;
  startTimeoutMs: number;
  maxJobsPerWorker: number;
}

export class WorkerPool {
  readonly #opts: WorkerPoolOptions;
  readonly #slots: Array<LineWorker | null>;
  /** Slots no job holds; the most recently freed is reused first (its worker is warm). */
  readonly #free: number[];
  readonly #limit: ReturnType<typeof pLimit>;
  #closed = false;

  constructor(opts: WorkerPoolOptions) {
    this.#opts = opts;
    this.#slots = Array.from({ length: opts.size }, () => null);
    this.#free = this.#slots.map((_, i) => i);
    this.#limit = pLimit(opts.size);
  }

  /** Runs one job on a warm worker; a worker failure is returned, never thrown. */
  async run(job: unknown, answerWithinMs: number): Promise<unknown | LineWorkerFailure> {
    if (this.#closed) throw new RubricaError('pool_closed', 'the domain renderer is closed');
    return this.#limit(async () => {
      const slot = this.#free.pop()!;
      try {
        const worker = await this.#worker(slot);
        if (isFailure(worker)) return worker;
        return await worker.request(job, answerWithinMs);
      } finally {
        this.#free.push(slot);
      }
    });
  }

  async #worker(slot: number): Promise<LineWorker | LineWorkerFailure> {
    let w = this.#slots[slot] ?? null;
    if (w && (!w.alive || w.jobs >= this.#opts.maxJobsPerWorker)) {
      void w.close();
      w = null;
    }
    if (!w) {
      w = new LineWorker(this.#opts.spec, this.#opts.startTimeoutMs);
      this.#slots[slot] = w;
    }
    try {
      await w.ready;
      return w;
    } catch (err) {
      w.kill();
      this.#slots[slot] = null;
      return { failed: 'start', message: err instanceof Error ? err.message : String(err) };
    }
  }

  /** Starts every worker now (benchmarks, servers that want warm slots before traffic). */
  async warm(): Promise<void> {
    await Promise.all(this.#slots.map((_, i) => this.#worker(i)));
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(this.#slots.map((w) => w?.close()));
  }
}
