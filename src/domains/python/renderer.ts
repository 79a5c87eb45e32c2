// The python domain's renderer: matplotlib scripts run in a warm pool of sandboxed zygotes
// (harness.py: pre-imported matplotlib/numpy/pandas, one forked child per job). `pool: false`
// starts a fresh sandboxed zygote per job instead (slower, same isolation and pictures).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeError } from '../../core/errors.ts';
import { pngResult } from '../png.ts';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, type SandboxSpec } from '../sandbox/bwrap.ts';
import { isFailure, LineWorker } from '../sandbox/line-worker.ts';
import { WorkerPool } from '../sandbox/worker-pool.ts';
import type { DomainRender, DomainRenderErrorCode, DomainRenderer } from '../types.ts';

export interface PythonRendererOptions {
  /** Warm zygotes (default 2); each runs one job at a time. */
  poolSize?: number;
  /** false: a fresh sandboxed process per job (for comparison). Default true. */
  pool?: boolean;
  /** Wall-clock limit per script, ms (default 20 000). */
  timeoutMs?: number;
  /** Figure resolution (default 100 dpi: matplotlib's 6.4×4.8 in → 640×480 px). */
  dpi?: number;
  limits?: Partial<SandboxLimits>;
  /** Address space a script may add to the pre-imported zygote's (default 512 MiB). */
  memoryBytes?: number;
  /** Jobs before a zygote is replaced (default 200). */
  maxJobsPerWorker?: number;
  /** The interpreter with matplotlib (default Debian's /usr/bin/python3). */
  python?: string;
}

const HARNESS_DIR = dirname(fileURLToPath(new URL('./harness.py', import.meta.url)));
const MAX_PIXELS = 2560 * 2560;

interface HarnessAnswer {
  ok: boolean;
  png?: string;
  error?: { code: DomainRenderErrorCode; message: string };
  warnings?: string[];
  stderr?: string;
}

export function createPythonRenderer(opts: PythonRendererOptions = {}): DomainRenderer {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...opts.limits };
  const spec: SandboxSpec = {
    argv: [opts.python ?? '/usr/bin/python3', '-I', '-B', '/rubrica/harness.py'],
    roBinds: [{ host: HARNESS_DIR, path: '/rubrica' }],
    env: {
      MPLBACKEND: 'Agg',
      OPENBLAS_NUM_THREADS: '1',
      OMP_NUM_THREADS: '1',
      MPLCONFIGDIR: '/tmp',
    },
    // The zygote itself holds the imported libraries: its address space gets room on top of
    // the jobs' own limit (applied per job inside the harness).
    // CPU: the zygote lives for many jobs (each job's own CPU limit is set per fork).
    limits: {
      ...limits,
      memoryBytes: limits.memoryBytes + 2 * 1024 ** 3,
      cpuSeconds: 3600,
      // The whole worker's cap (zygote + one job): a larger per-job budget raises it alike.
      sandboxMemoryBytes:
        opts.limits?.sandboxMemoryBytes ??
        limits.sandboxMemoryBytes + Math.max(0, (opts.memoryBytes ?? 0) - 512 * 1024 ** 2),
    },
  };
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const pooled = opts.pool !== false;
  const pool = pooled
    ? new WorkerPool({
        spec,
        size: opts.poolSize ?? 2,
        startTimeoutMs: 30_000,
        maxJobsPerWorker: opts.maxJobsPerWorker ?? 200,
      })
    : null;

  async function run(code: string, jobTimeout: number): Promise<unknown> {
    const job = {
      code,
      timeout: jobTimeout / 1000,
      cpu: Math.max(1, Math.min(limits.cpuSeconds, Math.ceil(jobTimeout / 1000))),
      mem: opts.memoryBytes ?? 512 * 1024 ** 2,
      fsize: limits.fileBytes,
      nproc: limits.processes,
      dpi: opts.dpi ?? 100,
      max_pixels: MAX_PIXELS,
    };
    const answerWithin = jobTimeout + 5_000; // the harness enforces the limit; this is a watchdog
    if (pool) return pool.run(job, answerWithin);
    const w = new LineWorker(spec, 30_000);
    try {
      await w.ready;
      return await w.request(job, answerWithin);
    } catch (err) {
      return { failed: 'start', message: err instanceof Error ? err.message : String(err) };
    } finally {
      await w.close();
    }
  }

  return {
    async render(code, ro = {}): Promise<DomainRender> {
      const started = performance.now();
      const answer = await run(code, ro.timeoutMs ?? timeoutMs);
      const ms = () => performance.now() - started;
      if (isFailure(answer) && answer.failed === 'memory') {
        return { ok: false, error: makeError('too_large', answer.message), ms: ms() };
      }
      if (isFailure(answer)) {
        return {
          ok: false,
          error: makeError('sandbox_error', `python sandbox ${answer.failed}: ${answer.message}`),
          ms: ms(),
        };
      }
      const a = answer as HarnessAnswer;
      const notes = {
        warnings: a.warnings ?? [],
        ...(a.stderr ? { stderrTail: a.stderr.slice(-2000) } : {}),
      };
      if (!a.ok || typeof a.png !== 'string') {
        const error = a.error ?? { code: 'exec_error' as const, message: 'no figure' };
        return { ok: false, error: makeError(error.code, error.message), ms: ms(), notes };
      }
      return pngResult(Buffer.from(a.png, 'base64'), started, notes);
    },
    async close() {
      await pool?.close();
    },
  };
}
