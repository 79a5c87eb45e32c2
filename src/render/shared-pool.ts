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

export function renderSvg(svg: string | Uint8Array, opts?: RenderOptions): Promise<RenderResult> {
  shared ??= createRenderPool();
  return shared.render(svg, opts);
}

export async function closeSharedRenderPool(): Promise<void> {
  const p = shared;
  shared = null;
  await p?.close();
}
