// Where the render worker lives and how to start it. From source the worker is a .ts file
// run through tsx's loader, resolved from this package (not the caller's cwd) so the CLI
// works from any directory.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A render worker's V8 heap limit unless the pool is told otherwise. */
export const DEFAULT_WORKER_HEAP_MB = 512;

export interface WorkerEntry {
  file: string;
  execArgv: string[];
  /** Added to the parent's environment for the worker. */
  env: Record<string, string>;
  /** Removed from the parent's environment for the worker. */
  dropEnv: readonly string[];
}

/**
 * One libuv thread: a worker runs one render at a time, so sharp's work never waits for a
 * second thread, while idle threads woken for each job cost CPU in futex hand-offs
 * (measured: 12.4 → 8.7 CPU-ms a render in a pool worker, docs/rendering.md).
 */
export const WORKER_ENV = { UV_THREADPOOL_SIZE: '1' } as const;

/**
 * Inherited variables a worker does without. NODE_EXTRA_CA_CERTS makes Node read and parse
 * a certificate bundle before any code runs (~45 ms of each start with Debian's bundle, on
 * `rubrica inspect`'s critical path); a render worker opens no connection.
 */
export const WORKER_ENV_DROPPED = ['NODE_EXTRA_CA_CERTS'] as const;

export function workerEntry(maxOldSpaceMb: number): WorkerEntry {
  const url = new URL(
    import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js',
    import.meta.url,
  );
  const heapMb = Math.max(64, Math.floor(maxOldSpaceMb));
  // V8 sizes its full-GC schedule from the heap limit: under a 512 MB cap it ran a full
  // mark-compact every ~10 renders (each render leaves ~2 MB of pixel buffers outside the
  // JS heap, which counts toward the limit), ~2–3 CPU-ms per render on average. Starting
  // the old generation at a quarter of the cap (at most 64 MB) cut that to a handful per
  // 200 renders (docs/rendering.md, Performance); the cap itself is unchanged.
  // --single-threaded-gc: a scavenge (one every ~10 renders) otherwise splits its work over
  // V8's helper threads and waits for them; a worker sized for one core on a busy machine
  // waited twice as long (bench/render-latency.ts, 416 files, load 14: 93–292 → 48–152 ms
  // of scavenges, same count; docs/rendering.md, Performance).
  const execArgv = [
    `--max-old-space-size=${heapMb}`,
    `--initial-old-space-size=${Math.min(64, Math.floor(heapMb / 4))}`,
    '--single-threaded-gc',
  ];
  if (url.pathname.endsWith('.ts')) {
    const tsx = createRequire(import.meta.url).resolve('tsx');
    execArgv.push('--import', pathToFileURL(tsx).href);
  }
  return {
    file: fileURLToPath(url),
    execArgv,
    env: { ...WORKER_ENV },
    dropEnv: WORKER_ENV_DROPPED,
  };
}
