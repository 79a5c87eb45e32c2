// The vega-lite domain: a warm vega runtime (worker.mjs in its own sandboxed process with a
// bounded heap and memory cgroup, runtime.ts) turns the spec into SVG, which the SVG renderer
// draws like any SVG (fitted into its square canvas). A runtime that runs over time or out of
// memory is killed and replaced; its job reports `timeout` / `too_large`, and only that job
// fails: the process serving other rollouts never runs the policy's spec itself.
import type { ResolvedAssets } from '../../core/assets.ts';
import { makeError } from '../../core/errors.ts';
import type { Renderer, RenderOptions } from '../../render/types.ts';
import type { DomainRender, DomainRenderErrorCode, DomainRenderer } from '../types.ts';
import { type RuntimeAnswer, VegaRuntime } from './runtime.ts';

type Answer =
  | Extract<RuntimeAnswer, { ok: true }>
  | { ok: false; code: DomainRenderErrorCode; message: string };

/** Jobs one runtime serves before it is replaced (bounds whatever slowly accumulates). */
const JOBS_PER_RUNTIME = 500;

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
  /** Memory cgroup cap of the runtime's whole sandbox, bytes (default vega-sandbox's). */
  sandboxMemoryBytes?: number;
  maxSpecBytes?: number;
}

export function createVegaLiteRenderer(opts: VegaLiteRendererOptions): DomainRenderer {
  const heapMb = opts.heapMb ?? 256;
  let runtime: VegaRuntime | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  let closed = false;

  /** The warm runtime, replaced when it died or has done its share of jobs. */
  async function warm(): Promise<VegaRuntime> {
    if (runtime && (!runtime.alive || runtime.jobs >= JOBS_PER_RUNTIME)) {
      void runtime.close();
      runtime = null;
    }
    runtime ??= new VegaRuntime({
      heapMb,
      ...(opts.sandboxMemoryBytes ? { sandboxMemoryBytes: opts.sandboxMemoryBytes } : {}),
    });
    await runtime.ready;
    return runtime;
  }

  /** One spec on the runtime (jobs are serialised: vega is single-threaded anyway). */
  async function toSvg(spec: string, timeoutMs: number, assets?: ResolvedAssets): Promise<Answer> {
    // The task's data files, as text: vega reads them by name (worker.mjs), nothing else.
    const text = assets
      ? Object.fromEntries(Object.entries(assets).map(([n, b]) => [n, b.toString('utf8')]))
      : {};
    const job = { spec, maxRows: opts.maxRows ?? 50_000, assets: text };
    // A runtime killed from outside (the OOM killer, an operator) is not the spec's fault:
    // the job is retried once on a fresh runtime, and blamed only if that one dies too.
    for (let attempt = 0; ; attempt++) {
      let r: VegaRuntime;
      try {
        r = await warm();
      } catch (e) {
        runtime = null;
        return { ok: false, code: 'sandbox_error', message: (e as Error).message };
      }
      const a = await r.run(job, timeoutMs);
      if (!('failed' in a)) return a;
      if (a.failed === 'timeout')
        return { ok: false, code: 'timeout', message: `vega ran over ${timeoutMs} ms` };
      if (a.failed === 'out_of_memory') {
        return { ok: false, code: 'too_large', message: `the chart needs more than ${heapMb} MB` };
      }
      if (a.failed === 'memory_cap') {
        const message = 'the chart went over the sandbox memory cap';
        return { ok: false, code: 'too_large', message };
      }
      if (attempt >= 1) return { ok: false, code: 'render_crash', message: a.message };
    }
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
      const run = chain.then(() =>
        toSvg(code, ro.timeoutMs ?? opts.timeoutMs ?? 10_000, ro.assets),
      );
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
      await runtime?.close();
      runtime = null;
    },
  };
}
