// The lilypond domain: LilyPond (Debian `lilypond`) engraves the score inside the sandbox,
// its PNG back end (Ghostscript) rasterises it with -dcrop (the systems only, every page's
// together, without the page's margins, page numbers and tagline), trimmed to the ink.
// Per file it costs what a bare `lilypond` does (issue 23, docs/domains.md): Guile loads
// LilyPond's compiled Scheme (compiled-scheme.ts) and only the cropped picture is drawn.
// By default it engraves in warm sandboxed zygotes (zygote.scm, warm.ts): LilyPond loaded
// once, a forked child per score that dies with the score's data, the same pictures and
// failures; `pool: false` runs one fresh sandboxed `lilypond` per score instead.
// LilyPond's own "safe mode" no longer exists (removed in 2.23.12): embedded Scheme can call
// anything Guile offers, so the sandbox is the whole defence — no network, no host files, no
// host environment, CPU/memory/process/file-size limits (docs/domains.md).
import type { SandboxLimits } from '../sandbox/bwrap.ts';
import { isFailure } from '../sandbox/line-worker.ts';
import { createOneShotRenderer, EXIT_NO_OUTPUT, EXIT_TOOL_FAILED } from '../sandbox/one-shot.ts';
import { WorkerPool } from '../sandbox/worker-pool.ts';
import type { DomainRender, DomainRenderer } from '../types.ts';
import { lilypondCompiledScheme } from './compiled-scheme.ts';
import { warmResult, zygoteJob, zygoteSpec } from './warm.ts';

export interface LilypondRendererOptions {
  timeoutMs?: number;
  /** Rasterising resolution (default 200 dpi: one system of a staff is ≈ 1450×110 px). */
  dpi?: number;
  limits?: Partial<SandboxLimits>;
  /**
   * Default true: warm sandboxed zygotes (zygote.scm, warm.ts) that load LilyPond once and
   * fork one child per score. false: one fresh sandboxed `lilypond` per score.
   */
  pool?: boolean;
  /** Warm zygotes (default 2, like python's and dot's pools), one score each at a time. */
  poolSize?: number;
  /** Scores before a zygote is replaced (default 200). */
  maxJobsPerWorker?: number;
}

/** A bare music expression (no \version, \score or \header) is wrapped as one score. */
export function lilypondDocument(code: string): string {
  if (/\\(?:version|score|header|book|paper)\b/.test(code)) return code;
  return `\\version "2.24.0"\n{\n${code}\n}\n`;
}

// -dcrop writes out.cropped.png (all systems, no page furniture); -dno-print-pages skips the
// whole pages' PNG, which nothing reads (a Ghostscript run less: ≈ 0.3 CPU-s a file);
// -dno-point-and-click keeps file paths out of the output.
function pipeline(dpi: number): string {
  return [
    'cat > score.ly',
    `lilypond --png -dcrop -dno-print-pages -dresolution=${dpi} -dno-point-and-click -o out score.ly > log.txt 2>&1 || { grep -m5 -E 'error|Error' log.txt >&2 || tail -c 1500 log.txt >&2; exit ${EXIT_TOOL_FAILED}; }`,
    `[ -s out.cropped.png ] && exec cat out.cropped.png; tail -c 1500 log.txt >&2; exit ${EXIT_NO_OUTPUT}`,
  ].join('\n');
}

/** The sandbox's environment: no auto-compiling, and LilyPond's compiled Scheme when found. */
export function lilypondEnv(compiled = lilypondCompiledScheme()): Record<string, string> {
  return {
    GUILE_AUTO_COMPILE: '0',
    XDG_CACHE_HOME: '/tmp/cache',
    ...(compiled ? { GUILE_LOAD_COMPILED_PATH: compiled } : {}),
  };
}

export function createLilypondRenderer(opts: LilypondRendererOptions = {}): DomainRenderer {
  const dpi = opts.dpi ?? 200;
  const limits = { cpuSeconds: 30, memoryBytes: 2 * 1024 ** 3, processes: 32, ...opts.limits };
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxCodeBytes = 128 * 1024;
  const oneShot = createOneShotRenderer({
    name: 'lilypond',
    spec: { argv: ['/bin/sh', '-c', pipeline(dpi)], env: lilypondEnv(), limits },
    timeoutMs,
    maxCodeBytes,
    trim: true,
    prepare: lilypondDocument,
  });
  // Warm by default since the zygote holds no job's data (issue 36, heap.slow.test.ts).
  if (opts.pool === false) return oneShot;
  // The zygote lives for many jobs: the CPU limit is set per job in its child (zygote.scm),
  // and the zygote holds LilyPond loaded on top of a job's address space.
  const spec = zygoteSpec(dpi, lilypondEnv(), {
    ...limits,
    cpuSeconds: 3600,
    memoryBytes: limits.memoryBytes + 1024 ** 3,
  });
  const pool = new WorkerPool({
    spec,
    size: Math.max(1, opts.poolSize ?? 2),
    startTimeoutMs: 60_000,
    maxJobsPerWorker: opts.maxJobsPerWorker ?? 200,
  });
  return {
    async render(code, ro = {}): Promise<DomainRender> {
      if (Buffer.byteLength(code) > maxCodeBytes) return oneShot.render(code, ro);
      const started = performance.now();
      const jobTimeout = ro.timeoutMs ?? timeoutMs;
      const job = zygoteJob(lilypondDocument(code), jobTimeout, limits.cpuSeconds);
      // The zygote enforces the limit; the extra 5 s is a watchdog over the zygote itself.
      const answer = await pool.run(job, jobTimeout + 5_000);
      // A zygote that cannot start: this score runs one-shot (same sandbox, same result).
      if (isFailure(answer) && answer.failed === 'start') return oneShot.render(code, ro);
      return warmResult(answer, jobTimeout, started);
    },
    async close() {
      await pool.close();
      await oneShot.close();
    },
  };
}
