// The smiles domain (chemistry, PrismaForge's "via RDKit"): the answer is a list of
// molecules as SMILES, one per line with an optional name; RDKit (Debian python3-rdkit)
// draws them as a grid of 300-px panels inside the sandbox. SMILES is data, not code, but
// the parser and the drawer still run sandboxed and bounded (size, molecule count, CPU, time).
// Warm by default (issue 23): sandboxed `draw.py --serve` workers keep RDKit imported —
// starting Python and importing RDKit was most of a one-shot run — one job each at a time,
// replaced after 500 jobs, on a timeout, a death or a kill over the memory cap.
// `pool: false` runs draw.py in a fresh one-shot sandbox per list (same pictures and codes).
import { fileURLToPath } from 'node:url';
import { makeError } from '../../core/errors.ts';
import { pngResult } from '../png.ts';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from '../sandbox/bwrap.ts';
import { isFailure } from '../sandbox/line-worker.ts';
import { createOneShotRenderer } from '../sandbox/one-shot.ts';
import { WorkerPool } from '../sandbox/worker-pool.ts';
import type { DomainRender, DomainRenderer } from '../types.ts';

export interface SmilesRendererOptions {
  timeoutMs?: number;
  limits?: Partial<SandboxLimits>;
  /** false: a fresh one-shot sandbox per list. Default true (warm RDKit workers). */
  pool?: boolean;
  /** Warm workers (default 1). */
  poolSize?: number;
}

const DRAW = fileURLToPath(new URL('./draw.py', import.meta.url));
const MAX_CODE_BYTES = 16 * 1024;

export function createSmilesRenderer(opts: SmilesRendererOptions = {}): DomainRenderer {
  const limits = { cpuSeconds: 20, memoryBytes: 2 * 1024 ** 3, processes: 16, ...opts.limits };
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const spec = {
    // draw.py exits 3 (not a molecule: exec_error) or 4 (none: no_output), as one-shot expects.
    argv: ['/usr/bin/python3', '-I', '/opt/rubrica/draw.py'],
    roBinds: [{ host: DRAW, path: '/opt/rubrica/draw.py' }],
    limits,
  };
  const oneShot = createOneShotRenderer({
    name: 'rdkit',
    spec,
    timeoutMs,
    maxCodeBytes: MAX_CODE_BYTES,
  });
  if (opts.pool === false) return oneShot;
  const pool = new WorkerPool({
    spec: {
      ...spec,
      asPid1: true,
      argv: [...spec.argv, '--serve'],
      // The worker lives for many jobs: each job is bounded by its wall clock.
      limits: { ...DEFAULT_SANDBOX_LIMITS, ...limits, cpuSeconds: 3600 },
    },
    size: Math.max(1, opts.poolSize ?? 1),
    startTimeoutMs: 30_000,
    maxJobsPerWorker: 500,
  });
  return {
    async render(code, ro = {}): Promise<DomainRender> {
      const started = performance.now();
      if (Buffer.byteLength(code) > MAX_CODE_BYTES) {
        const message = `rdkit code over ${MAX_CODE_BYTES} bytes`;
        return { ok: false, error: makeError('too_large', message), ms: 0 };
      }
      const limit = ro.timeoutMs ?? timeoutMs;
      const a = await pool.run({ text: code }, limit);
      const ms = () => performance.now() - started;
      if (isFailure(a)) {
        if (a.failed === 'memory')
          return { ok: false, error: makeError('too_large', a.message), ms: ms() };
        if (a.failed === 'unresponsive') {
          return { ok: false, error: makeError('timeout', `rdkit ran over ${limit} ms`), ms: ms() };
        }
        // RDKit died on this list (or the worker could not start): exactly the one-shot's verdict.
        return oneShot.render(code, ro);
      }
      const o = (typeof a === 'object' && a !== null ? a : {}) as Record<string, unknown>;
      if (o.ok === true && typeof o.png === 'string') {
        return pngResult(Buffer.from(o.png, 'base64'), started, {});
      }
      const message =
        typeof o.message === 'string' ? o.message.trim().slice(0, 1500) : 'rdkit failed';
      const notes = { stderrTail: message };
      if (o.exit === 4) {
        return {
          ok: false,
          error: makeError('no_output', `rdkit produced no picture:\n${message}`),
          ms: ms(),
          notes,
        };
      }
      return {
        ok: false,
        error: makeError('exec_error', `rdkit failed:\n${message}`),
        ms: ms(),
        notes,
      };
    },
    async close() {
      await pool.close();
      await oneShot.close();
    },
  };
}
