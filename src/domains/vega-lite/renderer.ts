// The vega-lite domain: a persistent vega runtime (worker.mjs in a worker thread with a
// bounded heap) turns the spec into SVG, which the SVG renderer draws like any SVG (fitted
// into its square canvas). A runtime that runs over time or out of memory is terminated and
// replaced; its job reports `timeout` / `too_large`.
import { Worker } from 'node:worker_threads';
import { makeError } from '../../core/errors.ts';
import type { Renderer, RenderOptions } from '../../render/types.ts';
import type { DomainRender, DomainRenderErrorCode, DomainRenderer } from '../types.ts';

export interface VegaLiteRendererOptions {
  /** Draws the chart's SVG (the SVG domain's renderer). */
  svgRenderer: Renderer;
  render?: RenderOptions;
  /** Spec → SVG limit, ms (default 10 000). */
  timeoutMs?: number;
  /** Inline data rows accepted (default 50 000). */
  maxRows?: number;
  /** Heap of the vega runtime, MB (default 256). */
  heapMb?: number;
  maxSpecBytes?: number;
}

type WorkerAnswer =
  | { id: number; ok: true; svg: string; rows: number; warnings: string[] }
  | { id: number; ok: false; code: DomainRenderErrorCode; message: string };

export function createVegaLiteRenderer(opts: VegaLiteRendererOptions): DomainRenderer {
  const heapMb = opts.heapMb ?? 256;
  let worker: Worker | null = null;
  let nextId = 0;
  let chain: Promise<unknown> = Promise.resolve();
  let closed = false;

  function start(): Worker {
    const w = new Worker(new URL('./worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    w.unref();
    return w;
  }

  /** One spec on the runtime (jobs are serialised: vega is single-threaded anyway). */
  function toSvg(spec: string, timeoutMs: number): Promise<WorkerAnswer> {
    const w = worker ?? start();
    worker = w;
    const id = nextId++;
    return new Promise<WorkerAnswer>((resolve) => {
      const done = (a: WorkerAnswer) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        resolve(a);
      };
      const replace = () => {
        if (worker === w) worker = null;
        void w.terminate();
      };
      const timer = setTimeout(() => {
        replace();
        done({ id, ok: false, code: 'timeout', message: `vega ran over ${timeoutMs} ms` });
      }, timeoutMs);
      const onMessage = (m: WorkerAnswer) => {
        if (m.id === id) done(m);
      };
      const onError = (e: Error & { code?: string }) => {
        replace();
        const oom = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
        done({
          id,
          ok: false,
          code: oom ? 'too_large' : 'sandbox_error',
          message: oom ? `the chart needs more than ${heapMb} MB` : `vega runtime: ${e.message}`,
        });
      };
      const onExit = () => {
        replace();
        done({ id, ok: false, code: 'sandbox_error', message: 'the vega runtime exited' });
      };
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      w.postMessage({ id, spec, maxRows: opts.maxRows ?? 50_000 });
    });
  }

  return {
    async render(code, ro = {}): Promise<DomainRender> {
      const started = performance.now();
      const ms = () => performance.now() - started;
      if (closed) return { ok: false, error: makeError('sandbox_error', 'renderer closed'), ms: 0 };
      const maxBytes = opts.maxSpecBytes ?? 5 * 1024 ** 2;
      if (Buffer.byteLength(code) > maxBytes) {
        return { ok: false, error: makeError('too_large', `spec over ${maxBytes} bytes`), ms: 0 };
      }
      const run = chain.then(() => toSvg(code, ro.timeoutMs ?? opts.timeoutMs ?? 10_000));
      chain = run.catch(() => {});
      const a = await run;
      if (!a.ok) return { ok: false, error: makeError(a.code, a.message), ms: ms() };
      const notes = { dataRows: a.rows, ...(a.warnings.length ? { warnings: a.warnings } : {}) };
      const r = await opts.svgRenderer.render(a.svg, opts.render);
      if (!r.ok) return { ok: false, error: r.error, ms: ms(), notes };
      return { ok: true, png: r.png, width: r.width, height: r.height, ms: ms(), notes };
    },
    async close() {
      closed = true;
      await worker?.terminate();
      worker = null;
    },
  };
}
