// The python domain's renderer: matplotlib scripts run in a warm pool of sandboxed zygotes
// (harness.py: pre-imported matplotlib/numpy/pandas, one forked child per job). `pool: false`
// starts a fresh sandboxed zygote per job instead (slower, same isolation and pictures).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedAssets } from '../../core/assets.ts';
import { makeError } from '../../core/errors.ts';
import { pngResult } from '../png.ts';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, type SandboxSpec } from '../sandbox/bwrap.ts';
import { isFailure, LineWorker } from '../sandbox/line-worker.ts';
import { WorkerPool } from '../sandbox/worker-pool.ts';
import type { DomainNotes, DomainRender, DomainRenderErrorCode, DomainRenderer } from '../types.ts';

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

/**
 * The failure codes the harness may answer with, all the job's own. Anything else (above
 * all a grader fault's code: infra_error, judge_error, scorer_error, cache_error) never
 * originates in a sandbox and becomes the job's exec_error.
 */
export const PYTHON_HARNESS_CODES: ReadonlySet<DomainRenderErrorCode> = new Set([
  'exec_error',
  'no_output',
  'too_large',
  'timeout',
  'sandbox_error',
] as const);

type Answer =
  | { fail: { code: DomainRenderErrorCode; message: string }; notes: DomainNotes }
  | { png: Buffer; notes: DomainNotes };

/** The harness's answer, read as untrusted JSON: only fields of the expected types count. */
export function readAnswer(a: unknown): Answer {
  const o = (typeof a === 'object' && a !== null ? a : {}) as Record<string, unknown>;
  const warnings = Array.isArray(o.warnings)
    ? o.warnings.filter((w): w is string => typeof w === 'string').slice(0, 50)
    : [];
  const notes: DomainNotes = {
    warnings,
    ...(typeof o.stderr === 'string' && o.stderr ? { stderrTail: o.stderr.slice(-2000) } : {}),
  };
  if (o.ok === true && typeof o.png === 'string')
    return { png: Buffer.from(o.png, 'base64'), notes };
  const e = (typeof o.error === 'object' && o.error !== null ? o.error : {}) as Record<
    string,
    unknown
  >;
  const message = typeof e.message === 'string' ? e.message : 'no figure';
  const code = e.code as DomainRenderErrorCode;
  if (typeof e.code === 'string' && PYTHON_HARNESS_CODES.has(code))
    return { fail: { code, message }, notes };
  return { fail: { code: 'exec_error', message }, notes };
}

export function createPythonRenderer(opts: PythonRendererOptions = {}): DomainRenderer {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...opts.limits };
  const spec: SandboxSpec = {
    // The zygote is the sandbox's pid 1: no bwrap init inside, which a job could trace and
    // which would hold the protocol channels (issue 22); the zygote reaps and kills itself.
    asPid1: true,
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

  async function run(code: string, jobTimeout: number, assets?: ResolvedAssets): Promise<unknown> {
    const job = {
      code,
      ...(assets && Object.keys(assets).length > 0
        ? {
            assets: Object.fromEntries(
              Object.entries(assets).map(([n, b]) => [n, b.toString('base64')]),
            ),
          }
        : {}),
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
      const answer = await run(code, ro.timeoutMs ?? timeoutMs, ro.assets);
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
      const a = readAnswer(answer);
      if ('fail' in a) {
        return {
          ok: false,
          error: makeError(a.fail.code, a.fail.message),
          ms: ms(),
          notes: a.notes,
        };
      }
      return pngResult(a.png, started, a.notes);
    },
    async close() {
      await pool?.close();
    },
  };
}
