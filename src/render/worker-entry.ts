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
}

export function workerEntry(maxOldSpaceMb: number): WorkerEntry {
  const url = new URL(
    import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js',
    import.meta.url,
  );
  const execArgv = [`--max-old-space-size=${Math.max(64, Math.floor(maxOldSpaceMb))}`];
  if (url.pathname.endsWith('.ts')) {
    const tsx = createRequire(import.meta.url).resolve('tsx');
    execArgv.push('--import', pathToFileURL(tsx).href);
  }
  return { file: fileURLToPath(url), execArgv };
}
