// renderSvg(): the one-call way to render, over a pool created on first use and shared by
// the whole process. Idle workers do not keep the process alive; closeSharedRenderPool()
// ends them explicitly (tests, servers shutting down).
import { createRenderPool, type RenderPool, type RenderPoolOptions } from './pool.ts';
import type { RenderOptions, RenderResult } from './types.ts';

let shared: RenderPool | null = null;

/** Configure the shared pool before its first use; later calls replace it. */
export function configureSharedRenderPool(options: RenderPoolOptions): void {
  const old = shared;
  shared = createRenderPool(options);
  void old?.close();
}

/**
 * Renders one SVG in a process-wide pool started on first use (configureSharedRenderPool sets
 * it up). Failures are values, as with a RenderPool; closeSharedRenderPool ends the pool.
 * @example
 * ```ts
 * const r = await renderSvg('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>');
 * await closeSharedRenderPool();
 * ```
 */
export function renderSvg(svg: string | Uint8Array, opts?: RenderOptions): Promise<RenderResult> {
  shared ??= createRenderPool();
  return shared.render(svg, opts);
}

/** Closes the shared pool (if one was started); the next renderSvg starts a new one. */
export async function closeSharedRenderPool(): Promise<void> {
  const p = shared;
  shared = null;
  await p?.close();
}
